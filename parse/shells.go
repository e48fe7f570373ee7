package parse

import "strings"

// shellName reports the programs that run shell code like bash: -c
// STRING, a script file, or their input. (A switch: every command's name
// is asked, and a map would be built in every process.)
func shellName(name string) bool {
	switch name {
	case "bash", "sh", "zsh", "dash", "ksh", "mksh",
		"ash", "fish", "csh", "tcsh", "yash", "posh",
		"rbash", "ksh93", "pdksh", "oksh", "loksh":
		return true
	}
	return false
}

// shellInvocation is what a shell's argument vector asks for.
type shellInvocation struct {
	cmd         *arg  // -c STRING
	file        *arg  // a script file
	stdin       bool  // commands come from standard input (-s, or nothing else)
	params      []arg // the operands after the script: $0 (with -c) or $1 …
	interactive bool
	posix       bool // --posix or -o posix: bash in POSIX mode
	// aliases is set by -O expand_aliases (bash); with posix and
	// interactive, the shell expands aliases from its first line.
	aliases bool
	norcs   bool // zsh -f (--no-rcs): no startup files
	rcfile  *arg
}

// parseShellArgs reads bash's invocation syntax, which the other shells
// share for what matters here: options in any order and clustered (-lc,
// -ec, -c -l, +x, -o pipefail, --norc); with -c the first operand is the
// script and the next are $0 $1 …; otherwise the first operand is a file.
func parseShellArgs(args []arg) shellInvocation {
	var inv shellInvocation
	cmdMode := false
	i := 1
options:
	for i < len(args) {
		a := args[i]
		v := a.Value
		switch {
		case !a.Literal():
			break options
		case v == "--" || v == "-":
			i++
			break options
		case strings.HasPrefix(v, "--"):
			inv.posix = inv.posix || v == "--posix"
			inv.norcs = inv.norcs || v == "--no-rcs" || v == "--norcs"
			if v == "--rcfile" || v == "--init-file" {
				if i+1 < len(args) {
					inv.rcfile = &args[i+1]
				}
				i++
			}
			i++
		case len(v) > 1 && (v[0] == '-' || v[0] == '+'):
			for _, ch := range v[1:] {
				switch ch {
				case 'c':
					cmdMode = cmdMode || v[0] == '-'
				case 's':
					inv.stdin = true
				case 'i':
					inv.interactive = true
				case 'f':
					inv.norcs = inv.norcs || v[0] == '-'
				case 'o', 'O':
					i++ // takes the next argument
					if ch == 'o' && i < len(args) && args[i].Value == "posix" {
						inv.posix = inv.posix || v[0] == '-'
					}
					if ch == 'O' && i < len(args) && (args[i].Value == "expand_aliases" || !args[i].Literal()) {
						inv.aliases = v[0] == '-'
					}
				}
			}
			i++
		default:
			break options
		}
	}
	i = min(i, len(args)) // -o with no argument
	switch {
	case cmdMode:
		if i < len(args) {
			inv.cmd = &args[i]
			inv.params = args[i+1:]
		}
	case inv.stdin:
		inv.params = args[i:]
	case i < len(args):
		inv.file = &args[i]
		inv.params = args[i+1:]
	default:
		inv.stdin = true
	}
	return inv
}

// sinkShell follows bash, sh, zsh … : the -c script, the script file or
// the commands read from standard input.
func sinkShell(fr *frame, c *Command, args []arg) {
	inv := parseShellArgs(args)
	name := c.Name
	switch {
	case inv.cmd != nil:
		st := fr.childState(c)
		st.args, st.argsKnown = shellParams(name, inv.params, true), true
		st.expandAliases = inv.expandsAliases(name) // bash -i, -O expand_aliases, --posix
		fr.shellEnvCode(c, st, &inv)
		fr.nest(nesting{sink: c, via: name + " -c", text: inv.cmd.Value, pos: fr.textPos(*inv.cmd), kind: DynShellArg,
			feeders: inv.cmd.feeders, st: st, stdin: c.Stdin, dialect: shellDialect(name), user: c.User, supplied: inv.cmd.supplied})
	case inv.file != nil:
		// The script it runs, a role of its command as an
		// interpreter's is (codeRole).
		c.Roles = append(c.Roles, RoleArg{Role: RoleScript, Lang: "sh", Word: inv.file.Word, Path: fr.wordPath(c, inv.file.Word)})
		fr.shellFile(c, name, inv)
	case c.Stdin == nil:
		// It reads the terminal (sh -i): what it will be typed is not
		// the line's, but the startup file it sources first is.
		fr.shellEnvCode(c, fr.childState(c), &inv)
	default:
		fr.execStdin(c, name+" stdin", fr.shellRunnerInv(c, name, &inv))
	}
}

// expandsAliases reports whether the shell the invocation starts expands
// aliases from its first line: interactive, in POSIX mode, or told to
// with -O expand_aliases.
func (inv *shellInvocation) expandsAliases(name string) bool {
	return inv.interactive || inv.posix || inv.aliases || shellDialect(name) == POSIX
}

// shellParams builds the positional parameters of a new shell.
func shellParams(name string, params []arg, withZero bool) []string {
	out := make([]string, 0, len(params)+1)
	if !withZero || len(params) == 0 {
		out = append(out, name)
	}
	for _, p := range params {
		out = append(out, p.Value)
	}
	return out
}

func shellDialect(name string) Dialect {
	switch name {
	case "sh", "dash", "ash", "posh":
		return POSIX
	}
	return Bash
}

// shellFile follows bash FILE: the file is read through Options.Files;
// bash <(…) and an unreadable or dynamic file are dynamic.
func (fr *frame) shellFile(c *Command, name string, inv shellInvocation) {
	f := inv.file
	if isStdinPath(f.Value) {
		fr.execStdin(c, name+" stdin", fr.shellRunnerInv(c, name, &inv))
		return
	}
	psText, psKnown, _ := procSubstOutput(*f)
	if f.syn != nil && isProcSubstWord(f.syn) && !psKnown {
		fr.emitDynamic(&Dynamic{Kind: DynProcSubst, Sink: c, Known: Unknown, Feeders: f.feeders, Pos: c.Pos})
		return
	}
	text, ok, writer := psText, psKnown, (*Command)(nil)
	if f.Literal() {
		text, ok, writer = fr.readScript(c.Dir, f.Value)
	}
	if !ok {
		fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: f.Value, Feeders: withWriter(f.feeders, writer), Pos: c.Pos})
		return
	}
	st := fr.childState(c)
	st.args = append([]string{f.Value}, values(inv.params)...)
	st.argsKnown = true
	st.expandAliases = st.expandAliases || inv.aliases || inv.posix
	fr.shellEnvCode(c, st, &inv)
	pos, file := posMap{at: f.Pos}, ""
	if f.Literal() {
		pos, file = fr.diskFile(c.Dir, f.Value, f.Pos)
	}
	fr.nest(nesting{sink: c, via: name + " " + "file", text: text, pos: pos, kind: DynSource, st: st, stdin: c.Stdin, dialect: shellDialect(name), user: c.User, file: file})
}

// shellRunner runs input text in a new shell started by c.
func (fr *frame) shellRunner(c *Command, name string) runner {
	return fr.shellRunnerInv(c, name, nil)
}

// shellRunnerInv runs input text in the shell c starts with the
// invocation inv (nil: a plain shell reading its input).
func (fr *frame) shellRunnerInv(c *Command, name string, inv *shellInvocation) runner {
	var params []arg
	if inv != nil {
		params = inv.params
	}
	return func(text string, pos posMap, feeders []*Command, kind DynKind) {
		st := fr.childState(c)
		st.args, st.argsKnown = shellParams(name, params, false), true
		if inv != nil {
			st.expandAliases = st.expandAliases || inv.aliases || inv.posix || inv.interactive
		}
		fr.shellEnvCode(c, st, inv)
		fr.nest(nesting{sink: c, via: name + " stdin", text: text, pos: pos, kind: kind, feeders: feeders, st: st, dialect: shellDialect(name), user: c.User})
	}
}

// shellEnvCode follows the code a new shell takes from its environment:
// the exported functions the command passes it and the startup file it
// sources before its code (startupVars). inv is how it was started, nil
// for a plain shell reading its input.
func (fr *frame) shellEnvCode(c *Command, st *state, inv *shellInvocation) {
	fr.childEnvFuncs(c, st)
	if inv == nil {
		inv = &shellInvocation{stdin: true}
	}
	terminal := inv.cmd == nil && inv.file == nil && c.Stdin == nil
	d := shellDialect(c.Name)
	for _, name := range startupVars(c.Name, *inv, terminal, st) {
		fr.startupFile(c, st, name, d, c.Dir)
	}
	if c.Name == "zsh" && !inv.norcs {
		fr.zshStartup(c, st, inv.interactive || terminal)
	}
}

// zshStartup follows the files zsh reads from $ZDOTDIR (else $HOME) when
// the line moves it there: .zshenv always, .zshrc when interactive. A
// file that is not there is nothing; the home directory zsh starts
// with otherwise is the user's own, as their ~/.bashrc is.
func (fr *frame) zshStartup(c *Command, st *state, interactive bool) {
	name := "ZDOTDIR"
	dir, ok := fr.envOf(c, name)
	if !ok {
		name = "HOME"
		dir, ok = fr.envOf(c, name)
	}
	if !ok || dir == "" {
		return
	}
	files := []string{".zshenv"}
	if interactive {
		files = append(files, ".zshrc")
	}
	for _, f := range files {
		p := strings.TrimSuffix(dir, "/") + "/" + f
		text, fs, writer := fr.readConfigFile(c.Dir, p)
		switch fs {
		case fileMissing:
			continue
		case fileUnreadable:
			fr.emitDynamic(&Dynamic{Kind: DynEnvCode, Sink: c, Known: name + "=" + dir, Feeders: withWriter(nil, writer), Pos: c.Pos, Span: name + "=" + dir})
			continue
		}
		pos, file := fr.diskFile(c.Dir, p, c.Pos)
		fr.nest(nesting{sink: c, via: name, text: text, pos: pos, kind: DynSource, st: st, dialect: Bash, user: fr.user, file: file})
	}
}

// startupVars returns the variables naming the file a new shell sources
// before its code, as the shells read them: bash reads BASH_ENV when it
// is not interactive, and ENV when it is and runs in POSIX mode (--posix,
// -o posix, POSIXLY_CORRECT in its environment); sh, dash and the ksh
// family read ENV when interactive. A shell reading a terminal (terminal:
// no code given, its input not redirected) is interactive, and one with
// -i is; bash reading a terminal may also not be (its input is not a
// tty), so both of its files count there.
func startupVars(name string, inv shellInvocation, terminal bool, st *state) []string {
	interactive := inv.interactive || terminal
	switch name {
	case "bash", "rbash":
		var out []string
		if !inv.interactive {
			out = append(out, "BASH_ENV")
		}
		if _, set := st.lookup("POSIXLY_CORRECT").value(); interactive && (inv.posix || set) {
			out = append(out, "ENV")
		}
		return out
	case "sh", "dash", "ash", "posh", "ksh", "mksh", "ksh93", "pdksh", "oksh", "loksh", "yash":
		if interactive {
			return []string{"ENV"}
		}
	}
	return nil
}
