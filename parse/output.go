package parse

import (
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The output of a few data commands can be known statically: echo and
// printf of literal words, cat of a heredoc, base64 -d of known text. It
// is what a pipeline stage feeds the next ("echo 'rm -rf /' | sh",
// "echo cm0gLXJmIC8K | base64 -d | sh") and what a command substitution
// gives ("$(echo rm) -rf /").

// cmdSubst analyses a command substitution and returns its output when
// it is known, trailing newlines removed as bash does.
func (fr *frame) cmdSubst(cs *syntax.CmdSubst, e *evaluator) (string, bool) {
	e.subst = true
	got := fr.substFrame(InCmdSubst).walkCollect(cs.Stmts)
	e.feeders = append(e.feeders, got...)
	out, known := outputOf(got)
	if !known {
		return "", false
	}
	return strings.TrimRight(out, "\n"), true
}

// procSubst analyses a process substitution; its value is a /dev/fd path.
func (fr *frame) procSubst(ps *syntax.ProcSubst, e *evaluator) []*Command {
	e.subst = true
	got := fr.substFrame(InProcSubst).walkCollect(ps.Stmts)
	e.feeders = append(e.feeders, got...)
	return got
}

// substFrame is the frame of a substitution: a subshell, not a stage of
// the pipeline around it.
func (fr *frame) substFrame(ctx Context) *frame {
	sub := fr.subshell(ctx)
	sub.pipeline, sub.pipeIndex = 0, 0
	sub.collect = nil
	return sub
}

// walkCollect walks stmts and returns the commands the frame itself ran.
func (fr *frame) walkCollect(stmts []*syntax.Stmt) []*Command {
	var got []*Command
	fr.collect = &got
	fr.walkStmts(stmts)
	fr.collect = nil
	return got
}

// outputOf returns what a list of commands prints to its standard output,
// when every command's output is known.
func outputOf(cmds []*Command) (string, bool) {
	var b strings.Builder
	for _, c := range cmds {
		if c.pipedOut {
			continue
		}
		if !c.outKnown {
			return "", false
		}
		b.WriteString(c.out)
	}
	return b.String(), true
}

// dataCommand works out the output of commands whose output is data.
func (fr *frame) dataCommand(c *Command, args []arg) {
	fr.output(c)
}

// output works out what a data command prints.
func (fr *frame) output(c *Command) {
	if len(c.Wrappers) > 0 && !onlyWrappers(c, "command", "builtin", "nohup", "time", "nice", "stdbuf", "timeout") {
		return
	}
	switch c.Name {
	case "echo":
		c.out, c.outKnown = fr.echo(c.Args)
	case "printf":
		if fr.printf(c) {
			return
		}
	case "true", ":", "false":
		c.out, c.outKnown = "", true
	case "pwd":
		if c.Dir != "" {
			c.out, c.outKnown = c.Dir+"\n", true
		}
	case "cat", "tee":
		if files := operands(c.Args); len(files) == 0 || len(files) == 1 && files[0].Value == "-" || c.Name == "tee" {
			c.out, c.outKnown = stdinText(c)
			if c.outKnown && c.Stdin.verbatim {
				c.outFrom = c.Stdin // the text is a slice of the script
			}
		}
	case "base64":
		if hasFlag(c.Args, "-d", "--decode", "-di", "-id") {
			if t, ok := stdinText(c); ok {
				c.out, c.outKnown = decodeBase64(t)
			}
		}
	case "rev":
		if len(operands(c.Args)) == 0 {
			if t, ok := stdinText(c); ok {
				c.out, c.outKnown = revLines(t), true
			}
		}
	case "tr":
		if t, ok := stdinText(c); ok {
			c.out, c.outKnown = trText(c.Args, t)
		}
	case "xxd":
		if hasFlag(c.Args, "-r") && hasFlag(c.Args, "-p", "-ps", "-plain") {
			if t, ok := stdinText(c); ok {
				c.out, c.outKnown = decodeHex(t)
			}
		}
	}
}

func onlyWrappers(c *Command, ok ...string) bool {
	for _, w := range c.Wrappers {
		found := false
		for _, o := range ok {
			found = found || w == o
		}
		if !found {
			return false
		}
	}
	return true
}

// redirectsStdout reports whether fd 1 goes somewhere else than the
// command's standard output.
func redirectsStdout(rs []Redirect) bool {
	for _, r := range rs {
		if r.Fd == 1 && (r.Write || r.Op == ">&") && r.Op != "" {
			return true
		}
	}
	return false
}

func stdinText(c *Command) (string, bool) {
	if c.Stdin == nil || !c.Stdin.Known {
		return "", false
	}
	return c.Stdin.Text, true
}

// operands returns the words that are not options.
func operands(args []Word) []Word {
	var out []Word
	opts := true
	for _, a := range args {
		if opts && a.Value == "--" {
			opts = false
			continue
		}
		if opts && strings.HasPrefix(a.Value, "-") && a.Value != "-" {
			continue
		}
		out = append(out, a)
	}
	return out
}

func hasFlag(args []Word, flags ...string) bool {
	for _, a := range args {
		for _, f := range flags {
			if a.Value == f {
				return true
			}
		}
	}
	return false
}

// echo is bash's builtin echo: options -n -e -E in any cluster, escapes
// only with -e (xpg_echo off). In POSIX sh (dash) echo always decodes
// escapes and takes no options, so output with either is left unknown.
func (fr *frame) echo(args []Word) (string, bool) {
	nl, esc := true, false
	i := 0
	for ; i < len(args); i++ {
		a := args[i].Value
		if len(a) < 2 || a[0] != '-' || strings.Trim(a[1:], "neE") != "" {
			break
		}
		if fr.posix() {
			return "", false
		}
		for _, f := range a[1:] {
			switch f {
			case 'n':
				nl = false
			case 'e':
				esc = true
			case 'E':
				esc = false
			}
		}
	}
	var b strings.Builder
	for j, a := range args[i:] {
		if !a.Literal() {
			return "", false
		}
		if j > 0 {
			b.WriteByte(' ')
		}
		v := a.Value
		if strings.IndexByte(v, '\\') >= 0 && fr.posix() {
			return "", false
		}
		if esc {
			var stop bool
			v, stop = echoEscapes(v)
			b.WriteString(v)
			if stop {
				return b.String(), true
			}
			continue
		}
		b.WriteString(v)
	}
	if nl {
		b.WriteByte('\n')
	}
	return b.String(), true
}

// echoEscapes decodes echo -e escapes; stop is set by \c.
func echoEscapes(s string) (string, bool) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, false
	}
	if i := strings.Index(s, `\c`); i >= 0 {
		v, _ := echoEscapes(s[:i])
		return v, true
	}
	// \0nnn is octal in echo; $'…' takes \nnn. Rewrite then share.
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && s[i+1] == '0' {
			j := i + 2
			for j < len(s) && j < i+5 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint("0"+s[i+2:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
			continue
		}
		b.WriteByte(s[i])
	}
	return ansiC(b.String()), false
}

// printf emulates bash's printf for plain conversions (%s %b %c %d %%);
// anything fancier leaves the output unknown. printf -v assigns instead.
func (fr *frame) printf(c *Command) (assigned bool) {
	args := c.Args
	target := ""
	if len(args) >= 2 && args[0].Value == "-v" {
		target = args[1].Value
		args = args[2:]
	}
	if len(args) > 0 && args[0].Value == "--" {
		args = args[1:]
	}
	out, ok := printfFormat(args)
	if target != "" {
		if !validName(target) {
			fr.st.poisonVars()
			return true
		}
		if ok {
			fr.st.set(target, strVar(out, false))
		} else {
			fr.st.forget(target)
		}
		c.out, c.outKnown = "", true
		return true
	}
	c.out, c.outKnown = out, ok
	return false
}

func printfFormat(args []Word) (string, bool) {
	if len(args) == 0 || !args[0].Literal() {
		return "", false
	}
	format := args[0].Value
	vals := make([]string, 0, len(args)-1)
	for _, a := range args[1:] {
		if !a.Literal() {
			return "", false
		}
		vals = append(vals, a.Value)
	}
	var b strings.Builder
	for {
		used, ok := printfOnce(&b, format, vals)
		if !ok {
			return "", false
		}
		vals = vals[used:]
		if used == 0 || len(vals) == 0 {
			break
		}
	}
	return b.String(), true
}

func printfOnce(b *strings.Builder, format string, vals []string) (int, bool) {
	used := 0
	next := func() string {
		if used < len(vals) {
			used++
			return vals[used-1]
		}
		return ""
	}
	var lit strings.Builder
	flush := func() {
		b.WriteString(ansiC(lit.String()))
		lit.Reset()
	}
	for i := 0; i < len(format); i++ {
		ch := format[i]
		if ch != '%' {
			lit.WriteByte(ch)
			if ch == '\\' && i+1 < len(format) {
				i++
				lit.WriteByte(format[i])
			}
			continue
		}
		if i+1 >= len(format) {
			return 0, false
		}
		i++
		switch format[i] {
		case '%':
			lit.WriteByte('%')
		case 's':
			flush()
			b.WriteString(next())
		case 'b':
			flush()
			v, stop := echoEscapes(next())
			b.WriteString(v)
			if stop {
				return len(vals), true
			}
		case 'c':
			flush()
			if v := next(); v != "" {
				b.WriteByte(v[0])
			}
		case 'd', 'i':
			flush()
			v := next()
			if v == "" {
				v = "0"
			}
			n, err := strconv.ParseInt(v, 0, 64)
			if err != nil {
				return 0, false
			}
			b.WriteString(strconv.FormatInt(n, 10))
		default:
			return 0, false
		}
	}
	flush()
	return used, true
}

func decodeBase64(s string) (string, bool) {
	clean := strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding} {
		if out, err := enc.DecodeString(clean); err == nil {
			return string(out), true
		}
	}
	return "", false
}

func decodeHex(s string) (string, bool) {
	clean := strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
	out, err := hex.DecodeString(clean)
	if err != nil {
		return "", false
	}
	return string(out), true
}

// revLines reverses the characters of each line, as rev does.
func revLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		nl := strings.HasSuffix(l, "\n")
		r := []rune(strings.TrimSuffix(l, "\n"))
		for a, b := 0, len(r)-1; a < b; a, b = a+1, b-1 {
			r[a], r[b] = r[b], r[a]
		}
		lines[i] = string(r)
		if nl {
			lines[i] += "\n"
		}
	}
	return strings.Join(lines, "")
}

// trText emulates tr SET1 SET2 and tr -d SET1 for literal characters and
// ranges (a-z); classes and other options leave the output unknown.
func trText(args []Word, s string) (string, bool) {
	del := false
	var sets []string
	for _, a := range args {
		switch {
		case !a.Literal():
			return "", false
		case a.Value == "-d":
			del = true
		case strings.HasPrefix(a.Value, "-") && len(a.Value) > 1 || strings.Contains(a.Value, "[:"):
			return "", false
		default:
			sets = append(sets, expandTrSet(a.Value))
		}
	}
	switch {
	case del && len(sets) == 1:
		return strings.Map(func(r rune) rune {
			if strings.ContainsRune(sets[0], r) {
				return -1
			}
			return r
		}, s), true
	case !del && len(sets) == 2 && sets[1] != "":
		from, to := []rune(sets[0]), []rune(sets[1])
		return strings.Map(func(r rune) rune {
			for i, f := range from {
				if f == r {
					return to[min(i, len(to)-1)]
				}
			}
			return r
		}, s), true
	}
	return "", false
}

func expandTrSet(s string) string {
	r := []rune(ansiC(s))
	var b strings.Builder
	for i := 0; i < len(r); i++ {
		if i+2 < len(r) && r[i+1] == '-' && r[i] <= r[i+2] {
			for c := r[i]; c <= r[i+2]; c++ {
				b.WriteRune(c)
			}
			i += 2
			continue
		}
		b.WriteRune(r[i])
	}
	return b.String()
}
