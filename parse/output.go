package parse

import (
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
	sub := fr.substFrame(InCmdSubst)
	got := sub.walkCollect(cs.Stmts)
	e.feeders = append(e.feeders, got...)
	if path, ok := readSubst(cs, got); ok {
		// $(<file) is the file's contents: bash reads it without a
		// command (an empty literal was a wrong known value).
		text, known := fr.readData(sub.st.dir, path)
		if !known {
			return "", false
		}
		return strings.TrimRight(text, "\n"), true
	}
	out, known := outputOf(got)
	if !known {
		return fr.substPath(got)
	}
	return strings.TrimRight(out, "\n"), true
}

// readSubst reports a substitution $(<file): one statement of only an
// input redirection. It returns the file's path, "" when it is not known.
func readSubst(cs *syntax.CmdSubst, got []*Command) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	s := cs.Stmts[0]
	if s.Cmd != nil || len(s.Redirs) != 1 || s.Redirs[0].Op != syntax.RdrIn || s.Negated || s.Background || s.Coprocess {
		return "", false
	}
	if len(got) != 1 || len(got[0].Redirs) == 0 {
		return "", true
	}
	r := got[0].Redirs[len(got[0].Redirs)-1]
	if r.Path == "" || r.Op != "<" {
		return "", true
	}
	return r.Path, true
}

// procSubst analyses a process substitution; its value is a /dev/fd path.
func (fr *frame) procSubst(ps *syntax.ProcSubst, e *evaluator) []*Command {
	e.subst = true
	got := fr.substFrame(InProcSubst).walkCollect(ps.Stmts)
	e.feeders = append(e.feeders, got...)
	if ps.Op == syntax.CmdOut {
		fr.addChannels(got)
	}
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
		if c.Name == "cat" && fr.catFiles(c) {
			return
		}
		if files := operands(c.Args); len(files) == 0 || len(files) == 1 && files[0].Value == "-" || c.Name == "tee" {
			c.out, c.outKnown = stdinText(c)
			if c.outKnown && c.Stdin.verbatim {
				c.outFrom = c.Stdin // the text is a slice of the script
			}
		}
	case "dirname", "basename":
		c.out, c.outKnown = pathParts(c.Name, c.Args)
	case "base64":
		if hasFlag(c.Args, "-d", "--decode", "-di", "-id") {
			if t, ok := stdinText(c); ok {
				c.out, c.outKnown = decodeBase64(t)
			}
		}
	case "head", "tail":
		c.out, c.outKnown = headTail(c)
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

// catFiles works out what cat prints of files named by literal operands
// (no options): their contents, read as source reads a file, or the
// text the line wrote there. It reports whether it applied.
func (fr *frame) catFiles(c *Command) bool {
	ops := operands(c.Args)
	if len(ops) == 0 || len(ops) != len(c.Args) {
		return false
	}
	// The texts are joined only when there are several: cat of one
	// file (a program copied by cat /bin/rm > x) is that file's text,
	// not a second copy of it.
	texts := make([]string, 0, len(ops))
	size := 0
	for _, w := range ops {
		if !w.Literal() {
			return true // unknown
		}
		if w.Value == "-" {
			t, ok := stdinText(c)
			if !ok {
				return true
			}
			texts, size = append(texts, t), size+len(t)
			continue
		}
		text, ok := fr.readData(c.Dir, w.Value)
		if !ok || size+len(text) > MaxScript {
			return true
		}
		texts, size = append(texts, text), size+len(text)
	}
	c.out, c.outKnown = strings.Join(texts, ""), true
	return true
}

// pathParts is what dirname or basename prints for literal operands, as
// GNU coreutils does; options other than basename's -a, -s and -z, and
// names starting with //, are not modelled.
func pathParts(name string, args []Word) (string, bool) {
	var names []string
	suffix, multi := "", name == "dirname"
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Literal() {
			return "", false
		}
		v := a.Value
		switch {
		case len(names) == 0 && name == "basename" && (v == "-a" || v == "--multiple"):
			multi = true
		case len(names) == 0 && name == "basename" && (v == "-s" || v == "--suffix") && i+1 < len(args) && args[i+1].Literal():
			suffix, multi = args[i+1].Value, true
			i++
		case len(names) == 0 && name == "basename" && strings.HasPrefix(v, "--suffix="):
			suffix, multi = strings.TrimPrefix(v, "--suffix="), true
		case v == "--" && len(names) == 0:
			names = append(names[:0:0], operandsAfter(args[i+1:])...)
			i = len(args)
		case strings.HasPrefix(v, "-") && v != "-" && len(names) == 0:
			return "", false
		default:
			names = append(names, v)
		}
	}
	if !multi && name == "basename" && len(names) == 2 {
		suffix, names = names[1], names[:1]
	}
	if len(names) == 0 || !multi && len(names) > 1 {
		return "", false
	}
	var b strings.Builder
	for _, n := range names {
		if strings.HasPrefix(n, "//") || hasUnknown(n) {
			return "", false
		}
		if name == "dirname" {
			b.WriteString(dirName(n))
		} else {
			b.WriteString(baseName(n, suffix))
		}
		b.WriteByte('\n')
	}
	return b.String(), true
}

func operandsAfter(ws []Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Value
	}
	return out
}

// dirName is dirname(1) of p.
func dirName(p string) string {
	p = strings.TrimRight(p, "/")
	if p == "" {
		return "/"
	}
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "."
	}
	p = strings.TrimRight(p[:i], "/")
	if p == "" {
		return "/"
	}
	return p
}

// baseName is basename(1) of p with suffix removed.
func baseName(p, suffix string) string {
	t := strings.TrimRight(p, "/")
	if t == "" {
		if p == "" {
			return ""
		}
		return "/"
	}
	if i := strings.LastIndexByte(t, '/'); i >= 0 {
		t = t[i+1:]
	}
	if suffix != "" && t != suffix {
		t = strings.TrimSuffix(t, suffix)
	}
	return t
}

// maxYes bounds the lines of yes's output worked out for head.
const maxYes = 1000

// yesLine is the line yes prints: its operands joined by spaces, or "y".
func yesLine(c *Command) (string, bool) {
	if c == nil || c.Name != "yes" || len(c.Wrappers) > 0 || redirectsStdout(c.Redirs) {
		return "", false
	}
	var ws []string
	opts := true
	for _, a := range c.Args {
		if !a.Literal() || hasUnknown(a.Value) {
			return "", false
		}
		switch {
		case opts && a.Value == "--":
			opts = false
			continue
		case opts && len(a.Value) > 1 && a.Value[0] == '-':
			return "", false // GNU yes takes options anywhere (and has none but --help, --version)
		}
		ws = append(ws, a.Value)
	}
	if len(ws) == 0 {
		return "y", true
	}
	return strings.Join(ws, " "), true
}

// headTail is what head or tail prints of a known input, as GNU coreutils
// does for -n N, -N, -c N (tail also +N, head also -n -N); yes piped into
// head gives its first lines. Other options and file operands are unknown.
func headTail(c *Command) (string, bool) {
	lines, n, from, allBut := true, 10, false, false
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if !a.Literal() {
			return "", false
		}
		v := a.Value
		val := ""
		switch {
		case v == "-n" || v == "-c" || v == "--lines" || v == "--bytes":
			if i+1 >= len(c.Args) || !c.Args[i+1].Literal() {
				return "", false
			}
			lines = v == "-n" || v == "--lines"
			i++
			val = c.Args[i].Value
		case strings.HasPrefix(v, "--lines=") || strings.HasPrefix(v, "--bytes="):
			lines = strings.HasPrefix(v, "--lines=")
			val = v[len("--lines="):]
		case len(v) > 2 && (v[:2] == "-n" || v[:2] == "-c"):
			lines = v[1] == 'n'
			val = v[2:]
		case len(v) > 1 && v[0] == '-' && isDigits(v[1:]):
			val = v[1:]
		default:
			return "", false // an operand, or an option not modelled
		}
		switch {
		case c.Name == "tail" && strings.HasPrefix(val, "+"):
			from, val = true, val[1:]
		case c.Name == "head" && strings.HasPrefix(val, "-"):
			allBut, val = true, val[1:]
		}
		if !isDigits(val) || len(val) > 6 {
			return "", false // suffixes (1K) and huge counts are not modelled
		}
		n, _ = strconv.Atoi(val)
	}
	if line, ok := yesLine(inputFrom(c)); ok && c.Name == "head" && !allBut {
		if !lines {
			return "", false
		}
		return strings.Repeat(line+"\n", min(n, maxYes)), n <= maxYes
	}
	text, ok := stdinText(c)
	if !ok || hasUnknown(text) {
		return "", false
	}
	if !lines {
		switch {
		case c.Name == "head" && allBut:
			return text[:max(0, len(text)-n)], true
		case c.Name == "head":
			return text[:min(n, len(text))], true
		case from:
			return text[min(max(n-1, 0), len(text)):], true
		}
		return text[max(0, len(text)-n):], true
	}
	ls := strings.SplitAfter(text, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	switch {
	case c.Name == "head" && allBut:
		ls = ls[:max(0, len(ls)-n)]
	case c.Name == "head":
		ls = ls[:min(n, len(ls))]
	case from:
		ls = ls[min(max(n-1, 0), len(ls)):]
	default:
		ls = ls[max(0, len(ls)-n):]
	}
	return strings.Join(ls, ""), true
}

// inputFrom is the command whose output is c's standard input through a
// pipe, or nil.
func inputFrom(c *Command) *Command {
	if c.Stdin == nil || c.Stdin.Kind != InputPipe {
		return nil
	}
	return c.Stdin.From
}
