package parse

// Rows of the programs that show, search or copy the files they are
// given: their operands are read (RoleRead). Which reads matter is
// policy's to judge (a credential shown, copied or sent). The rows of
// grep, sed, sort, less, vim, emacs, zip, cp, scp and rsync, which say
// more, are with the others.

var readRows = []Program{
	// Programs whose options take no value and whose every operand is a
	// file they show, compare or encode.
	{Name: "cat", Args: "*:read",
		Also: []string{"tac", "nl", "bat", "batcat", "nano", "code", "uniq", "paste", "column", "fold", "fmt", "base64", "base32",
			"basenc", "xxd", "od", "hexdump", "hd", "strings", "diff", "cmp", "comm", "gzip", "bzip2", "xz", "zstd", "gpg"}},
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
	// 7z's first operand is its command letter (7z a out.7z FILE…).
	{Name: "7z", Pattern: true, Args: "*:read"},
}
