package policy

import (
	"path/filepath"
	"strings"

	"github.com/guard-exec/guard-exec/internal/paths"
	"github.com/guard-exec/guard-exec/parse"
)

// mvSources: moving a file away deletes it where it was.
func mvSources(x *Ctx, c *parse.Command, ops []parse.Word, ws []write) []write {
	srcs := ops
	if lastOption(c, "-t") == "" {
		if len(srcs) < 2 {
			return ws
		}
		srcs = srcs[:len(srcs)-1]
	}
	for _, s := range srcs {
		ws = append(ws, write{kind: wDelete, t: x.target(c, s), tree: true})
	}
	return ws
}

// installDirs: install -d creates its operands as directories.
func installDirs(x *Ctx, c *parse.Command, ops []parse.Word, ws []write) []write {
	if !c.Flag("directories") {
		return ws
	}
	ws = ws[:0]
	for _, op := range ops {
		ws = append(ws, write{kind: wMkdir, t: x.target(c, op)})
	}
	return ws
}

// chmodTargets: chmod changes the mode of the files its row reads after
// the mode; a mode that only takes access away tightens them.
func chmodTargets(x *Ctx, c *parse.Command, _ []parse.Word, ws []write) []write {
	mode, _, files := chmodArgs(c)
	tighten := mode.Value != "" && mode.Literal() && chmodTightens(mode.Value)
	for _, w := range files {
		ws = append(ws, write{kind: wMeta, t: x.target(c, w), follow: true, tighten: tighten})
	}
	return ws
}

// chownTargets are the files chown and chgrp change.
func chownTargets(x *Ctx, c *parse.Command, _ []parse.Word, ws []write) []write {
	for _, w := range ownedFiles(c) {
		ws = append(ws, write{kind: wMeta, t: x.target(c, w), follow: true})
	}
	return ws
}

// ownedFiles are the operands of chown or chgrp but the owner, which
// their row gives LANG "owner" (none with --reference).
func ownedFiles(c *parse.Command) []parse.Word {
	var out []parse.Word
	for _, ra := range c.Roles {
		if ra.Opt == "" && ra.Role == parse.RoleData && ra.Lang != "owner" {
			out = append(out, ra.Word)
		}
	}
	return out
}

// chmodTightens reports whether a chmod mode only takes access away from
// others: an octal mode granting group and others nothing (600, 0700,
// 400), or symbolic clauses that each remove (go-rwx), clear (o=) or touch
// only the owner (u+x). `chmod 600 ~/.ssh/id_ed25519` is what ssh asks
// for; it must not read as tampering. A mode that takes the owner's own
// read away (000, a-r, u=) does not secure the file, it breaks it
// (chmod -R 000 ~/.ssh locks ssh out of its keys).
func chmodTightens(mode string) bool {
	if mode == "" {
		return false
	}
	if strings.Trim(mode, "01234567") == "" {
		return len(mode) >= 3 && len(mode) <= 4 && strings.HasSuffix(mode, "00") &&
			(mode[len(mode)-3]-'0')&4 != 0
	}
	for _, clause := range strings.Split(mode, ",") {
		i := strings.IndexAny(clause, "+-=")
		if i < 0 {
			return false
		}
		who, op, perms := clause[:i], clause[i], clause[i+1:]
		owner := who == "" || strings.ContainsAny(who, "ua")
		switch {
		case strings.Trim(who, "ugoa") != "" || strings.ContainsAny(perms, "+-="):
			return false // a second operator or a mode the table cannot read
		case owner && (op == '-' && strings.ContainsRune(perms, 'r') || op == '=' && !strings.ContainsRune(perms, 'r')):
			return false // the owner's own read goes
		case op == '-':
		case op == '=' && perms == "":
		case who == "u":
		default:
			return false
		}
	}
	return true
}

// editsInPlace: sed -i and perl -i edit the files after their program
// (their rows' RoleRead operands).
func editsInPlace(x *Ctx, c *parse.Command, _ []parse.Word, ws []write) []write {
	for _, op := range c.Operands(parse.RoleRead) {
		ws = append(ws, write{kind: wModify, t: x.target(c, op), follow: true})
	}
	return ws
}

// patchTargets: patch FILE edits FILE; -d DIR works in DIR.
func patchTargets(x *Ctx, c *parse.Command, ops []parse.Word, ws []write) []write {
	if len(ops) > 0 && lastOption(c, "-o") == "" {
		ws = append(ws, write{kind: wModify, t: x.target(c, ops[0]), follow: true})
	}
	if d := lastOption(c, "-d"); d != "" {
		ws = append(ws, write{kind: wInto, t: x.target(c, valueWord(d))})
	}
	return ws
}

// curlRemoteName: -O saves each URL under its last path segment, in
// --output-dir or the working directory, replacing what is there; -J
// takes the name from the server, which cannot be known.
func curlRemoteName(x *Ctx, c *parse.Command, ops []parse.Word, ws []write) []write {
	if !c.Flag("names-from-url") && !c.Flag("names-from-server") {
		return ws
	}
	dir := lastOption(c, "--output-dir")
	if dir == "" {
		dir = "."
	}
	if c.Flag("names-from-server") {
		return append(ws, write{kind: wInto, t: x.target(c, valueWord(dir))})
	}
	for _, u := range append(ops, c.OptionValues("--url")...) {
		if name := parse.URLName(u.Value, ""); name != "" {
			ws = append(ws, write{kind: wWrite, t: x.target(c, valueWord(dir+"/"+name)), follow: true})
		}
	}
	return ws
}

// wgetDefault: without -O, wget saves each URL under its last path
// segment (index.html for none) in -P DIR or the working directory, and
// never replaces a file: it picks name.1 instead.
func wgetDefault(x *Ctx, c *parse.Command, ops []parse.Word, ws []write) []write {
	if len(c.OptionValues("-O")) > 0 || c.Flag("spider") {
		return ws
	}
	dir := lastOption(c, "-P")
	if dir == "" {
		dir = "."
	}
	for _, u := range ops {
		if name := parse.URLName(u.Value, "index.html"); name != "" {
			ws = append(ws, write{kind: wCreate, t: x.target(c, valueWord(dir+"/"+name)), follow: true})
		}
	}
	return ws
}

// tarTargets: extracting writes into -C DIR (or the working directory);
// creating writes the archive -f FILE. The old form puts the letters in
// the first word without a dash (tar xzf a.tgz -C /).
func tarTargets(x *Ctx, c *parse.Command, _ []parse.Word, ws []write) []write {
	if c.Row != "tar" {
		return ws
	}
	switch {
	case c.Flag("extract"):
		dir := lastOption(c, "-C")
		if dir == "" {
			dir = "."
		}
		ws = append(ws, write{kind: wInto, t: x.target(c, valueWord(dir))})
	case c.Flag("create"):
		if f := lastOption(c, "-f"); f != "" && f != "-" && !remoteOperand(f) {
			ws = append(ws, write{kind: wWrite, t: x.target(c, valueWord(f)), follow: true})
		}
	}
	return ws
}

// lastOption returns the last value given to an option the row gives a
// role ("-C" for tar's -C|--directory), or "".
func lastOption(c *parse.Command, opt string) string {
	vs := c.OptionValues(opt)
	if len(vs) == 0 {
		return ""
	}
	return vs[len(vs)-1].Value
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if (s[i] < 'a' || s[i] > 'z') && (s[i] < 'A' || s[i] > 'Z') {
			return false
		}
	}
	return true
}

// unzipTargets: unzip writes into -d DIR, else the working directory;
// -l, -t, -v, -p and -Z only read.
func unzipTargets(x *Ctx, c *parse.Command, _ []parse.Word, ws []write) []write {
	if c.Row != "unzip" || c.Flag("lists") {
		return ws
	}
	dir := lastOption(c, "-d")
	if dir == "" {
		dir = "."
	}
	return append(ws, write{kind: wInto, t: x.target(c, valueWord(dir))})
}

// gitTargets: git clone URL [DIR] creates DIR, else a directory named
// after the URL, in the working directory or git -C's. git config is
// judged by setting, not as a file write (boundary.go).
func gitTargets(x *Ctx, c *parse.Command, _ []parse.Word, ws []write) []write {
	if gitTakesIgnored(c) {
		// Ignored files go (into a stash commit, or away): the ledger's
		// directory is one.
		root := x.Project
		if c.Row == "git clean" && c.Dir != "" {
			root = c.Dir
		}
		if root != "" {
			ws = append(ws, write{kind: wDelete, t: x.target(c, valueWord(root)), tree: true, selfOnly: true})
		}
		return ws
	}
	if c.Row != "git clone" {
		return ws
	}
	ops := c.Operands(parse.RoleData)
	base := "."
	for _, ra := range c.Roles {
		if ra.Role == parse.RoleDir && ra.Opt == "-C" {
			base = ra.Word.Value
		}
	}
	switch len(ops) {
	case 0:
		return ws
	case 1:
		name := strings.TrimSuffix(parse.URLName(strings.TrimRight(ops[0].Value, "/"), ""), ".git")
		if i := strings.LastIndexByte(name, ':'); i >= 0 { // host:repo
			name = name[i+1:]
		}
		if name == "" {
			return append(ws, write{kind: wInto, t: x.target(c, valueWord(base))})
		}
		return append(ws, write{kind: wCreate, t: x.target(c, valueWord(base+"/"+name))})
	}
	dir := ops[1]
	if !filepath.IsAbs(dir.Value) && base != "." {
		dir.Value = base + "/" + dir.Value
	}
	return append(ws, write{kind: wCreate, t: x.target(c, dir)})
}

// crontabTargets: installing (crontab FILE, crontab -), editing (-e) or
// removing (-r) the user's crontab changes what runs on a schedule.
func crontabTargets(x *Ctx, c *parse.Command, _ []parse.Word, ws []write) []write {
	if c.Flag("list") && !c.Flag("edit") && !c.Flag("remove") {
		return ws
	}
	return append(ws, write{kind: wWrite, persist: true, t: Target{Word: parse.Word{Value: "crontab"}}})
}

// keygenTargets: ssh-keygen -f FILE writes a key pair there, unless the
// mode only reads the file (-l, -y, -F, -L, -Q, -B).
func keygenTargets(x *Ctx, c *parse.Command, _ []parse.Word, ws []write) []write {
	if c.Row != "ssh-keygen" || c.Flag("reads") || len(c.OptionValues("-F")) > 0 || len(c.OptionValues("-D")) > 0 {
		return ws
	}
	f := lastOption(c, "-f")
	if f == "" {
		return ws
	}
	t := x.target(c, valueWord(f))
	ws = append(ws, write{kind: wWrite, t: t, follow: true})
	if t.Known && len(c.OptionValues("-R")) == 0 {
		pub := valueWord(f + ".pub")
		ws = append(ws, write{kind: wWrite, t: x.target(c, pub), follow: true})
	}
	return ws
}

// findTargets: find's -delete removes what it finds under its starting
// points, and so may the program an -exec runs; the files -fprint and
// friends write are written roles of what parse reads of find.
func findTargets(x *Ctx, c *parse.Command, _ []parse.Word, ws []write) []write {
	starts := findRoots(c)
	names, keeps := findNames(c)
	if c.Flag("deletes") {
		for _, s := range starts {
			w := write{kind: wDelete, t: x.target(c, s), recursive: true, tree: true, names: names}
			if keeps {
				w.names = noNames
			}
			ws = append(ws, w)
		}
	}
	// The program an -exec runs is judged on its own, with the files as
	// unknown arguments; what the ledger needs to know is whether they
	// may be its files.
	for _, p := range findRuns(c) {
		if deleters[filepath.Base(p.Value)] && !keeps {
			for _, s := range starts {
				ws = append(ws, write{kind: wDelete, t: x.target(c, s), tree: true, names: names, selfOnly: true})
			}
		}
	}
	return ws
}

// findRuns returns the programs find's -exec, -execdir, -ok and -okdir
// run, as parse reads its expression.
func findRuns(c *parse.Command) []parse.Word {
	var out []parse.Word
	for _, ra := range c.Roles {
		if ra.Role == parse.RoleProgram && ra.Opt != "" {
			out = append(out, ra.Word)
		}
	}
	return out
}

// deleters are the programs that delete or move the files find hands them.
var deleters = map[string]bool{"rm": true, "unlink": true, "shred": true, "mv": true, "truncate": true, "rmdir": false}

// findNames returns the -name/-iname/-path patterns of a find expression
// (the base of a -path pattern), and whether it deletes only what cannot
// be the ledger: empty files and directories (-empty, or -type d alone,
// which -delete removes only when empty). With -o anywhere, the names are
// not a filter.
func findNames(c *parse.Command) (names []string, harmless bool) {
	for _, ra := range c.Roles {
		v := ra.Opt
		switch {
		case ra.Role == parse.RoleData && v == "-type" && ra.Word.Value == "d":
			harmless = true
		case ra.Role != parse.RoleFilter:
		case v == "-name", v == "-iname", v == "-path", v == "-ipath", v == "-wholename", v == "-iwholename":
			pat := ra.Word.Value
			if strings.Contains(pat, parse.Unknown) {
				pat = "*"
			}
			if v != "-name" && v != "-iname" {
				pat = pat[strings.LastIndexByte(pat, '/')+1:]
			}
			if strings.HasPrefix(v, "-i") {
				pat = strings.ToLower(pat)
			}
			names = append(names, pat)
		}
	}
	if c.Flag("alternatives") {
		names = nil
	}
	return names, harmless || c.Flag("empty")
}

// rsyncFileDest: rsync SRC DEST copies into DEST when it is a directory,
// and replaces it when it is a file that is there (rsync x ~/notes.txt).
func rsyncFileDest(x *Ctx, c *parse.Command, ops []parse.Word, ws []write) []write {
	if c.Flag("deletes") {
		// --delete*: what is in DEST and not in SRC goes.
		for _, w := range ws {
			if w.kind == wInto {
				ws = append(ws, write{kind: wDelete, t: w.t, tree: true, selfOnly: true})
			}
		}
	}
	if c.Flag("moves") && len(ops) > 1 {
		for _, op := range ops[:len(ops)-1] {
			if !remoteOperand(op.Value) {
				ws = append(ws, write{kind: wDelete, t: x.target(c, op), tree: true, selfOnly: true})
			}
		}
	}
	for i, w := range ws {
		if w.kind != wInto || !w.t.Known || w.t.Glob || strings.HasSuffix(w.t.Word.Value, "/") || x.isDir(w.t) {
			continue
		}
		if p, ok := x.lookup(w.t.raw); ok {
			if _, err := x.fs().Lstat(p); err == nil {
				ws[i].kind = wWrite
				ws[i].follow = true
			}
		}
	}
	return ws
}

// serviceTargets: enabling a service (systemctl enable, launchctl load)
// makes it start at every boot or login.
func serviceTargets(_ *Ctx, c *parse.Command, _ []parse.Word, ws []write) []write {
	for _, w := range c.Operands(parse.RoleData) {
		switch w.Value {
		case "enable", "reenable", "link", "edit", "add-wants", "add-requires", "set-default", "preset",
			"load", "bootstrap":
			return append(ws, write{kind: wWrite, persist: true, t: Target{Word: w}})
		}
	}
	return ws
}

// atTargets: at and batch schedule a command to run later, unless they
// only list (-l), remove (-r, -d) or show (-c) jobs.
func atTargets(_ *Ctx, c *parse.Command, _ []parse.Word, ws []write) []write {
	if c.Row == "at" && c.Flag("jobs") {
		return ws
	}
	return append(ws, write{kind: wWrite, persist: true, t: Target{Word: parse.Word{Value: c.Name}}})
}

// direnvTargets: direnv allow (permit, grant) trusts an .envrc, which
// then runs by itself every time a shell enters the directory. Writing
// the .envrc is not the point: direnv asks again after every change.
func direnvTargets(_ *Ctx, c *parse.Command, _ []parse.Word, ws []write) []write {
	if ops := c.Operands(parse.RoleData); len(ops) > 0 {
		switch w := ops[0]; w.Value {
		case "allow", "permit", "grant":
			return append(ws, write{kind: wWrite, persist: true, t: Target{Word: w}})
		}
	}
	return ws
}

// zipTargets: zip ARCHIVE FILE… writes the archive.
func zipTargets(x *Ctx, c *parse.Command, ops []parse.Word, ws []write) []write {
	if c.Row != "zip" || len(ops) == 0 || ops[0].Value == "-" {
		return ws
	}
	return append(ws, write{kind: wWrite, t: x.target(c, ops[0]), follow: true})
}

// gitTakesIgnored reports whether git stash or git clean removes ignored
// files: stash --all (push's flags, not pop's or apply's), clean -x or -X
// forced and not a dry run, unless an exclude or pathspecs keep the
// ledger's directory out.
func gitTakesIgnored(c *parse.Command) bool {
	switch c.Row {
	case "git stash":
		return len(c.Operands(parse.RoleData)) == 0 && c.Flag("all")
	case "git stash push":
		return c.Flag("all")
	case "git clean":
		if !c.Flag("ignored") || !c.Flag("force") || c.Flag("dry-run") {
			return false
		}
		for _, e := range c.OptionValues("-e") {
			if strings.Contains(e.Value, paths.LedgerDirName) {
				return false
			}
		}
		return !narrowPathspecs(c.Operands(parse.RoleData))
	}
	return false
}

// narrowPathspecs reports whether git clean is given pathspecs, each a
// plain name below the directory (git clean -fdX -- node_modules), none
// of which can be the ledger's.
func narrowPathspecs(specs []parse.Word) bool {
	if len(specs) == 0 {
		return false
	}
	for _, w := range specs {
		s := strings.TrimPrefix(w.Value, "./")
		if s == "" || s == "." || strings.HasPrefix(s, ".") || strings.HasPrefix(s, ":") || strings.ContainsAny(s, "*?[") || strings.Contains(s, parse.Unknown) {
			return false
		}
	}
	return true
}
