package parse

import (
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
		return fr.substPath(got)
	}
	return strings.TrimRight(out, "\n"), true
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
