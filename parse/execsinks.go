package parse

import (
	"path"
	"slices"
	"strings"
	"sync"
)

// sinkSudo follows sudo -s / sudo -i (and doas -s) with no command: an
// interactive root shell, which runs whatever its input holds.
func sinkSudo(fr *frame, c *Command, args []arg) {
	opts, i := parseOpts(args, 1, OptSpec{Short: "CDghprRtTUu", Long: []string{"chdir", "user", "group", "prompt", "host"}})
	if has(opts, "e", "edit") {
		// sudo -e is sudoedit: it runs the editor its environment
		// names, as sudoedit's row says.
		if p := LookupProgram("sudoedit"); p != nil {
			fr.followEnv(c, p, "sudo -e")
		}
		return
	}
	if i < len(args) || !has(opts, "s", "i", "shell", "login") {
		return
	}
	c.User = "root"
	if u := optVal(opts, "u", "user"); u != nil {
		c.User = u.Value
	}
	fr.execStdin(c, c.Name+" stdin", fr.shellRunner(c, "sh"))
}

// sinkRun0 follows run0 with no command: an interactive shell as root,
// which runs whatever its input holds.
func sinkRun0(fr *frame, c *Command, args []arg) {
	opts, i := parseOpts(args, 1, run0Spec)
	if i < len(args) || has(opts, "h", "help", "version", "V") {
		return
	}
	c.User = "root"
	if u := optVal(opts, "u", "user"); u != nil {
		c.User = u.Value
	}
	fr.execStdin(c, "run0 stdin", fr.shellRunner(c, "sh"))
}

// sinkSu follows su [-] [USER] -c STRING (and runuser USER -c STRING);
// without -c it is an interactive shell reading its input.
func sinkSu(fr *frame, c *Command, args []arg) {
	// su permutes its arguments: options may follow the user.
	spec := OptSpec{Short: "cgGsuw", Long: []string{"command", "session-command", "group", "supp-group", "shell", "user", "whitelist-environment"}}
	var opts []opt
	user := "root"
	for i := 1; i < len(args); {
		more, j := parseOpts(args, i, spec)
		opts = append(opts, more...)
		if j >= len(args) {
			break
		}
		if v := args[j].Value; v != "-" && user == "root" && c.Name == "su" || c.Name == "runuser" && v != "-" {
			user = v
		}
		i = j + 1
	}
	if u := optVal(opts, "u", "user"); u != nil {
		user = u.Value
	}
	c.User = user
	cmd := optVal(opts, "c", "command", "session-command")
	if cmd == nil {
		fr.execStdin(c, c.Name+" stdin", fr.shellRunner(c, "sh"))
		return
	}
	st := fr.childState(c)
	st.args, st.argsKnown = []string{"sh"}, true
	fr.nest(nesting{sink: c, via: c.Name + " -c", text: cmd.Value, pos: fr.textPos(*cmd), kind: DynShellArg, feeders: cmd.feeders, st: st, stdin: c.Stdin, user: user})
}

// sinkWatch follows watch: its words are joined and run by sh -c, or run
// directly with -x.
func sinkWatch(fr *frame, c *Command, args []arg) {
	opts, i := parseOpts(args, 1, OptSpec{Short: "nq", Optional: "d", Long: []string{"interval", "equexit", "errexit"}})
	if i >= len(args) {
		return
	}
	if has(opts, "x", "exec") {
		fr.runNested(c, args[i:], "watch", nil)
		return
	}
	fr.nestShellWords(c, args[i:], "watch")
}

// nestShellWords runs words joined with spaces as a sh -c script.
func (fr *frame) nestShellWords(c *Command, ws []arg, via string) {
	st := fr.childState(c)
	st.args, st.argsKnown = []string{"sh"}, true
	fr.nest(nesting{sink: c, via: via, text: joinValues(ws), pos: fr.argsPos(ws, c), kind: DynShellArg, feeders: feedersOf(ws), st: st, stdin: c.Stdin, dialect: POSIX, user: c.User})
}

// sinkScript follows script -c COMMAND (run by the shell), or script with
// no command, an interactive shell.
func sinkScript(fr *frame, c *Command, args []arg) {
	opts, _ := parseOpts(args, 1, OptSpec{Short: "cEoOTIBt", Optional: "", Long: []string{"command", "echo", "output-limit", "log-out", "log-in", "log-io", "log-timing", "logging-format"}})
	cmd := optVal(opts, "c", "command")
	if cmd == nil {
		return
	}
	fr.nestShellWords(c, []arg{*cmd}, "script -c")
}

// sinkFlock follows flock FILE -c STRING.
func sinkFlock(fr *frame, c *Command, args []arg) {
	opts, i := parseOpts(args, 1, OptSpec{Short: "wEc", Long: []string{"timeout", "wait", "conflict-exit-code", "command"}})
	cmd := optVal(opts, "c", "command")
	if cmd == nil && i+2 < len(args) && (args[i+1].Value == "-c" || args[i+1].Value == "--command") {
		cmd = &args[i+2]
	}
	if cmd != nil {
		fr.nestShellWords(c, []arg{*cmd}, "flock -c")
	}
}

// sinkSg follows sg GROUP [-c] COMMAND, run by sh -c.
func sinkSg(fr *frame, c *Command, args []arg) {
	i := 1
	if i < len(args) && args[i].Value == "-" {
		i++
	}
	i++ // the group
	if i < len(args) && args[i].Value == "-c" {
		i++
	}
	if i < len(args) {
		fr.nestShellWords(c, args[i:], "sg")
	}
}

// findRoles records what find's words say, read with find's grammar
// (findExpr): its starting points (RoleListed, after -H, -L, -P, -D and
// -O; "." when none); each test that narrows what it matches to some of
// the entries below them (-name, -mtime, -size, owners, permissions) a
// RoleFilter, Opt the test and Word its argument ("" for -empty), so that
// what it acts on are entries below the starting points, not the points
// themselves; the file each -fprint, -fprint0, -fprintf and -fls writes
// (RoleWritten); the program each -exec, -execdir, -ok and -okdir runs
// (RoleProgram, Word the program's word); the other arguments of its
// primaries (-type d, -maxdepth 1) RoleData with Opt the primary; and
// the meanings of its actions and operators (findMeanings).
func findRoles(fr *frame, c *Command) {
	args := c.Args
	i := findStart(args)
	var roots []Word
	for ; i < len(args) && !findExprStart(args[i].Value); i++ {
		roots = append(roots, args[i])
	}
	if len(roots) == 0 {
		roots = []Word{{Value: ".", Pos: c.Pos}}
	}
	for _, r := range roots {
		c.Roles = append(c.Roles, RoleArg{Role: RoleListed, Word: r, Path: fr.wordPath(c, r)})
	}
	for _, p := range findExpr(len(args), func(k int) string { return args[k].Value }, i) {
		m := findActions()[p.name]
		if m == "" {
			m = findOperators()[p.name]
		}
		if m != "" && !c.Flag(m) {
			c.Flags = append(c.Flags, m)
		}
		ra := RoleArg{Role: RoleData, Opt: p.name}
		if p.n > 0 {
			ra.Word = args[p.at+1]
		}
		switch {
		case findFilters()[p.name] || p.newer:
			ra.Role = RoleFilter // -empty and -nouser too, with no Word
		case p.n == 0:
			continue // an action or an operator: its meaning says it
		case m == "runs":
			ra.Role = RoleProgram
		case m == "writes":
			ra.Role, ra.Path = RoleWritten, fr.wordPath(c, ra.Word)
		}
		c.Roles = append(c.Roles, ra)
	}
}

// findStart returns where find's starting points begin: after the
// options -H, -L, -P, -D DEBUGOPTS and -O LEVEL.
func findStart(args []Word) int {
	i := 0
	for i < len(args) {
		v := args[i].Value
		if v == "-H" || v == "-L" || v == "-P" || strings.HasPrefix(v, "-O") {
			i++
		} else if v == "-D" || v == "-f" {
			i += 2
		} else {
			break
		}
	}
	return i
}

// findPrimary is one primary or operator of find's expression: its
// name, the index of its word, and how many words after it are its
// arguments (for -exec and the like, the command up to ";" or "{} +",
// the terminator not counted).
type findPrimary struct {
	name  string
	at, n int
	// newer is set for -newerXY, a test of times against a reference.
	newer bool
}

// findExpr reads find's expression from index i of n words (val gives
// each word's value): the primaries and operators in order, each with
// its arguments, so that an argument is never read as a primary (-name
// -delete matches a file named -delete; the words of -exec are the
// command's). A word that is not a primary find knows takes no argument.
func findExpr(n int, val func(int) string, i int) []findPrimary {
	var out []findPrimary
	for ; i < n; i++ {
		v := val(i)
		p := findPrimary{name: v, at: i}
		switch k, ok := findArgs()[v]; {
		case ok:
			p.n = k
		case findActions()[v] == "runs":
			j := i + 1
			for ; j < n; j++ {
				if w := val(j); w == ";" || w == "+" && j > i+1 && val(j-1) == "{}" {
					break
				}
			}
			p.n = j - i - 1
		case len(v) == len("-newerXY") && strings.HasPrefix(v, "-newer") && strings.Trim(v[len("-newer"):], "aBcmt") == "":
			p.n, p.newer = 1, true
		}
		p.n = min(p.n, n-i-1)
		out = append(out, p)
		i += p.n
		if findActions()[v] == "runs" && i+1 < n {
			i++ // the terminator
		}
	}
	return out
}

// findArgs are the primaries of find's expression that take arguments,
// and how many (-fprintf FILE FORMAT).
var findArgs = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"-name": 1, "-iname": 1, "-path": 1, "-ipath": 1, "-wholename": 1, "-iwholename": 1, "-regex": 1, "-iregex": 1,
		"-lname": 1, "-ilname": 1, "-regextype": 1, "-type": 1, "-xtype": 1, "-fstype": 1, "-context": 1,
		"-amin": 1, "-atime": 1, "-cmin": 1, "-ctime": 1, "-mmin": 1, "-mtime": 1, "-used": 1,
		"-anewer": 1, "-cnewer": 1, "-newer": 1, "-samefile": 1,
		"-size": 1, "-user": 1, "-group": 1, "-uid": 1, "-gid": 1, "-perm": 1, "-links": 1, "-inum": 1,
		"-maxdepth": 1, "-mindepth": 1, "-files0-from": 1,
		"-fprint": 1, "-fprint0": 1, "-fls": 1, "-fprintf": 2, "-printf": 1,
	}
})

// findActions are the meanings (Command.Flags) of find's actions that
// do more than print the paths it finds: "runs" a command on them,
// "deletes" them, "writes" a file of them, "formats" what it prints.
var findActions = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"-exec": "runs", "-execdir": "runs", "-ok": "runs", "-okdir": "runs",
		"-delete": "deletes",
		"-fprint": "writes", "-fprint0": "writes", "-fprintf": "writes", "-fls": "writes",
		"-printf": "formats", "-ls": "formats",
	}
})

// findOperators are the meanings (Command.Flags) of find's primaries
// that are not actions: "alternatives" for an expression that joins
// tests with -o, -or or "," (its tests are then no filter of the
// others), and "empty" for -empty, which matches only empty files and
// directories.
var findOperators = sync.OnceValue(func() map[string]string {
	return map[string]string{"-o": "alternatives", "-or": "alternatives", ",": "alternatives", "-empty": "empty"}
})

// findExprStart reports whether a find argument starts its expression.
func findExprStart(v string) bool {
	return strings.HasPrefix(v, "-") && v != "-" || v == "(" || v == "!" || v == ","
}

// findFilters are find's tests that narrow what it matches to some of
// the entries below its starting points.
var findFilters = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"-name": true, "-iname": true, "-path": true, "-ipath": true, "-wholename": true, "-iwholename": true, "-regex": true, "-iregex": true,
		"-mtime": true, "-mmin": true, "-atime": true, "-amin": true, "-ctime": true, "-cmin": true, "-newer": true,
		"-size": true, "-empty": true, "-user": true, "-group": true, "-uid": true, "-gid": true, "-perm": true, "-links": true, "-inum": true,
		"-samefile": true, "-lname": true, "-ilname": true, "-nouser": true, "-nogroup": true, "-used": true, "-newermt": true,
	}
})

// sinkFind follows the commands of find -exec, -execdir, -ok and -okdir.
// Each runs with {} replaced by the found path, unknown here
// (Placeholder); -execdir runs in the found file's directory. The find
// command itself stays as written, so -delete and the roots are visible.
func sinkFind(fr *frame, c *Command, args []arg) {
	findRoles(fr, c)
	for _, p := range findExpr(len(args), func(k int) string { return args[k].Value }, 1+findStart(wordsOf(args[1:]))) {
		op := p.name
		if findActions()[op] != "runs" {
			continue
		}
		var argv []arg
		for _, a := range args[p.at+1 : p.at+1+p.n] {
			if v := a.Value; strings.Contains(v, "{}") {
				a.supplied = a.Literal()
				a.Value = strings.ReplaceAll(v, "{}", Unknown)
				a.Dynamic, a.whole = true, false
			}
			argv = append(argv, a)
		}
		dirUnknown := op == "-execdir" || op == "-okdir"
		fr.runNested(c, argv, "find "+op, func(f *frame) {
			f.placeholder = true
			if dirUnknown {
				f.st.dir = ""
			}
		})
	}
}

// sinkParallel follows GNU parallel: the command words (a shell command
// line) before ":::" or "::::"; with no command, the ::: arguments or the
// input lines are the commands. When every input value is known (literal
// ::: values, a :::: file this line wrote or Options.Files reads) each job
// is analysed with its values put in, as parallel does: quoted, and
// appended when the command has no replacement string; a command that is
// only replacement strings ({}) runs the values as commands. Otherwise the
// values are unknown data in the command.
func sinkParallel(fr *frame, c *Command, args []arg) {
	_, i := parseOpts(args, 1, OptSpec{Short: "jSadIENnPLsX", Long: []string{"jobs", "arg-file", "delimiter", "sshlogin", "joblog", "results", "workdir", "timeout", "delay", "retries", "colsep", "replace", "env", "basefile", "tmpdir", "tagstring", "halt", "memfree", "load", "max-args", "sshloginfile"}})
	var cmd []arg
	j := i
	for ; j < len(args) && !parallelSep(args[j].Value); j++ {
		cmd = append(cmd, args[j])
	}
	link := hasFlag(wordsOf(args[1:i]), "--link", "--xapply")
	groups, known := fr.parallelInputs(c, args[j:])
	if len(groups) == 0 {
		if len(cmd) == 0 {
			fr.execStdin(c, "parallel stdin", fr.shellRunner(c, "sh"))
			return
		}
		known = false
	}
	if known {
		if jobs := parallelJobs(groups, link); jobs != nil {
			for _, job := range jobs {
				fr.nestShellWords(c, []arg{{Word: Word{Value: parallelCommand(cmd, job), Pos: c.Pos}}}, "parallel")
			}
			return
		}
	}
	if len(cmd) == 0 {
		fr.emitDynamic(&Dynamic{Kind: DynShellArg, Sink: c, Known: Unknown, Pos: c.Pos})
		return
	}
	ws := slices.Clone(cmd)
	replaced := false
	for k := range ws {
		if v, ok := replaceParallel(ws[k].Value); ok {
			ws[k].Value, ws[k].Dynamic, ws[k].whole = v, true, false
			replaced = true
		}
	}
	if !replaced {
		// Without a replacement string parallel appends the argument.
		ws = append(ws, arg{Word: Word{Value: Unknown, Dynamic: true, Pos: ws[len(ws)-1].Pos}})
	}
	// parallel quotes what it substitutes: the holes are data, not code.
	st := fr.childState(c)
	st.args, st.argsKnown = []string{"sh"}, true
	sub := fr.sub(0)
	sub.placeholder = true
	sub.nest(nesting{sink: c, via: "parallel", text: joinValues(ws), pos: fr.argsPos(ws, c), kind: DynShellArg, st: st, stdin: c.Stdin, dialect: POSIX, user: c.User, holesAreData: true})
}

func parallelSep(v string) bool {
	return v == ":::" || v == "::::" || v == ":::+" || v == "::::+"
}

func wordsOf(args []arg) []Word {
	out := make([]Word, len(args))
	for i, a := range args {
		out[i] = a.Word
	}
	return out
}

// maxParallelJobs bounds the jobs analysed one by one.
const maxParallelJobs = 32

// parallelInputs reads the input sources after the command: the values
// of each ::: group and the lines of each :::: file. known is false when
// some value or file is not known.
func (fr *frame) parallelInputs(c *Command, args []arg) (groups [][]string, known bool) {
	known = true
	for k := 0; k < len(args); k++ {
		sep := args[k].Value
		var vals []string
		for k+1 < len(args) && !parallelSep(args[k+1].Value) {
			k++
			a := args[k]
			if !a.Literal() {
				known = false
			}
			if sep == ":::" || sep == ":::+" {
				vals = append(vals, a.Value)
				continue
			}
			text, ok, _ := fr.readScript(c.Dir, a.Value)
			if !ok || !a.Literal() {
				known = false
				continue
			}
			for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
				vals = append(vals, line)
			}
		}
		groups = append(groups, vals)
	}
	return groups, known
}

// parallelJobs combines the input groups into the jobs' values: every
// combination, or one value of each group side by side with --link; nil
// when there are too many to analyse one by one.
func parallelJobs(groups [][]string, link bool) [][]string {
	jobs := [][]string{{}}
	if link {
		n := 0
		for _, g := range groups {
			n = max(n, len(g))
		}
		if n > maxParallelJobs {
			return nil
		}
		jobs = nil
		for i := 0; i < n; i++ {
			var job []string
			for _, g := range groups {
				if len(g) > 0 {
					job = append(job, g[i%len(g)])
				}
			}
			jobs = append(jobs, job)
		}
		return jobs
	}
	for _, g := range groups {
		var next [][]string
		for _, job := range jobs {
			for _, v := range g {
				next = append(next, append(slices.Clip(job), v))
			}
		}
		if len(next) > maxParallelJobs {
			return nil
		}
		jobs = next
	}
	return jobs
}

// parallelCommand is the command line of one job: the values put in the
// command's replacement strings, shell-quoted, or appended.
func parallelCommand(cmd []arg, job []string) string {
	if len(cmd) == 0 {
		return strings.Join(job, " ")
	}
	only := true
	for _, a := range cmd {
		if v, ok := replaceParallel(a.Value); !ok || strings.Trim(v, Unknown) != "" {
			only = false
		}
	}
	quote := shellQuote
	if only {
		quote = func(s string) string { return s }
	}
	var b strings.Builder
	replaced := false
	for k, a := range cmd {
		if k > 0 {
			b.WriteByte(' ')
		}
		s := a.Value
		for i := 0; i < len(s); i++ {
			if s[i] == '{' {
				if j := strings.IndexByte(s[i:], '}'); j > 0 && j <= 6 && strings.Trim(s[i+1:i+j], "./#%0123456789") == "" {
					b.WriteString(quote(parallelValue(s[i+1:i+j], job)))
					i += j
					replaced = true
					continue
				}
			}
			b.WriteByte(s[i])
		}
	}
	if !replaced {
		for _, v := range job {
			b.WriteByte(' ')
			b.WriteString(quote(v))
		}
	}
	return b.String()
}

// parallelValue is what one replacement string ({}, {1}, {.}, {/}, {//},
// {/.}, {#}, {%}) stands for in a job.
func parallelValue(rs string, job []string) string {
	v := strings.Join(job, " ")
	n := strings.TrimLeft(rs, "0123456789")
	if idx := rs[:len(rs)-len(n)]; idx != "" {
		k := 0
		for _, ch := range idx {
			k = k*10 + int(ch-'0')
		}
		if k < 1 || k > len(job) {
			return ""
		}
		v = job[k-1]
	}
	switch n {
	case "#", "%":
		return "1"
	case ".":
		if e := path.Ext(v); e != "" && !strings.Contains(e, "/") {
			return strings.TrimSuffix(v, e)
		}
	case "/":
		return path.Base(v)
	case "//":
		return path.Dir(v)
	case "/.":
		b := path.Base(v)
		return strings.TrimSuffix(b, path.Ext(b))
	}
	return v
}

// shellQuote quotes s for sh.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// replaceParallel replaces GNU parallel's replacement strings ({}, {.},
// {/}, {//}, {/.}, {#}, {%}, {1} …) with Unknown.
func replaceParallel(s string) (string, bool) {
	if !strings.Contains(s, "{") {
		return s, false
	}
	var b strings.Builder
	changed := false
	for i := 0; i < len(s); i++ {
		if s[i] == '{' {
			if j := strings.IndexByte(s[i:], '}'); j > 0 && j <= 6 && strings.Trim(s[i+1:i+j], "./#%0123456789") == "" {
				b.WriteString(Unknown)
				i += j
				changed = true
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String(), changed
}

// sinkNixShell follows nix-shell --run/--command COMMAND.
func sinkNixShell(fr *frame, c *Command, args []arg) {
	for i := 1; i+1 < len(args); i++ {
		if v := args[i].Value; v == "--run" || v == "--command" {
			fr.nestShellWords(c, []arg{args[i+1]}, "nix-shell --run")
			return
		}
	}
}
