package parse

import (
	"slices"
	"strings"
)

// A wrapper is a program that runs another program given as its operands
// (sudo rm, env X=1 rm, timeout 5 rm). peel takes wrappers off, outermost
// first, so the command is judged as what finally runs; each peeled name
// is kept in Command.Wrappers.

// wrapFunc parses a wrapper's options and returns the words of the
// command it runs; ok is false when it runs none (sudo -v, env alone,
// command -v X): the wrapper itself is then the command.
type wrapFunc func(fr *frame, c *Command, args []arg) (rest []arg, ok bool)

// maxWrappers bounds peeling ("nice nice nice …").
const maxWrappers = 16

// wrapperOf is the peeling of a wrapper's name, or nil. (A switch, not a
// map built at package init, which every command paid: the few made by
// a call, with their options, are made when such a name is peeled.)
func wrapperOf(name string) wrapFunc {
	switch name {
	case "sudo", "sudo-rs":
		return wrapSudo
	case "doas":
		return wrapDoas
	case "env":
		return wrapEnv
	case "command":
		return wrapCommand
	case "builtin":
		return func(fr *frame, c *Command, args []arg) ([]arg, bool) { return rest(args, 1) }
	case "exec":
		return simpleWrapper(OptSpec{Short: "a"}, 0)
	case "time":
		return simpleWrapper(OptSpec{Short: "fo", Long: []string{"format", "output"}}, 0)
	case "ionice":
		return unlessOpt(OptSpec{Short: "cnpPu", Long: []string{"class", "classdata"}}, 0, "p", "P", "u", "pid", "pgid", "uid")
	case "chroot":
		return simpleWrapper(OptSpec{Long: []string{"userspec", "groups"}}, 1)
	case "strace":
		return tracer(OptSpec{Short: "abeEIoOpPsSuUX", Long: []string{"output"}})
	case "ltrace":
		return tracer(OptSpec{Short: "aeEFlnopsuwDx", Long: []string{"output"}})
	case "busybox":
		return wrapBusybox
	case "xargs":
		return wrapXargs
	case "flock":
		return wrapFlock
	case "runuser":
		return wrapRunuser
	case "pkexec":
		return wrapPkexec
	case "run0":
		return wrapRun0
	case "setpriv":
		return wrapSetpriv
	case "gosu", "su-exec", "setuidgid", "s6-setuidgid":
		return wrapAsUser
	case "chrt":
		return unlessOpt(OptSpec{Short: "TPD", Long: []string{"sched-runtime", "sched-period", "sched-deadline"}}, 1, "p", "pid", "m", "max")
	case "taskset":
		return unlessOpt(OptSpec{}, 1, "p", "pid")
	case "prlimit":
		return unlessOpt(OptSpec{}, 0, "p", "pid")
	case "direnv":
		return wrapDirenv
	case "op", "doppler", "infisical":
		return afterDashDash("run")
	case "aws-vault":
		return afterDashDash("exec")
	case "dotenv":
		return afterDashDash("")
	case "cross-env":
		return wrapCrossEnv
	case "nix":
		return wrapNix
	}
	return nil
}

func rest(args []arg, i int) ([]arg, bool) {
	if i >= len(args) {
		return nil, false
	}
	return args[i:], true
}

// simpleWrapper parses options, skips n operands, and runs the rest.
func simpleWrapper(spec OptSpec, n int) wrapFunc {
	return func(fr *frame, c *Command, args []arg) ([]arg, bool) {
		_, i := parseOpts(args, 1, spec)
		return rest(args, i+n)
	}
}

// unlessOpt is simpleWrapper, but the named options (attach to a
// running process) mean no command is run.
func unlessOpt(spec OptSpec, n int, no ...string) wrapFunc {
	return func(fr *frame, c *Command, args []arg) ([]arg, bool) {
		opts, i := parseOpts(args, 1, spec)
		if has(opts, no...) {
			return nil, false
		}
		return rest(args, i+n)
	}
}

// tracer peels strace and ltrace: the traced program runs; and -o
// |CMD (or !CMD) pipes the trace into CMD, run with the shell.
func tracer(spec OptSpec) wrapFunc {
	return func(fr *frame, c *Command, args []arg) ([]arg, bool) {
		opts, i := parseOpts(args, 1, spec)
		for _, o := range opts {
			if (o.name == "o" || o.name == "output") && o.val != nil {
				if v := o.val.Value; strings.HasPrefix(v, "|") || strings.HasPrefix(v, "!") {
					fr.nestShellWords(c, []arg{valueArg(*o.val, v[1:])}, c.Name+" -o |")
				}
			}
		}
		return rest(args, i)
	}
}

// subWrapper handles "uv run CMD", "poetry run CMD", "bundle exec CMD".
func subWrapper(sub string, spec OptSpec) wrapFunc {
	return func(fr *frame, c *Command, args []arg) ([]arg, bool) {
		if len(args) < 3 || args[1].Value != sub {
			return nil, false
		}
		_, i := parseOpts(args, 2, spec)
		return rest(args, i)
	}
}

// afterDashDash handles "op run … -- CMD": the command follows "--".
func afterDashDash(subs ...string) wrapFunc {
	return func(fr *frame, c *Command, args []arg) ([]arg, bool) {
		if len(args) < 2 || subs[0] != "" && !contains(subs, args[1].Value) {
			return nil, false
		}
		for i, a := range args {
			if a.Value == "--" {
				return rest(args, i+1)
			}
		}
		return nil, false
	}
}

// peel takes the wrappers off a command line. A name the script defined
// as a function is the function, not the wrapper of the same name: bash
// looks functions up before builtins and programs, and the time keyword
// keeps that lookup, so after timeout() { …; } "timeout 5 x" calls it.
// A function defined only on some paths is peeled as the wrapper too.
func (fr *frame) peel(c *Command, args []arg) []arg {
	for n := 0; n < maxWrappers && len(args) > 0; n++ {
		if !args[0].Literal() || fr.definesFunc(c, args[0].Value) {
			break
		}
		name := basename(args[0].Value)
		w := wrapperOf(name)
		if w == nil {
			w = tableWrapper(name)
		}
		if w == nil {
			break
		}
		inner, ok := w(fr, c, args)
		if !ok || len(inner) == 0 {
			break
		}
		c.Wrappers = append(c.Wrappers, name)
		args = inner
	}
	return args
}

// isAssignWord reports whether a word is NAME=value.
func isAssignWord(a arg) (name, val string, ok bool) {
	if a.Dynamic && !strings.Contains(a.Known(), "=") {
		return "", "", false
	}
	name, val, ok = strings.Cut(a.Value, "=")
	if !ok || !validName(name) {
		return "", "", false
	}
	return name, val, true
}

func (c *Command) addAssign(a arg, name, val string) {
	c.Assigns = append(slices.Clip(c.Assigns), Assign{Name: name, Value: Word{Value: val, Dynamic: hasUnknown(val), Pos: a.Pos}})
}

// wrapSudo peels sudo [options] [VAR=value…] CMD. sudo -s/-i with no
// command is an interactive shell: not peeled, the sudo sink follows its
// input.
func wrapSudo(fr *frame, c *Command, args []arg) ([]arg, bool) {
	opts, i := parseOpts(args, 1, OptSpec{Short: "CDghprRtTUu", Long: []string{"chdir", "close-from", "group", "host", "prompt", "chroot", "role", "type", "command-timeout", "other-user", "user"}})
	if has(opts, "e", "edit", "l", "list", "v", "validate", "K", "remove-timestamp", "V", "version", "help") {
		return nil, false
	}
	for ; i < len(args); i++ {
		name, val, ok := isAssignWord(args[i])
		if !ok {
			break
		}
		c.addAssign(args[i], name, val)
	}
	if i >= len(args) {
		return nil, false
	}
	c.User = "root"
	if u := optVal(opts, "u", "user"); u != nil {
		c.User = u.Value
	}
	if d := optVal(opts, "D", "chdir"); d != nil {
		c.Dir, c.DirPart, c.DirMade = resolveDir(c.Dir, d.Word), "", false
	}
	if !has(opts, "E", "preserve-env") {
		c.env.reset = true // sudo's env_reset keeps only a few variables
	}
	return args[i:], true
}

func resolveDir(dir string, w Word) string {
	if !w.Literal() {
		return ""
	}
	return resolvePath(dir, w.Value)
}

func wrapDoas(fr *frame, c *Command, args []arg) ([]arg, bool) {
	opts, i := parseOpts(args, 1, OptSpec{Short: "Cu"})
	if i >= len(args) || has(opts, "L") {
		return nil, false
	}
	c.User = "root"
	if u := optVal(opts, "u"); u != nil {
		c.User = u.Value
	}
	return args[i:], true
}

// wrapEnv peels env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=VALUE]… CMD.
func wrapEnv(fr *frame, c *Command, args []arg) ([]arg, bool) {
	opts, i := parseOpts(args, 1, OptSpec{Short: "uCSP", Long: []string{"unset", "chdir", "split-string"}})
	for _, o := range opts {
		switch o.name {
		case "i", "ignore-environment":
			c.env.clear = true
		case "u", "unset":
			if o.val != nil {
				c.env.unset = append(c.env.unset, o.val.Value)
			}
		case "C", "chdir":
			if o.val != nil {
				c.Dir, c.DirPart, c.DirMade = resolveDir(c.Dir, o.val.Word), "", false
			}
		case "S", "split-string":
			if o.val != nil {
				split := splitEnvString(fr, *o.val)
				return wrapEnv(fr, c, append(append([]arg{args[0]}, split...), args[i:]...))
			}
		}
	}
	if i < len(args) && args[i].Value == "-" {
		c.env.clear = true
		i++
	}
	return rest(args, peelAssigns(c, args, i))
}

// wrapCrossEnv peels cross-env NAME=VALUE… PROG ARGS…: env's
// assignments without its options.
func wrapCrossEnv(fr *frame, c *Command, args []arg) ([]arg, bool) {
	return rest(args, peelAssigns(c, args, 1))
}

// peelAssigns records the NAME=VALUE words from args[i] on as the
// command's assignments and returns the index of the first other word.
func peelAssigns(c *Command, args []arg, i int) int {
	for ; i < len(args); i++ {
		name, val, ok := isEnvAssignWord(args[i])
		if !ok {
			break
		}
		c.addAssign(args[i], name, val)
	}
	return i
}

// isEnvAssignWord reports whether a word is an assignment for env, which
// takes any name without '=' (BASH_FUNC_ls%%=… too), not only a shell
// identifier.
func isEnvAssignWord(a arg) (name, val string, ok bool) {
	if a.Dynamic && !strings.Contains(a.Known(), "=") {
		return "", "", false
	}
	name, val, ok = strings.Cut(a.Value, "=")
	if !ok || name == "" || hasUnknown(name) {
		return "", "", false
	}
	return name, val, true
}

// splitEnvString splits env -S's string into words as GNU env does:
// spaces separate, single and double quotes group, ${NAME} outside single
// quotes is NAME's value in env's environment, # at the start of a word
// begins a comment. Outside single quotes \\ \" \' \$ \# are those
// characters, \f \n \r \t \v the control characters, \_ a space that
// separates words (inside double quotes, one that does not), and \c
// ends the string; inside single quotes only \\ and \' are escapes.
// Anything else (a $ without braces, \x, \c inside double quotes) is an
// error env refuses to run with; it is modelled as an unknown word, not
// as nothing. With a nil frame (git's alias values) $ and escapes are
// plain quoting.
func splitEnvString(fr *frame, a arg) []arg {
	var out []arg
	var cur strings.Builder
	inWord, unknown := false, false
	quote := byte(0)
	s := a.Value
	var env map[string]string
	envKnown := true
	if fr != nil {
		env, envKnown = fr.st.exported()
	}
	flush := func() {
		if inWord {
			v := cur.String()
			if unknown {
				v += Unknown
			}
			out = append(out, arg{Word: Word{Value: v, Dynamic: hasUnknown(v), Pos: a.Pos}})
		}
		cur.Reset()
		inWord, unknown = false, false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote == '\'' && ch == '\\' && i+1 < len(s) && fr != nil && (s[i+1] == '\\' || s[i+1] == '\''):
			i++
			cur.WriteByte(s[i])
		case quote == '\'':
			if ch == quote {
				quote = 0
			} else {
				cur.WriteByte(ch)
			}
		case quote == '"' && ch == '"':
			quote = 0
		case quote == 0 && (ch == '\'' || ch == '"'):
			quote, inWord = ch, true
		case quote == 0 && (ch == ' ' || ch == '\t' || ch == '\n'):
			flush()
		case quote == 0 && ch == '#' && !inWord:
			return out
		case ch == '$' && fr != nil:
			inWord = true
			end := strings.IndexByte(s[i:], '}')
			if !strings.HasPrefix(s[i:], "${") || end < 0 || !validName(s[i+2:i+end]) {
				// $NAME: what env does with it is not modelled; the
				// variable's place is unknown.
				cur.WriteString(Unknown)
				for i+1 < len(s) && (s[i+1] == '_' || s[i+1] >= 'a' && s[i+1] <= 'z' || s[i+1] >= 'A' && s[i+1] <= 'Z' || s[i+1] >= '0' && s[i+1] <= '9') {
					i++
				}
				continue
			}
			v, ok := env[s[i+2:i+end]]
			switch {
			case ok:
				cur.WriteString(v)
			case !envKnown:
				unknown = true
			}
			i += end
		case ch == '\\' && i+1 < len(s) && fr != nil:
			i++
			switch e := s[i]; {
			case e == '_' && quote == 0:
				flush()
			case e == '_':
				cur.WriteByte(' ')
			case e == 'c' && quote == 0:
				flush()
				return out
			case strings.IndexByte("fnrtv", e) >= 0:
				cur.WriteByte("\f\n\r\t\v"[strings.IndexByte("fnrtv", e)])
				inWord = true
			case strings.IndexByte("\\\"'$#", e) >= 0:
				cur.WriteByte(e)
				inWord = true
			default:
				inWord = true
				cur.WriteString(Unknown)
			}
		case ch == '\\' && i+1 < len(s):
			i++
			inWord = true
			cur.WriteByte(s[i])
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	flush()
	return out
}

// wrapCommand peels command [-p] CMD; command -v/-V only looks CMD up.
func wrapCommand(fr *frame, c *Command, args []arg) ([]arg, bool) {
	opts, i := parseOpts(args, 1, OptSpec{})
	if has(opts, "v", "V") {
		return nil, false
	}
	return rest(args, i)
}

// wrapBusybox peels busybox APPLET.
func wrapBusybox(fr *frame, c *Command, args []arg) ([]arg, bool) {
	if len(args) < 2 || strings.HasPrefix(args[1].Value, "-") {
		return nil, false
	}
	return args[1:], true
}

// wrapXargs peels xargs [options] [CMD [ARGS]]. The arguments xargs adds
// are read at run time: with -I R they replace R in the words, otherwise
// they follow them; either way they are unknown (Placeholder). With no
// command xargs runs echo.
func wrapXargs(fr *frame, c *Command, args []arg) ([]arg, bool) {
	opts, i := parseOpts(args, 1, OptSpec{
		Short:    "aEdILnPs",
		Optional: "iel",
		Long:     []string{"arg-file", "delimiter", "eof", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"},
	})
	if has(opts, "show-limits", "help", "version") {
		return nil, false
	}
	repl := ""
	for _, o := range opts {
		switch o.name {
		case "I":
			if o.val != nil {
				repl = o.val.Value
			}
		case "i", "replace":
			repl = "{}"
			if o.val != nil && o.val.Value != "" {
				repl = o.val.Value
			}
		}
	}
	c.Via = append(slices.Clip(c.Via), Via{Sink: "xargs", Pos: args[0].Pos})
	var inner []arg
	if i >= len(args) {
		inner = []arg{{Word: Word{Value: "echo", Pos: args[0].Pos}}}
	} else {
		inner = slices.Clone(args[i:])
	}
	// When the input is known data ("echo / | xargs rm -rf"), its words are
	// the arguments.
	if items, ok := xargsItems(c.Stdin, has(opts, "0", "null", "d", "delimiter") || repl != ""); ok && len(items) > 0 {
		if repl == "" {
			for _, it := range items {
				inner = append(inner, arg{Word: Word{Value: it, Pos: args[0].Pos}})
			}
			return inner, true
		}
		if len(items) == 1 {
			for j := range inner {
				inner[j].Value = strings.ReplaceAll(inner[j].Value, repl, items[0])
				inner[j].whole = false
			}
			return inner, true
		}
	}
	c.Placeholder = true
	if repl != "" {
		for j := range inner {
			if strings.Contains(inner[j].Value, repl) {
				inner[j].supplied = inner[j].Literal()
				inner[j].Value = strings.ReplaceAll(inner[j].Value, repl, Unknown)
				inner[j].Dynamic = true
				inner[j].whole = false
			}
		}
		return inner, true
	}
	return append(inner, arg{Word: Word{Value: Unknown, Dynamic: true, Pos: args[len(args)-1].Pos}}), true
}

// wrapFlock peels flock [options] FILE CMD; flock … -c STRING is a sink.
func wrapFlock(fr *frame, c *Command, args []arg) ([]arg, bool) {
	opts, i := parseOpts(args, 1, OptSpec{Short: "wEc", Long: []string{"timeout", "wait", "conflict-exit-code", "command"}})
	if has(opts, "c", "command") || i+1 >= len(args) {
		return nil, false
	}
	j := i + 1
	if j < len(args) && (args[j].Value == "-c" || args[j].Value == "--command") {
		return nil, false
	}
	_, j = parseOpts(args, j, OptSpec{Short: "wE"})
	return rest(args, j)
}

// wrapRunuser peels runuser -u USER CMD; runuser USER -c S is a sink.
func wrapRunuser(fr *frame, c *Command, args []arg) ([]arg, bool) {
	opts, i := parseOpts(args, 1, OptSpec{Short: "ugGcsw", Long: []string{"user", "group", "supp-group", "command", "shell", "whitelist-environment"}})
	u := optVal(opts, "u", "user")
	if u == nil || has(opts, "c", "command") {
		return nil, false
	}
	c.User = u.Value
	return rest(args, i)
}

func wrapPkexec(fr *frame, c *Command, args []arg) ([]arg, bool) {
	opts, i := parseOpts(args, 1, OptSpec{Long: []string{"user"}})
	c.User = "root"
	if u := optVal(opts, "user"); u != nil {
		c.User = u.Value
	}
	return rest(args, i)
}

// run0Spec is systemd run0's options that take a value ("--user root" or
// "--user=root").
var run0Spec = OptSpec{Short: "ugD", Long: []string{"user", "group", "chdir", "setenv", "unit", "property", "description", "slice", "nice", "background", "machine", "area", "shell-prompt-prefix"}}

// wrapRun0 peels run0 [options] CMD: systemd's sudo, running CMD as
// root (or --user) through the service manager. With no command it is
// an interactive shell (sinkRun0).
func wrapRun0(fr *frame, c *Command, args []arg) ([]arg, bool) {
	opts, i := parseOpts(args, 1, run0Spec)
	if i >= len(args) || has(opts, "h", "help", "version", "V") {
		return nil, false
	}
	c.User = "root"
	if u := optVal(opts, "u", "user"); u != nil {
		c.User = u.Value
	}
	if d := optVal(opts, "D", "chdir"); d != nil {
		c.Dir, c.DirPart, c.DirMade = resolveDir(c.Dir, d.Word), "", false
	}
	c.env.reset = true // a service's environment, not the caller's
	return args[i:], true
}

// wrapSetpriv peels setpriv [options] CMD; --reuid sets the user, and
// -d/--dump runs nothing.
func wrapSetpriv(fr *frame, c *Command, args []arg) ([]arg, bool) {
	opts, i := parseOpts(args, 1, OptSpec{Long: []string{"reuid", "ruid", "euid", "regid", "rgid", "egid", "groups", "inh-caps", "ambient-caps", "bounding-set", "securebits", "pdeathsig", "selinux-label", "apparmor-profile", "landlock-access", "landlock-rule", "seccomp-filter"}})
	if has(opts, "d", "dump", "list-caps", "L", "h", "help", "V", "version") {
		return nil, false
	}
	if u := optVal(opts, "reuid", "ruid", "euid"); u != nil {
		c.User = u.Value
	}
	return rest(args, i)
}

// wrapAsUser peels gosu USER CMD, su-exec USER CMD, setuidgid USER CMD:
// container entrypoint helpers that run CMD as USER.
func wrapAsUser(fr *frame, c *Command, args []arg) ([]arg, bool) {
	if len(args) < 3 || strings.HasPrefix(args[1].Value, "-") {
		return nil, false
	}
	user, _, _ := strings.Cut(args[1].Value, ":")
	c.User = user
	return args[2:], true
}

// wrapDirenv peels direnv exec DIR CMD.
func wrapDirenv(fr *frame, c *Command, args []arg) ([]arg, bool) {
	if len(args) < 4 || args[1].Value != "exec" {
		return nil, false
	}
	c.Dir, c.DirPart, c.DirMade = resolveDir(c.Dir, args[2].Word), "", false
	return args[3:], true
}

// wrapNix peels nix develop/shell … -c|--command CMD, and nix run
// FLAKE#ATTR [-- ARGS…], which runs the package's program: named, for
// the risky reading, by the attribute's last part (nixpkgs#bash is bash).
// A flake with no attribute runs a program the line does not name.
func wrapNix(fr *frame, c *Command, args []arg) ([]arg, bool) {
	if len(args) >= 3 && args[1].Value == "run" {
		return nixRun(args)
	}
	if len(args) < 3 || args[1].Value != "develop" && args[1].Value != "shell" {
		return nil, false
	}
	for i, a := range args[2:] {
		if a.Value == "-c" || a.Value == "--command" {
			return rest(args, i+3)
		}
	}
	return nil, false
}

func nixRun(args []arg) ([]arg, bool) {
	var prog *arg
	for i := 2; i < len(args); i++ {
		a := args[i]
		if a.Value == "--" {
			break
		}
		_, attr, ok := strings.Cut(a.Value, "#")
		if prog == nil && ok && a.Literal() && !strings.HasPrefix(a.Value, "-") && attr != "" {
			if j := strings.LastIndexByte(attr, '.'); j >= 0 && j < len(attr)-1 && !strings.HasPrefix(attr[j+1:], "\"") {
				attr = attr[j+1:]
			}
			p := valueArg(a, attr)
			prog = &p
		}
	}
	if prog == nil {
		return nil, false
	}
	out := []arg{*prog}
	for i := 2; i < len(args); i++ {
		if args[i].Value == "--" {
			out = append(out, args[i+1:]...)
			break
		}
	}
	return out, true
}

// maxXargsItems bounds the known input words xargs is given.
const maxXargsItems = 64

// xargsItems splits known xargs input into its items: blank-separated
// words, or lines with -I. Quotes and other delimiters are not followed.
func xargsItems(in *Input, lines bool) ([]string, bool) {
	if in == nil || !in.Known || strings.ContainsAny(in.Text, "'\"\\") {
		return nil, false
	}
	var items []string
	if lines {
		for _, l := range strings.Split(strings.TrimRight(in.Text, "\n"), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				items = append(items, l)
			}
		}
	} else {
		items = strings.Fields(in.Text)
	}
	if len(items) > maxXargsItems {
		return nil, false
	}
	return items, true
}

// tableWrapper peels a program-table row marked Wrapper (nohup, timeout,
// sshpass; uv run, poetry run): its RoleProgram operand, or the operands
// after "--" of a "--:program" row, is the command.
func tableWrapper(name string) wrapFunc {
	p := LookupProgram(name)
	if p == nil || !p.Wrapper && !p.wrapperSub {
		return nil
	}
	return func(fr *frame, c *Command, args []arg) ([]arg, bool) {
		row, from := p, 1
		for row.subs != nil && !row.Wrapper {
			pa := row.read(args, from)
			if len(pa.ops) == 0 || !args[pa.ops[0]].Literal() || row.subs[args[pa.ops[0]].Value] == nil {
				return nil, false
			}
			row, from = row.sub(args[pa.ops[0]].Value), pa.ops[0]+1
		}
		if !row.Wrapper {
			return nil, false
		}
		pa := row.read(args, from)
		fr.followWrapperOpts(c, row, pa)
		for _, ar := range row.args {
			switch {
			case ar.spec.role != RoleProgram:
			case ar.dashes:
				if pa.dashes >= 0 && pa.dashes < len(pa.ops) {
					return skipDashed(args[pa.ops[pa.dashes]:]), true
				}
			case ar.spec.lang == "sh" && ar.at == len(pa.ops)-1:
				return nil, false // a command line: the row's own reading nests it
			case ar.at < len(pa.ops):
				return skipDashed(args[pa.ops[ar.at]:]), true
			}
		}
		return nil, false
	}
}

// followWrapperOpts follows the code a peeled wrapper's options run
// (perf stat --pre CMD, faketime --date-prog PROG): the command becomes
// what the wrapper runs, so the roles are not kept on it.
func (fr *frame) followWrapperOpts(c *Command, row *Program, pa parsedArgs) {
	if fr == nil {
		return
	}
	for _, ov := range pa.vals {
		if ov.row.spec == nil {
			continue
		}
		switch ov.row.spec.role {
		case RoleShell, RoleProgram, RoleCode, RoleScript:
			n := len(c.Roles)
			fr.applyRole(c, *ov.row.spec, ov.val, ov.rest, ov.row.name, row.Name+" "+ov.row.name)
			c.Roles = c.Roles[:n]
		}
	}
}

// skipDashed drops the words before a wrapper's program that start with
// a dash: options of the wrapper's the row does not list (setarch ARCH
// -R PROG), since no program is named so. The risky reading: the
// program is what follows them.
func skipDashed(ws []arg) []arg {
	for len(ws) > 1 && ws[0].Literal() && len(ws[0].Value) > 1 && ws[0].Value[0] == '-' {
		ws = ws[1:]
	}
	return ws
}
