package parse

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// redirects evaluates the redirections of a statement. It returns them
// resolved, and the standard input they give the command (the last
// redirection of fd 0 wins, as in bash), or nil when they leave it alone.
func (fr *frame) redirects(rs []*syntax.Redirect, e *evaluator) ([]Redirect, *Input) {
	if len(rs) == 0 {
		return nil, nil
	}
	out := make([]Redirect, 0, len(rs))
	var in *Input
	for _, r := range rs {
		red, input := fr.redirect(r, e)
		out = append(out, red)
		if input != nil {
			in = input
		}
	}
	return out, in
}

func (fr *frame) redirect(r *syntax.Redirect, e *evaluator) (Redirect, *Input) {
	red := Redirect{Op: RedirOp(r.Op.String()), Pos: fr.pos.of(r.OpPos), Fd: defaultFd(r.Op)}
	if r.N != nil {
		if n, err := strconv.Atoi(r.N.Value); err == nil {
			red.Fd = n
		} else {
			red.Fd = -1 // {var}>file: a new descriptor
		}
	}
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		return red, fr.heredocInput(r, red.Fd)
	case syntax.WordHdoc:
		nf := len(e.feeders)
		w, _ := fr.singleIn(r.Word, e)
		red.Target = w
		if red.Fd != 0 {
			return red, nil
		}
		return red, &Input{Kind: InputHereString, Text: w.Value + "\n", Known: !w.Dynamic, Pos: w.Pos, upstream: e.feeders[nf:]}
	}
	nf := len(e.feeders)
	w, _ := fr.singleIn(r.Word, e)
	red.Target = w
	switch r.Op {
	case syntax.RdrOut, syntax.RdrClob, syntax.RdrAll:
		red.Write = true
	case syntax.AppOut, syntax.AppAll:
		red.Write, red.Append = true, true
	case syntax.RdrIn:
		red.Read = true
	case syntax.RdrInOut:
		red.Read, red.Write = true, true
	case syntax.DplOut, syntax.DplIn:
		if isFdWord(w.Value) || w.Dynamic {
			return red, nil // a duplication: no file
		}
		// ">&file" with no fd number is "&>file" (bash).
		if r.Op == syntax.DplOut && r.N == nil {
			red.Write = true
		} else {
			return red, nil
		}
	}
	if w.Literal() {
		red.Path = resolvePath(fr.st.dir, w.Value)
	}
	red.Pipe = isProcSubstWord(r.Word)
	if red.Fd == 0 && red.Read {
		if isProcSubstWord(r.Word) {
			feeders := e.feeders[nf:]
			in := &Input{Kind: InputProcSubst, Pos: w.Pos, upstream: feeders}
			if len(feeders) > 0 {
				in.From = feeders[len(feeders)-1]
				// What < <(printf …) reads is what its commands
				// print, when that is known.
				in.Text, in.Known = outputOf(feeders)
			}
			return red, in
		}
		in := &Input{Kind: InputFile, Path: red.Path, Pos: w.Pos}
		if w := fr.r.files[red.Path]; red.Path != "" && w != nil && w.known {
			// A file this line wrote: what it reads is known (psql < d.sql).
			in.Text, in.Known = w.text, true
		}
		return red, in
	}
	return red, nil
}

// singleIn expands a word without splitting, with the feeders going to e.
func (fr *frame) singleIn(w *syntax.Word, e *evaluator) (Word, []*Command) {
	wd, feeders := fr.single(w, false)
	e.feeders = append(e.feeders, feeders...)
	return wd, feeders
}

func defaultFd(op syntax.RedirOperator) int {
	switch op {
	case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return 0
	}
	return 1
}

func isFdWord(s string) bool {
	if s == "-" {
		return true
	}
	s = strings.TrimSuffix(s, "-") // 2>&1- moves the descriptor
	_, err := strconv.Atoi(s)
	return err == nil
}

func isProcSubstWord(w *syntax.Word) bool {
	if w == nil || len(w.Parts) != 1 {
		return false
	}
	_, ok := w.Parts[0].(*syntax.ProcSubst)
	return ok
}

// procSubstOutput returns what the commands of a process substitution
// print, when the word is one (<(…)) and their output is known data:
// "bash <(echo 'rm -rf /')" runs that text as "echo 'rm -rf /' | bash"
// does. The writer is always nil (the text is not a file's).
func procSubstOutput(a arg) (string, bool, *Command) {
	if a.syn == nil || !isProcSubstWord(a.syn) || len(a.feeders) == 0 {
		return "", false, nil
	}
	text, ok := outputOf(a.feeders)
	return text, ok, nil
}

// heredocInput evaluates a heredoc body. With a quoted delimiter the body
// is one literal; unquoted, its expansions are live and its command
// substitutions run. <<- strips leading tabs (the parser keeps them).
func (fr *frame) heredocInput(r *syntax.Redirect, fd int) *Input {
	if r.Hdoc == nil {
		return nil
	}
	in := &Input{Kind: InputHeredoc, Pos: fr.pos.of(r.Hdoc.Pos())}
	if quotedDelim(r.Word) {
		in.Text = r.Hdoc.Lit()
		if in.Text == "" && len(r.Hdoc.Parts) > 0 {
			in.Text = litText(r.Hdoc)
		}
		in.verbatim = r.Op == syntax.Hdoc && fr.pos.exact
	} else {
		text, feeders := fr.document(r.Hdoc)
		in.Text, in.upstream = text, feeders
		in.verbatim = r.Op == syntax.Hdoc && fr.pos.exact && plainHeredoc(r.Hdoc)
	}
	if r.Op == syntax.DashHdoc {
		in.Text = stripTabs(in.Text)
	}
	in.Known = !hasUnknown(in.Text)
	if fd != 0 {
		return nil
	}
	return in
}

func litText(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			b.WriteString(l.Value)
		}
	}
	return b.String()
}

// plainHeredoc reports whether an unquoted heredoc body is only literal
// text without backslashes, so that it reads as written.
func plainHeredoc(w *syntax.Word) bool {
	for _, p := range w.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok || strings.IndexByte(l.Value, '\\') >= 0 {
			return false
		}
	}
	return true
}

// quotedDelim reports whether a heredoc delimiter has any quoting, which
// makes the body literal.
func quotedDelim(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.IndexByte(p.Value, '\\') >= 0 {
				return true
			}
		}
	}
	return false
}

func stripTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, "\t")
	}
	return strings.Join(lines, "")
}
