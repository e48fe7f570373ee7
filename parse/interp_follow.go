package parse

import "strings"

// followCall turns one API call into facts.
func (fr *frame) followCall(c *Command, lang langID, cl call, depth int) {
	if cl.cmd {
		fr.interpShell(c, cl.name, cl.args[0])
		return
	}
	if lang == langPython && cl.method != "" && (cl.name == "pathlib.Path" || cl.name == "Path" || cl.name == "pathlib.PosixPath") {
		if cmd, ok := pathlibMethods()[cl.method]; ok && len(cl.args) > 0 {
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
	if lang == langAwk && cl.name == "awk |" && len(cl.args) == 2 {
		fr.awkPipeTo(c, cl.args[0], cl.args[1])
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
	if a.kind == apiSynth || a.kind == apiOpen {
		cl.args = fr.tildeArgs(lang, a.kind, cl.args)
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

// tildeArgs returns a file API's arguments with the paths that are
// under the home directory spelled out: one the code computed from it
// (os.homedir() + "/x"), a pattern Perl's glob expands as the shell does,
// and any path R's file functions take (they path.expand it). A "~" the
// code merely spells in a string stays a name.
func (fr *frame) tildeArgs(lang langID, kind apiKind, in []value) []value {
	out := make([]value, len(in))
	for i, v := range in {
		if v.home || lang == langPerl && v.glob || lang == langR && kind == apiSynth && !v.isList && v.flags == nil {
			v.s = fr.expandTilde(v.s)
		}
		out[i] = v
	}
	return out
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
	fr.nest(nesting{sink: c, via: api, text: v.s, pos: posMap{at: c.Pos}, kind: DynInterpreter, st: st, stdin: fr.stdin, dialect: POSIX, user: c.User})
}

// awkPipeTo analyses print … | "cmd": cmd is a shell command whose
// standard input is the printed line.
func (fr *frame) awkPipeTo(c *Command, cmd, printed value) {
	if cmd.isList {
		cmd = unknownValue
	}
	in := &Input{Kind: InputPipe, From: c, Text: printed.s, Known: !hasUnknown(printed.s), Pos: c.Pos, upstream: []*Command{c}}
	st := &state{base: map[string]string{}, baseKnown: false, dir: c.Dir}
	if env, known := fr.st.exported(); known {
		st.base, st.baseKnown = env, true
	}
	st.args, st.argsKnown = []string{"sh"}, true
	fr.nest(nesting{sink: c, via: "awk |", text: cmd.s, pos: posMap{at: c.Pos}, kind: DynInterpreter, st: st, stdin: in, dialect: POSIX, user: c.User})
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
	if cmd == "cat" && len(args) > 0 && urlValue(args[0].s) {
		// PHP's file_get_contents('https://…') and readfile() open URLs
		// through stream wrappers: a download, not a local read.
		fr.interpNet(c, cl, net(false))
		return
	}
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
		argv = append(argv, arg{Word: Word{Value: p.s, Dynamic: hasUnknown(p.s), Glob: p.glob && strings.ContainsAny(p.s, "*?["), Pos: c.Pos}})
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

// interpNet records a network request as the curl command that would do
// the same: "curl URL", with "-d …" when the call sends data (a body, a
// file), so that a credential read in the same code and sent off is
// visible as reaching curl.
func (fr *frame) interpNet(c *Command, cl call, a api) {
	url := unknownValue
	if a.arg < len(cl.args) {
		url = cl.args[a.arg]
	}
	// sends is a body the call certainly sends; maybe a second
	// argument that could be one (requests.get(u, params), https.get(u,
	// callback)): both are sent data, but only the first makes the call
	// an upload rather than a download (feedFetched).
	sends := a.sends
	maybe := len(cl.args) > a.arg+1 && !cl.args[a.arg+1].isList
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
	switch {
	case sends:
		argv = append(argv, arg{Word: Word{Value: "-d", Pos: c.Pos}}, arg{Word: Word{Value: Unknown, Dynamic: true, Pos: c.Pos}})
	case maybe:
		argv = append(argv, arg{Word: Word{Value: "--data-binary", Pos: c.Pos}}, arg{Word: Word{Value: Unknown, Dynamic: true, Pos: c.Pos}})
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

// urlValue reports whether a path given to a file API is a URL a stream
// wrapper fetches over the network (scheme://, known up to the scheme).
func urlValue(s string) bool {
	i := strings.Index(s, "://")
	if i <= 0 || hasUnknown(s[:i]) {
		return false
	}
	switch strings.ToLower(s[:i]) {
	case "http", "https", "ftp", "ftps", "ssh2.sftp", "ssh2.scp":
		return true
	}
	return false
}
