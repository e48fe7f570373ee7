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
