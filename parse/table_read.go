package parse

import "strings"

// Rows of the programs that show, search or copy the files they are
// given: their operands are read (RoleRead). Which reads matter is
// policy's to judge (a credential shown, copied or sent). The rows of
// grep, sed, sort, less, vim, emacs, zip, cp, scp and rsync, which say
// more, are with the others.

var readRows = []Program{
	// Programs whose options take no value and whose every operand is a
	// file they show, compare or encode.
	{Name: "cat", Args: "*:read",
		Also: []string{"tac", "nl", "bat", "batcat", "nano", "code", "uniq", "paste", "column", "fold", "fmt",
			"od", "hexdump", "hd", "strings", "diff", "cmp", "comm", "gpg"}},
	// source FILE ARGS: the words after the file are its parameters.
	{Name: "source", Also: []string{"."}, Args: "0:read"},
	{Name: "head", Opts: "-n|--lines= -c|--bytes=", Args: "*:read"},
	{Name: "tail", Opts: "-n|--lines= -c|--bytes= -s|--sleep-interval= --pid=", Args: "*:read"},
	{Name: "cut", Opts: "-b|--bytes= -c|--characters= -d|--delimiter= -f|--fields=", Args: "*:read"},
	{Name: "iconv", Opts: "-f|--from-code= -t|--to-code= -o|--output=", Args: "*:read"},
	// The searchers and filters: the first operand is the pattern or
	// program, unless an option gave it.
	{Name: "rg", Pattern: true, PatternOpts: "-e -f", Args: "*:read",
		Opts: "-e|--regexp= -f|--file= -g|--glob= -t|--type= -T|--type-not= -A|--after-context= -B|--before-context= -C|--context= -m|--max-count= -M|--max-columns="},
	{Name: "ag", Also: []string{"ack"}, Pattern: true, Args: "*:read"},
	{Name: "awk", Also: []string{"gawk"}, Pattern: true, PatternOpts: "-f", Opts: "-f|--file= -v|--assign= -F|--field-separator=", Args: "*:read"},
	{Name: "jq", Pattern: true, PatternOpts: "-f", Opts: "--arg= --argjson= -f|--from-file=", Args: "*:read"},
	{Name: "yq", Pattern: true, Args: "*:read"},
	// 7z's first operand is its command letter (7z a out.7z FILE…); its
	// switches are one word each, values attached (-oDIR, -mx9). a and u
	// add files to the archive named first, and with -sdel delete them
	// afterwards, directories with everything below them.
	{Name: "7z", Also: []string{"7za", "7zr", "7zz"}, Pattern: true, SingleDashLong: true, Args: "*:read", Flags: "removes:-sdel"},
	// Given no files, a and u take the working directory's.
	{Name: "7z a", Also: []string{"u"}, SingleDashLong: true, Args: "*:read 1*:deleted:tree?removes", Flags: "removes:-sdel", Implied: "1:.",
		Hold: []string{`7z a -sdel /tmp/a.7z ~`, `7za a /tmp/p.7z /home/dev/projects -sdel`, `7z -sdel a /tmp/a.7z ~`, `7zr u -sdel /tmp/a.7z /etc`,
			`cd ~ && 7z a -sdel /tmp/h.7z`, `cd /etc && 7z a /tmp/e.7z -sdel`,
			`7z a /tmp/h.7z -sdel "-ir!$HOME"`, `7z a -sdel /tmp/e.7z -i!/etc/ssh`},
		Allow: []string{`7z a out.7z src/`, `7z a -sdel logs.7z logs/old`, `7z a -mx9 -sdel /tmp/build.7z build`, `7z x deps.7z -ovendor`, `7z l a.7z`,
			`cd build && 7z a -sdel /tmp/out.7z`, `cd ~ && 7z a /tmp/h.7z`, `7z a -sdel logs.7z logs/old '-ir!logs/*.old'`}},
}

// sevenZipIncludes gives 7z a's include switches the roles of its file
// operands: -i!WILDCARD, -ir!…, -ir-!…, -ir0!… name files it archives
// (and with -sdel deletes, directories with everything below them, as
// -i!$HOME -sdel does); -i@LISTFILE names them in a file, places the
// line does not show.
func sevenZipIncludes(fr *frame, c *Command, args []arg, _ parsedArgs) {
	for _, a := range args[1:] {
		rest, ok := strings.CutPrefix(a.Value, "-i")
		if !ok || !strings.HasPrefix(a.Known(), "-i") {
			continue
		}
		for _, r := range []string{"r-", "r0", "r"} {
			if after, ok := strings.CutPrefix(rest, r); ok {
				rest = after
				break
			}
		}
		var w arg
		switch {
		case strings.HasPrefix(rest, "!"):
			w = valueArg(a, rest[1:])
		case strings.HasPrefix(rest, "@"):
			w = valueArg(a, Unknown) // the list file's lines
		default:
			continue
		}
		fr.applyRole(c, roleSpec{role: RoleRead}, w, nil, "-i", "7z -i")
		if c.Flag("removes") {
			fr.applyRole(c, roleSpec{role: RoleDeleted, lang: "tree"}, w, nil, "-i", "7z -i")
		}
	}
}
