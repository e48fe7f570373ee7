package parse

import "strings"

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
	input, inputKnown := stdinText(c)
	if len(scripts) != 1 || len(operands(c.Args)) > 1 {
		inputKnown = false // the input is files, or other scripts change the pattern space
	}
	for _, s := range scripts {
		for _, x := range sedExecs(s.Value) {
			text := x.code(input, inputKnown)
			if text == Unknown {
				fr.emitDynamic(&Dynamic{Kind: DynInterpreter, Sink: c, Known: s.Value, Pos: c.Pos})
				continue
			}
			fr.interpShell(c, "sed e", value{s: text})
		}
	}
}

// sedExec is one place a sed script runs a command: e COMMAND (cmd), a
// bare e (the pattern space), or s/re/repl/e (the pattern space after the
// substitution).
type sedExec struct {
	cmd            string
	space, subst   bool
	re, repl, flag string
	alone          bool // the only command of the script
}

// code is the shell code x runs, as far as it is known: the command of
// e COMMAND; for a bare e that is the whole script, the input; for s///e
// whose regex is a plain string or the whole line and whose replacement
// has no & or \, the substituted input lines. Otherwise the replacement
// with unknown text around it, or Unknown.
func (x sedExec) code(input string, known bool) string {
	switch {
	case !x.space:
		return x.cmd
	case !x.subst:
		if x.alone && known && !hasUnknown(input) {
			return input
		}
		return Unknown
	case strings.ContainsAny(x.repl, "&\\\n") || strings.Trim(x.flag, "ge") != "":
		return Unknown
	}
	switch x.re {
	case "^.*$", ".*", "^.*", ".*$":
		if x.alone && known && !hasUnknown(input) {
			var b strings.Builder
			for range strings.SplitAfter(strings.TrimSuffix(input, "\n"), "\n") {
				b.WriteString(x.repl + "\n")
			}
			return b.String()
		}
		return x.repl
	}
	if x.alone && known && !hasUnknown(input) && x.re != "" && !strings.ContainsAny(x.re, ".[]*^$\\") {
		n := 1
		if strings.Contains(x.flag, "g") {
			n = -1
		}
		var b strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(input, "\n"), "\n") {
			if strings.Contains(l, x.re) {
				b.WriteString(strings.Replace(l, x.re, x.repl, n) + "\n")
			}
		}
		return b.String()
	}
	return Unknown + x.repl + Unknown
}

// sedExecs finds the commands of sed's e: "e CMD" (to the end of the
// line), a bare e and the e flag of s///, which run the pattern space.
// The s command is read with its delimiter and escapes, so a ; or a
// newline in its replacement does not end it.
func sedExecs(script string) []sedExec {
	var out []sedExec
	cmds := 0
	i := 0
	for i < len(script) {
		// Separators, then an address: digits, $, /re/ and ranges.
		for i < len(script) && strings.IndexByte(" \t\n;{}", script[i]) >= 0 {
			i++
		}
		if i >= len(script) {
			break
		}
		cmds++
		addr := false
		for i < len(script) {
			ch := script[i]
			switch {
			case ch >= '0' && ch <= '9' || ch == '$' || ch == ',' || ch == '!' || ch == ' ' || ch == '~':
				i++
			case ch == '/' || ch == '\\' && i+1 < len(script):
				d := byte('/')
				if ch == '\\' {
					i++
					d = script[i]
				}
				_, i = sedField(script, i+1, d)
			default:
				goto cmd
			}
			addr = true
		}
	cmd:
		if i >= len(script) {
			break
		}
		switch script[i] {
		case 'e':
			j := strings.IndexByte(script[i:], '\n')
			if j < 0 {
				j = len(script) - i
			}
			arg := strings.TrimSpace(script[i+1 : i+j])
			if arg == "" {
				out = append(out, sedExec{space: true, alone: !addr})
			} else {
				out = append(out, sedExec{cmd: arg})
			}
			i += j
		case 's':
			if i+1 >= len(script) {
				return out
			}
			d := script[i+1]
			re, j := sedField(script, i+2, d)
			repl, k := sedField(script, j, d)
			f := k
			for f < len(script) && strings.IndexByte(";\n}", script[f]) < 0 {
				f++
			}
			flag := strings.TrimSpace(script[min(k, f):f])
			if strings.Contains(flag, "e") {
				out = append(out, sedExec{space: true, subst: true, re: re, repl: repl, flag: flag, alone: !addr})
			}
			i = f
		default:
			j := strings.IndexAny(script[i:], ";\n")
			if j < 0 {
				j = len(script) - i
			}
			i += j
		}
	}
	if cmds != 1 {
		for k := range out {
			out[k].alone = false
		}
	}
	return out
}

// sedField reads a field of an address or an s command from i up to the
// delimiter d, and returns it (escapes kept, \d turned into d) and the
// index after the delimiter.
func sedField(s string, i int, d byte) (string, int) {
	var b strings.Builder
	for ; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == d:
			b.WriteByte(d)
			i++
		case s[i] == '\\' && i+1 < len(s):
			b.WriteString(s[i : i+2])
			i++
		case s[i] == d:
			return b.String(), i + 1
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), i
}
