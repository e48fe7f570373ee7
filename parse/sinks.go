package parse

import (
	"maps"
	"slices"
	"strings"
	"sync"
)

// A sink is a command that runs code given to it as text: a shell's -c
// string or input, eval's arguments, a sourced file, the command of
// find -exec, ssh's remote command. Sinks analyse that code as a nested
// script (Command.Via says how it got there) or, when it cannot be known,
// record a Dynamic fact.

type sinkFunc func(fr *frame, c *Command, args []arg)

// sinkOf is the sink of a program name, or nil: an interpreter's, a
// shell's, or one of the others. (A switch, not a map: a map is built
// at package init, which every command paid.)
func sinkOf(name string) sinkFunc {
	if h := interpreterSink(name); h != nil {
		return h
	}
	if shellName(name) {
		return sinkShell
	}
	switch name {
	case "eval":
		return sinkEval
	case "source", ".":
		return sinkSource
	case "sudo", "doas", "sudo-rs":
		return sinkSudo
	case "run0":
		return sinkRun0
	case "su", "runuser":
		return sinkSu
	case "watch":
		return sinkWatch
	case "script":
		return sinkScript
	case "flock":
		return sinkFlock
	case "sg":
		return sinkSg
	case "find":
		return sinkFind
	case "fd", "fdfind":
		return sinkFd
	case "parallel":
		return sinkParallel
	case "ssh":
		return sinkSSH
	case "git":
		return sinkGit
	case "rg":
		return sinkRg
	case "tmux":
		return sinkTmux
	case "screen":
		return sinkScreen
	case "docker", "podman":
		return sinkDocker
	case "kubectl", "oc":
		return sinkKubectl
	case "nix-shell":
		return sinkNixShell
	case "guard-exec":
		return sinkGuardExec
	case "chroot":
		return sinkShellDefault
	}
	return nil
}

// sinkEval follows eval: its arguments joined with spaces are code run in
// this shell. When they are not all known, a DynEval fact says so, the
// known parts are analysed, and the shell's state is unknown afterwards.
func sinkEval(fr *frame, c *Command, args []arg) {
	ws := args[1:]
	if len(ws) > 0 && ws[0].Value == "--" {
		ws = ws[1:]
	}
	if len(ws) == 0 {
		return
	}
	fr.nest(nesting{sink: c, via: "eval", text: joinValues(ws), pos: fr.argsPos(ws, c), kind: DynEval, feeders: feedersOf(ws), st: fr.st, dialect: fr.dialect, keepRedirs: true})
	if hasUnknown(joinValues(ws)) {
		fr.st.poisonCode(false)
	}
}

func joinValues(ws []arg) string {
	var b strings.Builder
	for i, w := range ws {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.Value)
	}
	return b.String()
}

func feedersOf(ws []arg) []*Command {
	var out []*Command
	for _, w := range ws {
		for _, f := range w.feeders {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// argsPos maps positions in the text of joined arguments: exactly for a
// single plain argument.
func (fr *frame) argsPos(ws []arg, c *Command) posMap {
	if len(ws) == 1 {
		return fr.textPos(ws[0])
	}
	if len(ws) > 0 {
		return posMap{at: ws[0].Pos}
	}
	return posMap{at: c.Pos}
}

// sinkSource follows source/. of a file: read through Options.Files and
// analysed in this shell. A file that cannot be read, a dynamic name or a
// process substitution give a DynSource fact; the variables and functions
// are unknown afterwards (the directory is assumed unchanged).
func sinkSource(fr *frame, c *Command, args []arg) {
	ws := args[1:]
	if len(ws) > 0 && ws[0].Value == "--" {
		ws = ws[1:]
	}
	if len(ws) == 0 {
		return
	}
	f := ws[0]
	if isStdinPath(f.Value) {
		fr.execStdin(c, c.Name+" stdin", fr.sameShellRunner(c, "source"))
		return
	}
	text, ok, writer := procSubstOutput(f)
	if f.Literal() {
		text, ok, writer = fr.readScript(c.Dir, f.Value)
	}
	if !ok {
		fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: f.Value, Feeders: withWriter(f.feeders, writer), Pos: c.Pos})
		fr.st.poisonCode(true)
		return
	}
	st := fr.st
	saved, savedKnown := st.args, st.argsKnown
	if len(ws) > 1 {
		st.args, st.argsKnown = append([]string{argZero(st)}, values(ws[1:])...), true
	}
	pos, file := posMap{at: f.Pos}, ""
	if f.Literal() {
		pos, file = fr.diskFile(c.Dir, f.Value, f.Pos)
	}
	fr.nest(nesting{sink: c, via: "source", text: text, pos: pos, kind: DynSource, st: st, dialect: fr.dialect, keepRedirs: true, file: file})
	if len(ws) > 1 {
		st.args, st.argsKnown = saved, savedKnown
	}
}

func argZero(st *state) string {
	if st.argsKnown && len(st.args) > 0 {
		return st.args[0]
	}
	return Unknown
}

func values(ws []arg) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Value
	}
	return out
}

func isStdinPath(p string) bool {
	return p == "/dev/stdin" || p == "/dev/fd/0" || p == "/proc/self/fd/0"
}

// runner analyses code a sink takes from its input.
type runner func(text string, pos posMap, feeders []*Command, kind DynKind)

// execStdin follows a command that runs its standard input as code.
func (fr *frame) execStdin(c *Command, via string, run runner) {
	in := c.Stdin
	if in == nil {
		return
	}
	in.Executed = true
	switch in.Kind {
	case InputFile:
		text, ok, writer := "", false, (*Command)(nil)
		if in.Path != "" {
			text, ok, writer = fr.readScript("/", in.Path)
		}
		if !ok {
			fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: in.Path, Feeders: withWriter(nil, writer), Pos: c.Pos})
			return
		}
		run(text, posMap{at: in.Pos}, nil, DynSource)
	case InputProcSubst:
		if in.Known {
			run(in.Text, posMap{at: in.Pos}, in.upstream, DynProcSubst)
			return
		}
		fr.emitDynamic(&Dynamic{Kind: DynProcSubst, Sink: c, Known: Unknown, Feeders: in.upstream, Pos: c.Pos})
	default:
		text := in.Text
		if !in.Known {
			if t, ok := fr.catFile(in); ok {
				run(t, posMap{at: in.Pos}, nil, DynPipeShell)
				return
			}
		}
		if !in.Known && !hasUnknown(text) {
			text = Unknown
		}
		run(text, inputPos(in), in.upstream, DynPipeShell)
	}
}

// catFile reads the file of "cat FILE | sh", the only upstream command,
// when the code is needed (never for a pipe that does not run its input).
func (fr *frame) catFile(in *Input) (string, bool) {
	if in.Kind != InputPipe || len(in.upstream) != 1 || in.From == nil || in.From.Name != "cat" || len(in.From.Wrappers) > 0 {
		return "", false
	}
	ops := operands(in.From.Args)
	if len(ops) != 1 || !ops[0].Literal() || ops[0].Value == "-" {
		return "", false
	}
	text, ok, _ := fr.readScript(in.From.Dir, ops[0].Value)
	return text, ok
}

// sameShellRunner runs input code in this shell (source /dev/stdin).
func (fr *frame) sameShellRunner(c *Command, via string) runner {
	return func(text string, pos posMap, feeders []*Command, kind DynKind) {
		fr.nest(nesting{sink: c, via: via, text: text, pos: pos, kind: kind, feeders: feeders, st: fr.st, dialect: fr.dialect})
		if hasUnknown(text) {
			fr.st.poisonVars()
		}
	}
}

// childState is the state a new shell process started by c begins with:
// the exported variables, c's assignments and env changes, the exported
// functions, c's directory.
func (fr *frame) childState(c *Command) *state {
	env, known := fr.st.exported()
	switch {
	case c.env.clear:
		env, known = map[string]string{}, true
	case len(c.env.unset) > 0 || len(c.Assigns) > 0:
		env = maps.Clone(env) // exported may return the parent's own map
		if env == nil {
			env = map[string]string{} // nothing exported (a remote shell's start)
		}
	}
	for _, u := range c.env.unset {
		delete(env, u)
	}
	for _, a := range c.Assigns {
		env[a.Name] = a.Value.Value
	}
	st := &state{base: env, baseKnown: known, dir: c.Dir}
	for name, f := range fr.st.funcs {
		if f.exported {
			if st.funcs == nil {
				st.funcs = make(map[string]*funcDef)
			}
			st.funcs[name] = f
		}
	}
	return st
}

// runNested analyses an argument vector that another program runs (find
// -exec, ssh with a program, docker exec): a new process, judged like any
// command, with Via recording the path.
func (fr *frame) runNested(c *Command, argv []arg, via string, mod func(*frame)) {
	if len(argv) == 0 {
		return
	}
	if fr.depth+1 > fr.r.maxDepth {
		fr.emitDynamic(&Dynamic{Kind: DynTooDeep, Sink: c, Known: joinValues(argv), Pos: c.Pos})
		return
	}
	stdin := c.Stdin
	if fr.ctx&InInterpreter != 0 {
		stdin = fr.stdin // the interpreter's: nil when its code came from stdin
	}
	child := fr.child(nesting{sink: c, via: via, st: fr.childState(c), stdin: stdin, dialect: Bash, user: c.User}, false)
	child.src = fr.src
	child.pos = fr.pos
	if mod != nil {
		mod(child)
	}
	site := &callSite{pos: argv[0].Pos, span: c.Span, slot: child.reserve()}
	if !site.pos.IsValid() {
		site.pos = c.Pos
	}
	child.run(argv, nil, site)
}

// sinkShellDefault: chroot DIR with no command runs an interactive shell.
func sinkShellDefault(fr *frame, c *Command, args []arg) {
	fr.execStdin(c, c.Name+" stdin", fr.shellRunner(c, "sh"))
}

func withWriter(feeders []*Command, writer *Command) []*Command {
	if writer == nil {
		return feeders
	}
	return append(slices.Clip(feeders), writer)
}

// sinkGuardExec follows guard-exec used as a shell (-c, a script) or as an
// argv wrapper (guard-exec -- prog args), after its own options (--pty,
// --mode, --timeout, --sandbox with a value, --ci, --strict); then the
// command has the meaning "runs". Its subcommands run nothing.
func sinkGuardExec(fr *frame, c *Command, args []arg) {
	i := 1
	for i < len(args) {
		name, _, attached := strings.Cut(args[i].Value, "=")
		switch name {
		case "--ci", "--strict":
			i++
			continue
		case "--pty", "--mode", "--timeout", "--sandbox":
			i++
			if !attached {
				i++
			}
			continue
		}
		break
	}
	if i >= len(args) {
		return
	}
	if v := args[i].Value; !strings.HasPrefix(v, "-") && guardSubcommands()[v] {
		return
	}
	c.Flags = append(c.Flags, "runs")
	if args[i].Value == "--" {
		fr.runNested(c, args[i+1:], "guard-exec --", nil)
		return
	}
	// A shell: -c CMD, or a script file.
	sinkShell(fr, c, append([]arg{args[0]}, args[i:]...))
}

var guardSubcommands = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"check": true, "explain": true, "log": true, "show": true, "stats": true, "approve": true,
		"rules": true, "config": true, "shim": true, "doctor": true, "version": true, "help": true,
		"loops": true, "hook": true, "completion": true, "man": true, "ship": true,
	}
})
