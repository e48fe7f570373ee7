package parse

import (
	"slices"
	"strings"
)

// sinkSudo follows sudo -s / sudo -i (and doas -s) with no command: an
// interactive root shell, which runs whatever its input holds.
func sinkSudo(fr *frame, c *Command, args []arg) {
	opts, i := parseOpts(args, 1, optSpec{short: "CDghprRtTUu", long: []string{"chdir", "user", "group", "prompt", "host"}})
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
	spec := optSpec{short: "cgGsuw", long: []string{"command", "session-command", "group", "supp-group", "shell", "user", "whitelist-environment"}}
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
	opts, i := parseOpts(args, 1, optSpec{short: "nq", optional: "d", long: []string{"interval", "equexit", "errexit"}})
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
	opts, _ := parseOpts(args, 1, optSpec{short: "cEoOTIBt", optional: "", long: []string{"command", "echo", "output-limit", "log-out", "log-in", "log-io", "log-timing", "logging-format"}})
	cmd := optVal(opts, "c", "command")
	if cmd == nil {
		return
	}
	fr.nestShellWords(c, []arg{*cmd}, "script -c")
}

// sinkFlock follows flock FILE -c STRING.
func sinkFlock(fr *frame, c *Command, args []arg) {
	opts, i := parseOpts(args, 1, optSpec{short: "wEc", long: []string{"timeout", "wait", "conflict-exit-code", "command"}})
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

// sinkFind follows the commands of find -exec, -execdir, -ok and -okdir.
// Each runs with {} replaced by the found path, unknown here
// (Placeholder); -execdir runs in the found file's directory. The find
// command itself stays as written, so -delete and the roots are visible.
func sinkFind(fr *frame, c *Command, args []arg) {
	for i := 1; i < len(args); i++ {
		op := args[i].Value
		switch op {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		j := i + 1
		var argv []arg
		for ; j < len(args); j++ {
			v := args[j].Value
			if v == ";" || v == "+" && j > i+1 && args[j-1].Value == "{}" {
				break
			}
			a := args[j]
			if strings.Contains(v, "{}") {
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
		i = j
	}
}

// sinkParallel follows GNU parallel: the command words (a shell command
// line, with replacement strings like {} unknown) before ":::"; with no
// command, the ::: arguments or the input lines are the commands.
func sinkParallel(fr *frame, c *Command, args []arg) {
	_, i := parseOpts(args, 1, optSpec{short: "jSadIENnPLsX", long: []string{"jobs", "arg-file", "delimiter", "sshlogin", "joblog", "results", "workdir", "timeout", "delay", "retries", "colsep", "replace", "env", "basefile", "tmpdir", "tagstring", "halt", "memfree", "load", "max-args", "sshloginfile"}})
	var cmd, rest []arg
	for j := i; j < len(args); j++ {
		if strings.HasPrefix(args[j].Value, ":::") {
			rest = args[j:]
			break
		}
		cmd = append(cmd, args[j])
	}
	if len(cmd) == 0 {
		if len(rest) == 0 {
			fr.execStdin(c, "parallel stdin", fr.shellRunner(c, "sh"))
			return
		}
		for _, a := range rest[1:] {
			if strings.HasPrefix(a.Value, ":::") {
				break
			}
			fr.nestShellWords(c, []arg{a}, "parallel")
		}
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

// sinkRsync follows rsync -e/--rsh COMMAND, the remote shell it runs.
func sinkRsync(fr *frame, c *Command, args []arg) {
	opts, _ := parseOpts(args, 1, optSpec{short: "eBfMT", long: []string{"rsh", "rsync-path", "filter", "exclude", "include", "exclude-from", "include-from", "files-from", "temp-dir", "compare-dest", "copy-dest", "link-dest", "log-file", "partial-dir", "password-file", "chown", "chmod", "backup-dir", "suffix", "timeout", "contimeout", "bwlimit", "port", "max-size", "min-size", "out-format", "info", "debug", "usermap", "groupmap", "iconv", "protocol", "sockopts", "outbuf", "modify-window", "block-size", "checksum-choice", "compress-choice", "compress-level", "skip-compress", "max-delete", "max-alloc", "only-write-batch", "write-batch", "read-batch", "stop-after", "stop-at", "address"}})
	if rsh := optVal(opts, "e", "rsh"); rsh != nil {
		fr.nestShellWords(c, []arg{*rsh}, "rsync -e")
	}
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
