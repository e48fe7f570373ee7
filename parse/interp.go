package parse

import (
	"strings"
)

// Inline interpreter code (python -c, node -e, perl -e, ruby -e, php -r,
// lua -e, osascript -e, awk programs, code fed on standard input or
// given as a script file) is scanned for process and file APIs. The
// strings such APIs receive are analysed as shell scripts (Context
// InInterpreter, Via the interpreter then the API); argument lists become
// commands; file operations become Synthetic commands (shutil.rmtree(p)
// is rm -r p). A print of the same text stays data. What cannot be known
// is a DynInterpreter fact.

// interpreterSinks returns the sinks for language interpreters.
func interpreterSinks() map[string]sinkFunc {
	m := map[string]sinkFunc{}
	for _, n := range []string{"python", "python2", "python3", "pypy", "pypy3"} {
		m[n] = sinkPython
	}
	for _, n := range []string{"node", "nodejs"} {
		m[n] = sinkNode
	}
	m["deno"] = sinkDeno
	m["bun"] = sinkBun
	m["perl"] = sinkPerl
	m["ruby"] = sinkRuby
	m["php"] = sinkPHP
	m["lua"] = sinkLua
	m["luajit"] = sinkLua
	m["osascript"] = sinkOsascript
	for _, n := range []string{"awk", "gawk", "mawk", "nawk"} {
		m[n] = sinkAwk
	}
	m["sed"] = sinkSed
	m["gsed"] = sinkSed
	return m
}

// versionedSink finds the sink of a versioned interpreter name
// (python3.12, perl5.36, ruby3.2, php8.3, lua5.4).
func versionedSink(name string) sinkFunc {
	for _, p := range []string{"python", "pypy", "perl", "ruby", "php", "lua", "node"} {
		if rest, ok := strings.CutPrefix(name, p); ok && rest != "" && strings.Trim(rest, "0123456789.") == "" {
			return sinks[p]
		}
	}
	return nil
}

// code is where an interpreter takes its program from.
type code struct {
	text  string
	arg   *arg   // the argument holding it, for -c/-e
	file  *arg   // a script file
	stdin bool   // the program comes from standard input
	flag  string // how it was given: "-c", "-e", "-r"
}

// sinkPython: python [options] -c CODE | -m MOD | FILE | - ; no program
// means standard input.
func sinkPython(fr *frame, c *Command, args []arg) {
	var p code
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-":
			p.stdin = true
		case v == "-W" || v == "-X" || v == "--check-hash-based-pycs":
			i++
			continue
		case v == "-m" || strings.HasPrefix(v, "-m") && len(v) > 2:
			return // a module: not inline code
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "c"):
			k := strings.IndexByte(v, 'c')
			if k+1 < len(v) {
				p.text, p.arg = v[k+1:], &args[i]
			} else if i+1 < len(args) {
				p.text, p.arg = args[i+1].Value, &args[i+1]
			}
			p.flag = "-c"
		case strings.HasPrefix(v, "-"):
			continue
		default:
			p.file = &args[i]
		}
		break
	}
	if p.arg == nil && p.file == nil {
		p.stdin = true
	}
	fr.interpret(c, langPython, "python", p)
}

// sinkNode: node [options] -e|--eval|-p|--print CODE | FILE | -.
func sinkNode(fr *frame, c *Command, args []arg) {
	fr.interpret(c, langJS, "node", jsCode(args, 1))
}

func jsCode(args []arg, i int) code {
	var p code
	for ; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-":
			p.stdin = true
			return p
		case v == "-e" || v == "--eval" || v == "-p" || v == "--print" || v == "-pe" || v == "-ep":
			if i+1 < len(args) {
				p.text, p.arg, p.flag = args[i+1].Value, &args[i+1], "-e"
			}
			return p
		case strings.HasPrefix(v, "--eval=") || strings.HasPrefix(v, "--print="):
			_, val, _ := strings.Cut(v, "=")
			p.text, p.arg, p.flag = val, &arg{Word: Word{Value: val, Pos: args[i].Pos}}, "-e"
			return p
		case v == "-r" || v == "--require" || v == "--import" || v == "--loader" || v == "--experimental-loader" || v == "-C" || v == "--conditions" || v == "--env-file" || v == "--input-type":
			i++
		case strings.HasPrefix(v, "-"):
		default:
			p.file = &args[i]
			return p
		}
	}
	p.stdin = true
	return p
}

// sinkDeno: deno eval CODE, deno run FILE.
func sinkDeno(fr *frame, c *Command, args []arg) {
	if len(args) < 3 {
		return
	}
	switch args[1].Value {
	case "eval":
		for i := 2; i < len(args); i++ {
			if !strings.HasPrefix(args[i].Value, "-") {
				fr.interpret(c, langJS, "deno eval", code{text: args[i].Value, arg: &args[i], flag: "eval"})
				return
			}
		}
	case "run":
		for i := 2; i < len(args); i++ {
			if !strings.HasPrefix(args[i].Value, "-") {
				fr.interpret(c, langJS, "deno", code{file: &args[i]})
				return
			}
		}
	}
}

// sinkBun: bun -e CODE, bun run FILE.js, bun FILE.js.
func sinkBun(fr *frame, c *Command, args []arg) {
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-e" || v == "--eval" || v == "-p" || v == "--print":
			if i+1 < len(args) {
				fr.interpret(c, langJS, "bun", code{text: args[i+1].Value, arg: &args[i+1], flag: "-e"})
			}
			return
		case v == "run":
		case strings.HasSuffix(v, ".js") || strings.HasSuffix(v, ".ts") || strings.HasSuffix(v, ".mjs"):
			fr.interpret(c, langJS, "bun", code{file: &args[i]})
			return
		case !strings.HasPrefix(v, "-"):
			return // a package script or a subcommand
		}
	}
}

// perlish reads the options of perl and ruby: clusters like -pi.bak -e,
// -lne, several -e joined by newlines, options taking the rest of their
// cluster (takesRest) or the next argument (takesNext).
func perlish(args []arg, takesRest, takesNext string) code {
	var p code
	var parts []string
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "--":
			if len(parts) == 0 && i+1 < len(args) {
				p.file = &args[i+1]
			}
			i = len(args)
			continue
		case v == "-":
			p.stdin = true
			i = len(args)
			continue
		case !strings.HasPrefix(v, "-") || !args[i].Literal():
			if len(parts) == 0 {
				p.file = &args[i]
			}
			i = len(args)
			continue
		}
		for k := 1; k < len(v); k++ {
			ch := v[k]
			if ch == 'e' || ch == 'E' {
				if k+1 < len(v) {
					parts = append(parts, v[k+1:])
				} else if i+1 < len(args) {
					i++
					parts = append(parts, args[i].Value)
					if p.arg == nil {
						p.arg = &args[i]
					}
				}
				break
			}
			if strings.IndexByte(takesRest, ch) >= 0 {
				if k+1 == len(v) && strings.IndexByte(takesNext, ch) >= 0 {
					i++
				}
				break
			}
		}
	}
	if len(parts) > 0 {
		p.text, p.flag = strings.Join(parts, "\n"), "-e"
		if len(parts) > 1 {
			p.arg = nil
		}
		if p.arg == nil {
			p.arg = &arg{Word: Word{Value: p.text, Dynamic: hasUnknown(p.text)}}
		}
		p.file = nil
	}
	if p.text == "" && p.file == nil {
		p.stdin = true
	}
	return p
}

func sinkPerl(fr *frame, c *Command, args []arg) {
	fr.interpret(c, langPerl, "perl", perlish(args, "iIMmx0lFdDC", "IMm"))
}

func sinkRuby(fr *frame, c *Command, args []arg) {
	fr.interpret(c, langRuby, "ruby", perlish(args, "rICEFix0lWTK", "rICEF"))
}

// sinkPHP: php -r CODE | -f FILE | FILE; -B/-R/-E CODE run per line.
func sinkPHP(fr *frame, c *Command, args []arg) {
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case (v == "-r" || v == "-B" || v == "-R" || v == "-E") && i+1 < len(args):
			fr.interpret(c, langPHP, "php", code{text: args[i+1].Value, arg: &args[i+1], flag: v})
			return
		case v == "-f" && i+1 < len(args):
			fr.interpret(c, langPHP, "php", code{file: &args[i+1]})
			return
		case v == "-a" || v == "-S" || v == "-l" || v == "-v" || v == "-m" || v == "-i":
			return
		case v == "-c" || v == "-d" || v == "-t" || v == "-z":
			i++
		case !strings.HasPrefix(v, "-"):
			fr.interpret(c, langPHP, "php", code{file: &args[i]})
			return
		}
	}
	fr.interpret(c, langPHP, "php", code{stdin: true})
}

func sinkLua(fr *frame, c *Command, args []arg) {
	var parts []string
	var first *arg
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-e" && i+1 < len(args):
			i++
			parts = append(parts, args[i].Value)
			if first == nil {
				first = &args[i]
			}
		case v == "-l" && i+1 < len(args):
			i++
		case v == "-":
			fr.interpret(c, langLua, "lua", code{stdin: true})
			return
		case !strings.HasPrefix(v, "-"):
			if len(parts) == 0 {
				fr.interpret(c, langLua, "lua", code{file: &args[i]})
				return
			}
			i = len(args)
		}
	}
	if len(parts) > 0 {
		fr.interpret(c, langLua, "lua", code{text: strings.Join(parts, "\n"), arg: first, flag: "-e"})
	}
}

// sinkOsascript: osascript -e LINE… (AppleScript's do shell script), or
// -l JavaScript (doShellScript).
func sinkOsascript(fr *frame, c *Command, args []arg) {
	lang := langAppleScript
	var parts []string
	var first *arg
	for i := 1; i < len(args); i++ {
		switch v := args[i].Value; {
		case v == "-l" && i+1 < len(args):
			i++
			if strings.EqualFold(args[i].Value, "JavaScript") {
				lang = langJS
			}
		case v == "-e" && i+1 < len(args):
			i++
			parts = append(parts, args[i].Value)
			if first == nil {
				first = &args[i]
			}
		}
	}
	if len(parts) > 0 {
		fr.interpret(c, lang, "osascript", code{text: strings.Join(parts, "\n"), arg: first, flag: "-e"})
	}
}

// sinkAwk scans an awk program for system(), pipes and redirections.
func sinkAwk(fr *frame, c *Command, args []arg) {
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-f" || v == "--file":
			return // a program file: not followed
		case v == "-F" || v == "-v" || v == "--assign" || v == "--field-separator":
			i++
		case v == "-e" || v == "--source":
			if i+1 < len(args) {
				fr.interpret(c, langAwk, "awk", code{text: args[i+1].Value, arg: &args[i+1], flag: "program"})
			}
			return
		case strings.HasPrefix(v, "-") && len(v) > 1:
		default:
			fr.interpret(c, langAwk, "awk", code{text: v, arg: &args[i], flag: "program"})
			return
		}
	}
}

// interpret scans an interpreter's program and turns what it calls into
// facts.
func (fr *frame) interpret(c *Command, lang langID, name string, p code) {
	via := name
	if p.flag != "" {
		via = name + " " + p.flag
	}
	switch {
	case p.arg != nil:
		fr.scanProgram(c, lang, via, p.text, 0)
	case p.file != nil:
		if p.file.syn != nil && isProcSubstWord(p.file.syn) {
			fr.emitDynamic(&Dynamic{Kind: DynProcSubst, Sink: c, Known: Unknown, Feeders: p.file.feeders, Pos: c.Pos})
			return
		}
		text, ok, writer := "", false, (*Command)(nil)
		if p.file.Literal() {
			text, ok, writer = fr.readScript(c.Dir, p.file.Value)
		}
		switch {
		case ok:
			fr.scanProgram(c, lang, name+" file", text, 0)
		case writer != nil:
			fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: p.file.Value, Feeders: []*Command{writer}, Pos: c.Pos})
		}
	case p.stdin:
		fr.execStdin(c, name+" stdin", func(text string, pos posMap, feeders []*Command, kind DynKind) {
			if hasUnknown(text) {
				fr.emitDynamic(&Dynamic{Kind: kind, Sink: c, Known: text, Feeders: feeders, Pos: c.Pos})
			}
			fr.scanProgram(c, lang, name+" stdin", text, 0)
		})
	}
}

// maxCodeDepth bounds code evaluating code (exec("exec(…)")).
const maxCodeDepth = 4

// scanProgram tokenizes a program and follows its calls.
func (fr *frame) scanProgram(c *Command, lang langID, via, text string, depth int) {
	if text == "" || depth > maxCodeDepth || !fr.spend(1+len(text)/512, c.Pos) {
		return
	}
	if hasUnknown(text) && depth == 0 && via != "" && !strings.HasSuffix(via, "stdin") {
		fr.emitDynamic(&Dynamic{Kind: DynInterpreter, Sink: c, Known: text, Pos: c.Pos})
	}
	if !mayCall(text, lang) {
		return // zero cost for code that names no API
	}
	toks := tokenize(text, lang)
	calls := scanCalls(toks, lang)
	if lang == langAwk {
		calls = append(calls, awkGetlines(toks)...)
	}
	if len(calls) == 0 {
		return
	}
	ifr := fr.child(nesting{sink: c, via: via, st: fr.childState(c), ctx: InInterpreter, user: c.User, dialect: POSIX}, false)
	ifr.pos = posMap{at: c.Pos}
	for _, cl := range calls {
		ifr.followCall(c, lang, cl, depth)
	}
}

// mayCall is a cheap pre-check: the code mentions something a process or
// file API could be called by.
func mayCall(text string, lang langID) bool {
	switch lang {
	case langAwk:
		return strings.Contains(text, "system") || strings.Contains(text, "|") || strings.Contains(text, ">")
	case langAppleScript:
		return strings.Contains(text, "shell")
	}
	for _, w := range []string{"system", "exec", "spawn", "popen", "open", "rm", "unlink", "remove", "rmdir", "rename",
		"move", "copy", "cp", "chmod", "chown", "write", "read", "`", "qx", "%x", "eval", "Function", "$", "getoutput", "Command", "truncate", "file_put", "file_get", "delete", "touch", "replace", "import",
		"http", "fetch", "request", "urlopen", "socket", "axios", "got", "curl", "SMTP", "FTP", "fsockopen"} {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// followCall turns one API call into facts.
func (fr *frame) followCall(c *Command, lang langID, cl call, depth int) {
	if cl.cmd {
		fr.interpShell(c, cl.name, cl.args[0])
		return
	}
	if lang == langPython && cl.method != "" && (cl.name == "pathlib.Path" || cl.name == "Path" || cl.name == "pathlib.PosixPath") {
		if cmd, ok := pathlibMethods[cl.method]; ok && len(cl.args) > 0 {
			paths := cl.args[:1]
			if cmd == "mv" && len(cl.args) > 1 {
				paths = cl.args[:2]
			}
			fr.interpSynth(c, "Path."+cl.method, cmd, paths)
		}
		return
	}
	if lang == langPython && (cl.name == "getattr" || cl.name == "builtins.getattr") && len(cl.args) > 0 && processModule(cl.args[0].module) {
		// getattr(os, "system")(…): a process API reached dynamically.
		fr.emitDynamic(&Dynamic{Kind: DynInterpreter, Sink: c, Known: cl.args[0].module + "." + argString(cl.args, 1), Pos: c.Pos})
		return
	}
	a, ok := apiFor(lang, cl.name)
	if !ok {
		if lang == langJS && cl.name == "Bun.$" {
			return
		}
		return
	}
	arg := func(i int) value {
		if i < len(cl.args) {
			return cl.args[i]
		}
		return unknownValue
	}
	switch a.kind {
	case apiShell:
		fr.interpShell(c, cl.name, arg(a.arg))
	case apiAuto:
		v := arg(a.arg)
		if v.isList {
			if kv, ok := cl.kw["shell"]; ok && kv.s == "true" && len(v.list) > 0 {
				fr.interpShell(c, cl.name, v.list[0])
				return
			}
			fr.interpArgv(c, cl.name, v.list)
			return
		}
		if lang == langPython && cl.name == "pty.spawn" {
			fr.interpArgv(c, cl.name, []value{v})
			return
		}
		fr.interpShell(c, cl.name, v)
	case apiSystem:
		args := cl.args
		if len(args) > 0 && args[0].flags != nil { // ruby's env hash
			args = args[1:]
		}
		switch {
		case len(args) == 1 && args[0].isList:
			fr.interpArgv(c, cl.name, args[0].list)
		case len(args) == 1:
			fr.interpShell(c, cl.name, args[0])
		case len(args) > 1:
			fr.interpArgv(c, cl.name, args)
		}
	case apiArgvAll:
		fr.interpArgv(c, cl.name, cl.args)
	case apiArgvFrom:
		if len(cl.args) >= a.arg {
			argv := append([]value{cl.args[a.arg-2]}, cl.args[min(a.arg, len(cl.args)):]...)
			fr.interpArgv(c, cl.name, argv)
		}
	case apiArgvList:
		prog, list := arg(a.arg), arg(a.arg+1)
		argv := []value{prog}
		if list.isList {
			rest := list.list
			if a.list0 && len(rest) > 0 {
				rest = rest[1:]
			}
			argv = append(argv, rest...)
		} else if a.arg+1 < len(cl.args) {
			argv = append(argv, unknownValue)
		}
		fr.interpArgv(c, cl.name, argv)
	case apiSpawn:
		prog, rest := arg(0), cl.args[min(1, len(cl.args)):]
		shell := false
		var argv []value
		for _, r := range rest {
			switch {
			case r.isList:
				argv = append(argv, r.list...)
			case r.flags != nil:
				shell = shell || r.flags["shell"]
			}
		}
		if shell {
			words := []string{prog.s}
			for _, w := range argv {
				words = append(words, w.s)
			}
			fr.interpShell(c, cl.name, value{s: strings.Join(words, " ")})
			return
		}
		fr.interpArgv(c, cl.name, append([]value{prog}, argv...))
	case apiSynth:
		fr.synthCall(c, cl, a)
	case apiOpen:
		fr.interpOpen(c, lang, cl)
	case apiNet:
		fr.interpNet(c, cl, a)
	case apiCode:
		v := arg(0)
		if v.known() {
			fr.scanProgram(c, lang, cl.name, v.s, depth+1)
		} else {
			fr.emitDynamic(&Dynamic{Kind: DynInterpreter, Sink: c, Known: v.s, Pos: c.Pos})
		}
	}
}

// interpShell analyses a string an API runs with the shell.
func (fr *frame) interpShell(c *Command, api string, v value) {
	if v.isList {
		fr.interpArgv(c, api, v.list)
		return
	}
	st := &state{base: map[string]string{}, baseKnown: false, dir: c.Dir}
	if env, known := fr.st.exported(); known {
		st.base, st.baseKnown = env, true
	}
	st.args, st.argsKnown = []string{"sh"}, true
	fr.nest(nesting{sink: c, via: api, text: v.s, pos: posMap{at: c.Pos}, kind: DynInterpreter, st: st, dialect: POSIX, user: c.User})
}

// interpArgv analyses a program and its arguments an API runs directly.
func (fr *frame) interpArgv(c *Command, api string, vs []value) {
	if len(vs) == 0 || !vs[0].known() {
		known := make([]string, len(vs))
		for i, v := range vs {
			known[i] = v.s
		}
		fr.emitDynamic(&Dynamic{Kind: DynInterpreter, Sink: c, Known: strings.Join(known, " "), Pos: c.Pos})
		if len(vs) == 0 {
			return
		}
	}
	argv := make([]arg, 0, len(vs))
	for _, v := range vs {
		if v.isList {
			v = unknownValue
		}
		argv = append(argv, arg{Word: Word{Value: v.s, Dynamic: hasUnknown(v.s), Pos: c.Pos}})
	}
	fr.runNested(c, argv, api, nil)
}

// synthCall records a file operation as the command that does the same.
func (fr *frame) synthCall(c *Command, cl call, a api) {
	cmd := a.cmd
	args := cl.args
	var mode *value
	if a.mode && len(args) > 0 {
		mode, args = &args[0], args[1:]
	} else if cmd == "chmod" && len(args) > 1 {
		mode, args = &args[1], args[:1]
	}
	switch {
	case a.paths > 0 && len(args) > a.paths:
		args = args[:a.paths]
	case len(args) == 0:
		args = []value{unknownValue}
	}
	// fs.rmSync(p, {recursive: true, force: true}) is rm -rf.
	for _, v := range cl.args {
		if v.flags != nil {
			switch {
			case v.flags["recursive"] && v.flags["force"]:
				cmd = strings.Replace(cmd, "rmdir", "rm", 1) + " -rf"
			case v.flags["recursive"]:
				cmd = strings.Replace(cmd, "rmdir", "rm", 1) + " -r"
			case v.flags["force"]:
				cmd += " -f"
			}
		}
	}
	for _, v := range args {
		if v.isList {
			args = v.list
			break
		}
	}
	if mode != nil {
		args = append([]value{{s: octalMode(mode.s)}}, args...)
	}
	fr.interpSynth(c, cl.name, cmd, args)
}

func octalMode(s string) string {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "0o"), "0O")
	if len(s) == 4 && s[0] == '0' {
		s = s[1:]
	}
	return s
}

func (fr *frame) interpSynth(c *Command, api, cmd string, paths []value) {
	var argv []arg
	for _, w := range strings.Fields(cmd) {
		argv = append(argv, arg{Word: Word{Value: w, Pos: c.Pos}})
	}
	for _, p := range paths {
		argv = append(argv, arg{Word: Word{Value: p.s, Dynamic: hasUnknown(p.s), Pos: c.Pos}})
	}
	fr.runNested(c, argv, api, func(f *frame) { f.synthetic = true })
}

// interpOpen follows open(): Python's open(P, mode) reads or writes P;
// Perl's 2- and 3-argument open may run a command ("cmd |", "-|").
func (fr *frame) interpOpen(c *Command, lang langID, cl call) {
	if len(cl.args) == 0 {
		return
	}
	if lang == langPerl {
		fr.perlOpen(c, cl)
		return
	}
	mode := "r"
	if len(cl.args) > 1 && cl.args[1].known() {
		mode = cl.args[1].s
	}
	if m, ok := cl.kw["mode"]; ok {
		mode = m.s
	}
	cmd := "cat"
	switch {
	case strings.ContainsAny(mode, "a"):
		cmd = "tee -a"
	case strings.ContainsAny(mode, "wx+"):
		cmd = "tee"
	}
	fr.interpSynth(c, cl.name, cmd, cl.args[:1])
}

func (fr *frame) perlOpen(c *Command, cl call) {
	args := cl.args[1:]
	if len(args) == 0 {
		return
	}
	m := strings.TrimSpace(args[0].s)
	if len(args) == 1 {
		switch {
		case strings.HasSuffix(m, "|"):
			fr.interpShell(c, "open", value{s: strings.TrimSuffix(m, "|")})
		case strings.HasPrefix(m, "|"):
			fr.interpShell(c, "open", value{s: strings.TrimPrefix(m, "|")})
		case strings.HasPrefix(m, ">>"):
			fr.interpSynth(c, "open", "tee -a", []value{{s: strings.TrimSpace(m[2:])}})
		case strings.HasPrefix(m, ">") || strings.HasPrefix(m, "+>"):
			fr.interpSynth(c, "open", "tee", []value{{s: strings.TrimSpace(strings.TrimLeft(m, "+>"))}})
		}
		return
	}
	switch m {
	case "-|", "|-":
		if len(args) == 2 {
			fr.interpShell(c, "open", args[1])
		} else {
			fr.interpArgv(c, "open", args[1:])
		}
	case ">", "+>", "+<":
		fr.interpSynth(c, "open", "tee", args[1:2])
	case ">>":
		fr.interpSynth(c, "open", "tee -a", args[1:2])
	case "<":
		fr.interpSynth(c, "open", "cat", args[1:2])
	}
}

// sinkSed follows GNU sed's e command (e COMMAND runs it; a bare e, and
// the s///e flag, run the pattern space: dynamic).
func sinkSed(fr *frame, c *Command, args []arg) {
	var scripts []arg
	explicit := false
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case (v == "-e" || v == "--expression") && i+1 < len(args):
			scripts = append(scripts, args[i+1])
			explicit = true
			i++
		case strings.HasPrefix(v, "--expression="):
			scripts = append(scripts, arg{Word: Word{Value: v[len("--expression="):], Pos: args[i].Pos}})
			explicit = true
		case v == "-f" || v == "--file" || v == "-l" || v == "--line-length":
			i++
		case strings.HasPrefix(v, "-") && len(v) > 1:
		case !explicit && len(scripts) == 0:
			scripts = append(scripts, args[i])
		}
	}
	for _, s := range scripts {
		for _, cmd := range sedExecs(s.Value) {
			if cmd == "" {
				fr.emitDynamic(&Dynamic{Kind: DynInterpreter, Sink: c, Known: s.Value, Pos: c.Pos})
				continue
			}
			fr.interpShell(c, "sed e", value{s: cmd})
		}
	}
}

// sedExecs finds the commands of sed's e: "e CMD" gives CMD, a bare e or
// the e flag of s/// gives "" (the pattern space runs).
func sedExecs(script string) []string {
	var out []string
	for _, line := range strings.FieldsFunc(script, func(r rune) bool { return r == '\n' || r == ';' }) {
		l := strings.TrimLeft(line, " \t")
		// Skip an address: digits, $, /re/, and ranges.
		for len(l) > 0 && (l[0] >= '0' && l[0] <= '9' || l[0] == '$' || l[0] == ',' || l[0] == '!' || l[0] == ' ') {
			l = l[1:]
		}
		if strings.HasPrefix(l, "/") {
			if j := strings.IndexByte(l[1:], '/'); j >= 0 {
				l = strings.TrimLeft(l[j+2:], " !")
			}
		}
		switch {
		case l == "e":
			out = append(out, "")
		case strings.HasPrefix(l, "e ") || strings.HasPrefix(l, "e\t"):
			out = append(out, strings.TrimSpace(l[1:]))
		case strings.HasPrefix(l, "s") && len(l) > 1:
			d := l[1]
			parts := strings.Split(l[2:], string(d))
			if len(parts) >= 3 && strings.Contains(parts[2], "e") && strings.Trim(parts[2], "gpiIeEmM0123456789w ") == "" {
				out = append(out, "")
			}
		}
	}
	return out
}

// interpNet records a network request as the curl command that would do
// the same: "curl URL", with "-d …" when the call sends data (a body, a
// file), so that a credential read in the same code and sent off is
// visible as reaching curl.
func (fr *frame) interpNet(c *Command, cl call, a api) {
	url := unknownValue
	if a.arg < len(cl.args) {
		url = cl.args[a.arg]
	}
	sends := a.sends || len(cl.args) > a.arg+1 && !cl.args[a.arg+1].isList
	for _, k := range []string{"data", "json", "files", "body", "content"} {
		if _, ok := cl.kw[k]; ok {
			sends = true
		}
	}
	for _, v := range cl.args {
		if v.flags != nil && (v.flags["body"] || v.flags["data"]) {
			sends = true
		}
	}
	argv := []arg{{Word: Word{Value: "curl", Pos: c.Pos}}}
	if sends {
		argv = append(argv, arg{Word: Word{Value: "-d", Pos: c.Pos}}, arg{Word: Word{Value: Unknown, Dynamic: true, Pos: c.Pos}})
	}
	argv = append(argv, arg{Word: Word{Value: url.s, Dynamic: hasUnknown(url.s), Pos: c.Pos}})
	fr.runNested(c, argv, cl.name, func(f *frame) { f.synthetic = true })
}

func processModule(m string) bool {
	switch m {
	case "os", "subprocess", "pty", "shutil", "commands", "posix", "child_process":
		return true
	}
	return false
}

func argString(args []value, i int) string {
	if i < len(args) {
		return args[i].s
	}
	return Unknown
}
