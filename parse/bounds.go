package parse

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// CheckBounds reports, without parsing, whether script is over the bounds
// Analyze refuses it for (size, NUL bytes, nesting, number of commands).
func CheckBounds(script string) *Error { return checkBounds(script) }

// checkBounds refuses, before any parsing, input the parser should never
// see: too large, holding NUL bytes (bash cannot take them in a script),
// or nested deeper than MaxNesting.
func checkBounds(script string) *Error {
	if len(script) > MaxScript {
		return &Error{Kind: ErrTooLarge, Msg: fmt.Sprintf("script is %d bytes, over the %d-byte bound", len(script), MaxScript)}
	}
	if i := strings.IndexByte(script, 0); i >= 0 {
		return &Error{Kind: ErrInvalid, Pos: offsetPos(script, i), Msg: "script holds a NUL byte"}
	}
	if i := nestingOverflow(script, MaxNesting); i >= 0 {
		return &Error{Kind: ErrTooDeep, Pos: offsetPos(script, i), Msg: fmt.Sprintf("script nests deeper than %d levels", MaxNesting)}
	}
	if e := countCommands(script); e != nil {
		return e
	}
	return nil
}

// countCommands refuses, before parsing, a script with more commands than
// the analysis spends time on, or with a chain of pipes, && and || longer
// than MaxChain: the parser and the walk recurse once per link (a
// 100,000-stage pipeline took 105 s and 5 GB before it was held). The
// count is lexical and cheap; it runs only when the script holds enough
// separators to matter, and skips quoted text, comments and heredoc
// bodies (a markdown table written with <<EOF is text, not a pipeline).
func countCommands(s string) *Error {
	if strings.Count(s, "|")+strings.Count(s, "&")+strings.Count(s, ";")+strings.Count(s, "\n") <= MaxChain {
		return nil
	}
	chain, stmts := 0, 0
	token, pendingOp := false, false
	dq := false
	var pending []heredocDelim
	end := func() {
		if token {
			stmts++
		}
		chain, token, pendingOp = 0, false, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if dq {
			switch c {
			case '\\':
				i++
			case '"':
				dq = false
			}
			continue
		}
		switch c {
		case ' ', '\t':
			continue
		case '\\':
			i++
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil // unterminated: the parser reports it cheaply
			}
			i += j + 1
		case '"':
			dq = true
		case '#':
			if i == 0 || s[i-1] == ' ' || s[i-1] == '\t' || s[i-1] == '\n' || s[i-1] == ';' {
				j := strings.IndexByte(s[i:], '\n')
				if j < 0 {
					i = len(s)
					continue
				}
				i += j - 1
				continue
			}
		case '<':
			if strings.HasPrefix(s[i:], "<<") && !strings.HasPrefix(s[i:], "<<<") {
				if d, e := readHeredocWord(s, i+2); d.word != "" {
					pending = append(pending, d)
					i = e - 1
				}
			}
		case '\n':
			if len(pending) > 0 {
				i = skipHeredocs(s, i, pending)
				pending = pending[:0]
			}
			if !pendingOp {
				end()
			}
			continue
		case ';':
			end()
			continue
		case '|', '&':
			if c == '&' && (i > 0 && (s[i-1] == '>' || s[i-1] == '<') || i+1 < len(s) && s[i+1] == '>') {
				break // a redirection: >&2, &>f
			}
			if c == '&' && (i+1 >= len(s) || s[i+1] != '&') {
				end() // a background job ends a statement
				continue
			}
			if i+1 < len(s) && (s[i+1] == c || c == '|' && s[i+1] == '&') {
				i++
			}
			chain++
			if chain > MaxChain {
				return &Error{Kind: ErrTooMuch, Pos: offsetPos(s, i), Msg: fmt.Sprintf("a chain of more than %d pipes, && and || is more than the guard analyses", MaxChain)}
			}
			pendingOp, token = true, false
			continue
		}
		token, pendingOp = true, false
		if stmts >= MaxCommands {
			return &Error{Kind: ErrTooMuch, Pos: offsetPos(s, i), Msg: fmt.Sprintf("more than %d commands are more than the guard analyses in one command line", MaxCommands)}
		}
	}
	return nil
}

// readHeredocWord reads the delimiter after << at s[j:], quoted or not.
func readHeredocWord(s string, j int) (heredocDelim, int) {
	if d, end, ok := readHeredocDelim(s, j); ok {
		return d, end
	}
	var d heredocDelim
	if j < len(s) && s[j] == '-' {
		d.dash = true
		j++
	}
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	k := j
	for k < len(s) && strings.IndexByte(" \t\n;&|<>()'\"\\", s[k]) < 0 {
		k++
	}
	if k < len(s) && strings.IndexByte("'\"\\", s[k]) >= 0 {
		return heredocDelim{}, j // partly quoted: readHeredocDelim's case
	}
	d.word = s[j:k]
	return d, k
}

// nestingOverflow returns the offset where the nesting of ( $( ${ <( and {
// first exceeds max, or -1. It is a cheap, quote-aware over-approximation
// of the parser's recursion: single-quoted text and parentheses inside
// double quotes (unless they open $( or ${) do not count. Heredoc bodies
// are counted like code, which only errs towards refusing.
func nestingOverflow(s string, max int) int {
	// kinds is a stack of open levels: '(' or '{', with whether the level
	// is inside double quotes. Its size is bounded by max+1.
	type level struct {
		kind byte
		dq   bool
	}
	stack := make([]level, 0, 8)
	dq := false
	var pending []heredocDelim // quoted heredocs opened on this line
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			i++
		case '<':
			if !dq && strings.HasPrefix(s[i:], "<<") && !strings.HasPrefix(s[i:], "<<<") {
				if d, end, ok := readHeredocDelim(s, i+2); ok {
					pending = append(pending, d)
					i = end - 1
				}
			}
		case '\n':
			if len(pending) > 0 && !dq {
				i = skipHeredocs(s, i, pending)
				pending = pending[:0]
			}
		case '\'':
			if !dq {
				j := strings.IndexByte(s[i+1:], '\'')
				if j < 0 {
					return -1 // unterminated: the parser reports it cheaply
				}
				i += j + 1
			}
		case '"':
			dq = !dq
		case '#':
			if !dq && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t' || s[i-1] == '\n') {
				j := strings.IndexByte(s[i:], '\n')
				if j < 0 {
					return -1
				}
				i += j
			}
		case '(', '{':
			dollar := i > 0 && (s[i-1] == '$' || s[i-1] == '<' || s[i-1] == '>')
			if dq && !dollar {
				continue
			}
			stack = append(stack, level{kind: c, dq: dq})
			if len(stack) > max {
				return i
			}
			if dollar {
				dq = false // quotes start afresh inside $( and ${
			}
		case ')', '}':
			if dq {
				continue // literal inside double quotes
			}
			want := byte('(')
			if c == '}' {
				want = '{'
			}
			if n := len(stack); n > 0 && stack[n-1].kind == want {
				dq = stack[n-1].dq
				stack = stack[:n-1]
			}
		}
	}
	return -1
}

// heredocDelim is a heredoc's delimiter, when it is quoted: its body is
// one literal the parser does not look into, so the nesting count skips it
// (a markdown file written with <<'EOF' may hold any number of "(").
// Bodies with an unquoted delimiter are code-like and are counted.
type heredocDelim struct {
	word string
	dash bool
}

// readHeredocDelim reads the delimiter after << at s[j:]; ok only for a
// quoted one.
func readHeredocDelim(s string, j int) (heredocDelim, int, bool) {
	var d heredocDelim
	if j < len(s) && s[j] == '-' {
		d.dash = true
		j++
	}
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	var b strings.Builder
	quoted := false
	for j < len(s) {
		c := s[j]
		switch {
		case c == '\'' || c == '"':
			k := strings.IndexByte(s[j+1:], c)
			if k < 0 {
				return d, j, false
			}
			b.WriteString(s[j+1 : j+1+k])
			j += k + 2
			quoted = true
			continue
		case c == '\\' && j+1 < len(s):
			b.WriteByte(s[j+1])
			j += 2
			quoted = true
			continue
		case strings.IndexByte(" \t\n;&|<>()", c) >= 0:
		default:
			b.WriteByte(c)
			j++
			continue
		}
		break
	}
	d.word = b.String()
	return d, j, quoted && d.word != ""
}

// skipHeredocs returns the index of the newline ending the last body of
// the quoted heredocs opened on the line that ends at s[nl].
func skipHeredocs(s string, nl int, ds []heredocDelim) int {
	pos := nl
	for _, d := range ds {
		for {
			start := pos + 1
			if start > len(s) {
				return len(s)
			}
			end := strings.IndexByte(s[start:], '\n')
			line := s[start:]
			if end >= 0 {
				line = s[start : start+end]
			}
			if d.dash {
				line = strings.TrimLeft(line, "\t")
			}
			if end < 0 {
				return len(s) // closed by the end of input
			}
			pos = start + end
			if line == d.word {
				break
			}
		}
	}
	return pos
}

// offsetPos turns a byte offset of s into a line and column.
func offsetPos(s string, off int) Pos {
	if off > len(s) {
		off = len(s)
	}
	line := 1 + strings.Count(s[:off], "\n")
	col := off + 1
	if j := strings.LastIndexByte(s[:off], '\n'); j >= 0 {
		col = off - j
	}
	return Pos{Line: line, Col: col}
}

// Parsers are reused, one per goroutine at a time: a syntax.Parser is
// reusable sequentially (also after errors) but not concurrently.
var parserPools = [2]sync.Pool{
	{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }},
	{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangPOSIX)) }},
}

// parseScript parses src, turning the parser's errors into an *Error.
// The partial tree that comes with an error is never used.
func parseScript(src string, d Dialect) (*syntax.File, *Error) {
	src = joinDollarContinuations(src)
	src, masked := maskInvalidUTF8(src)
	pool := &parserPools[0]
	if d == POSIX {
		pool = &parserPools[1]
	}
	p := pool.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(src), "")
	// A panic above leaves p out of the pool, which is what we want: its
	// state is unknown.
	pool.Put(p)
	if err != nil {
		return nil, syntaxError(err)
	}
	if masked != nil {
		unmask(f, masked)
	}
	return f, nil
}

// maskInvalidUTF8 replaces each byte that is not valid UTF-8 by a dot,
// one byte for one so offsets hold, and returns their offsets. The
// parser refuses such bytes (even in a comment, which sent
// "#\xff<newline>x=rm; $x -rf ~" to the raw-text fallback); bash takes
// them as ordinary word characters, as it takes a dot (which, unlike a
// letter, never joins a name: "$\xff" stays "$" and a character). After
// parsing, unmask turns each masked character into Unknown: a word
// holding one is judged as partly unknown, never as some other text.
func maskInvalidUTF8(s string) (string, []int) {
	if utf8.ValidString(s) {
		return s, nil
	}
	b := []byte(s)
	var at []int
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			b[i] = '.'
			at = append(at, i)
			i++
			continue
		}
		i += n
	}
	return string(b), at
}

// unmask puts Unknown where the tree's literal text holds a masked byte.
// A literal whose text does not map byte for byte onto its source (a line
// continuation inside it) becomes wholly unknown.
func unmask(f *syntax.File, at []int) {
	fix := func(v string, start, end int) string {
		lo, _ := slices.BinarySearch(at, start)
		if lo == len(at) || at[lo] >= end {
			return v
		}
		if len(v) != end-start {
			return Unknown
		}
		b := []byte(v)
		for _, o := range at[lo:] {
			if o >= end {
				break
			}
			b[o-start] = Unknown[0]
		}
		return string(b)
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Lit:
			n.Value = fix(n.Value, int(n.Pos().Offset()), int(n.End().Offset()))
		case *syntax.SglQuoted:
			start := int(n.Pos().Offset()) + 1
			if n.Dollar {
				start++
			}
			n.Value = fix(n.Value, start, int(n.End().Offset())-1)
		}
		return true
	})
}

func syntaxError(err error) *Error {
	var pe syntax.ParseError
	var le syntax.LangError
	switch {
	case errors.As(err, &pe):
		return &Error{Kind: ErrSyntax, Pos: Pos{Line: int(pe.Pos.Line()), Col: int(pe.Pos.Col())}, Msg: pe.Text, Incomplete: pe.Incomplete}
	case errors.As(err, &le):
		return &Error{Kind: ErrSyntax, Pos: Pos{Line: int(le.Pos.Line()), Col: int(le.Pos.Col())}, Msg: langErrorText(le)}
	}
	return &Error{Kind: ErrSyntax, Msg: err.Error()}
}

// langErrorText is the LangError message without the file name prefix.
func langErrorText(le syntax.LangError) string {
	msg := le.Error()
	if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, fmt.Sprintf("%d:%d", le.Pos.Line(), le.Pos.Col())) {
		return msg[i+2:]
	}
	return msg
}

// joinDollarContinuations removes the line continuations that follow a $.
// bash removes every backslash-newline before it reads words, so
// "$\<newline>$0" is $$ then 0; the parser keeps $ literal there ("$" then
// $0). Continuations elsewhere it handles as bash does. Single-quoted text
// and quoted heredoc bodies, where a backslash-newline is data, are left
// alone. Line numbers after such a spot shift by one.
func joinDollarContinuations(s string) string {
	if !strings.Contains(s, "$\\\n") {
		return s
	}
	var b strings.Builder
	dq := false
	var pending []heredocDelim
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			b.WriteByte(c)
			b.WriteByte(s[i+1])
			i++
			continue
		case c == '\'' && !dq:
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				b.WriteString(s[i:])
				return b.String()
			}
			b.WriteString(s[i : i+j+2])
			i += j + 1
			continue
		case c == '"':
			dq = !dq
		case c == '<' && !dq && strings.HasPrefix(s[i:], "<<") && !strings.HasPrefix(s[i:], "<<<"):
			if d, end, ok := readHeredocDelim(s, i+2); ok {
				pending = append(pending, d)
				b.WriteString(s[i:end])
				i = end - 1
				continue
			}
		case c == '\n' && len(pending) > 0 && !dq:
			end := skipHeredocs(s, i, pending)
			pending = pending[:0]
			b.WriteString(s[i:min(end+1, len(s))])
			i = end
			continue
		case c == '$':
			b.WriteByte(c)
			for strings.HasPrefix(s[i+1:], "\\\n") {
				i += 2
			}
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
