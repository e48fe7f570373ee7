package parse

import (
	"strings"
	"sync"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// canonical prints the script back in a canonical form, the loop-brake
// fingerprint: whitespace, comments and the quoting style of literal words
// do not matter ("echo  'a b'" and "echo "a b"" print the same), the words
// do. Literal words are rewritten to one quoting (syntax.Quote's) before
// the tree is printed minified; words whose quoting means something are
// left alone: those with live pattern, brace or tilde characters, heredoc
// delimiters and bodies, and =~ patterns. The tree is changed in place:
// call it only when the analysis is done with it.
func canonical(f *syntax.File, src string, d Dialect) string {
	if plainScript(src) {
		return src // what the printer would print (TestPlainScriptCanonical)
	}
	return printCanonical(f, src, d)
}

// plainScript reports whether src is one simple command of plain words
// (letters, digits and characters with no meaning to the shell, one space
// apart, no keyword): half the command lines agents send ("git status",
// "go test ./..."), whose canonical form is their text. Walking and
// printing the tree to find that out was a tenth of their analysis.
func plainScript(src string) bool {
	if src == "" || src[0] == ' ' || src[len(src)-1] == ' ' {
		return false
	}
	start := 0
	for i := 0; i <= len(src); i++ {
		if i < len(src) && src[i] != ' ' {
			if !plainByte(src[i]) || src[i] == '~' && i == start {
				return false
			}
			continue
		}
		if i == start || isReserved(src[start:i]) {
			return false // two spaces, or a keyword
		}
		start = i + 1
	}
	return true
}

// plainByte reports whether c means nothing to the shell in a word (~
// does at the start of one).
func plainByte(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("._/:=,+@%^~-", c) >= 0
}

// printCanonical is canonical's general case: the tree normalized and
// printed.
func printCanonical(f *syntax.File, src string, d Dialect) string {
	lang := syntax.LangBash
	if d == POSIX {
		lang = syntax.LangPOSIX
	}
	// What the walk finds, in one variable: the closure shares it, and
	// each variable a closure shares is an allocation of its own.
	var c struct {
		skip                                        wordSet
		emptyLastArm, heredoc, raw, verify, mangled bool
		inBackquotes                                int
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if n.Background || n.Coprocess {
				// After a "&" the printer may leave out the separator the
				// next keyword needs: "if a;then if b;then c&fi elif …"
				// prints "…c&fielif" (v3.14.1). Check the reprint.
				c.verify = true
			}
			if _, ok := n.Cmd.(*syntax.LetClause); ok {
				// "let x &" and "let x && y" print as "let x&" and
				// "let x&&y", which are arithmetic: keep the raw text.
				c.raw = true
			}
		case *syntax.FuncDecl:
			if n.Name == nil || !plainFuncName(n.Name.Value) {
				// "( ()x )" prints as "(()x)", an arithmetic command;
				// "= ()x" as "=()x", a zsh substitution.
				c.verify = true
			}
		case *syntax.Block:
			if k := len(n.Stmts); k > 0 && (n.Stmts[k-1].Background || n.Stmts[k-1].Coprocess || len(n.Stmts[k-1].Redirs) > 0) {
				// "{ a&done<0 }" prints as "…done <0}": the } joins the
				// redirect's word (v3.14.1).
				c.verify = true
			}
		case *syntax.CaseClause:
			if k := len(n.Items); k > 0 && len(n.Items[k-1].Stmts) == 0 {
				c.emptyLastArm = true
			}
		case *syntax.Redirect:
			if n.Op == syntax.Hdoc || n.Op == syntax.DashHdoc {
				c.heredoc = true
				if n.Word == nil || delimText(n.Word) == "" || c.inBackquotes > 0 {
					// An empty delimiter, or a heredoc in `…`: the printer
					// may close it wrongly. Check the reprint.
					c.verify = true
				}
				c.skip.add(n.Word)
				if n.Hdoc != nil {
					c.skip.add(n.Hdoc)
				}
			}
		case *syntax.UnaryArithm:
			// Minified, "0+ +0" prints as "0++0": keep the raw text.
			c.raw = true
		case *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.LetClause, *syntax.CStyleLoop:
			skipWords(n, &c.skip) // in arithmetic, quoting and escapes mean something else
		case *syntax.TestClause:
			// In [[ … ]] a quoted word that reads like an operator is a
			// string only while quoted: [[ -a"" ]] tests the string "-a",
			// [[ -a ]] does not parse.
			skipWords(n, &c.skip)
		case *syntax.ParamExp:
			// Inside ${…} quoting is contextual ("${x#"}"}"): leave it.
			if n.Exp != nil && n.Exp.Word != nil {
				skipWords(n.Exp.Word, &c.skip)
			}
			if n.Repl != nil {
				if n.Repl.Orig != nil {
					skipWords(n.Repl.Orig, &c.skip)
				}
				if n.Repl.With != nil {
					skipWords(n.Repl.With, &c.skip)
				}
			}
			if n.Index != nil {
				skipWords(n.Index, &c.skip)
			}
			if n.Slice != nil {
				if n.Slice.Offset != nil {
					skipWords(n.Slice.Offset, &c.skip)
				}
				if n.Slice.Length != nil {
					skipWords(n.Slice.Length, &c.skip)
				}
			}
		case *syntax.Assign:
			if n.Index != nil {
				skipWords(n.Index, &c.skip)
			}
		case *syntax.ArrayElem:
			if n.Index != nil {
				skipWords(n.Index, &c.skip)
			}
		case *syntax.BinaryTest:
			if n.Op == syntax.TsReMatch {
				if w, ok := n.Y.(*syntax.Word); ok {
					c.skip.add(w)
				}
			}
		case *syntax.Word:
			for i, p := range n.Parts {
				if _, ok := p.(*syntax.ProcSubst); ok && i > 0 {
					// The printer may put a space before it ("<0<(x)" and
					// "<(a)<(b)" print split): keep the raw text.
					c.raw = true
				}
			}
			fixDollarBackquote(n.Parts)
			if !c.skip[n] {
				normalizeWord(n, lang)
			}
		case *syntax.DblQuoted:
			fixDollarBackquote(n.Parts)
		case *syntax.Lit:
			// Walk visits a word's parts after the word, so this is the
			// literal as it will print, normalized or not.
			c.mangled = c.mangled || tabwriterMangles(n.Value)
		case *syntax.SglQuoted:
			c.mangled = c.mangled || tabwriterMangles(n.Value)
		case *syntax.CmdSubst:
			if n.Backquotes {
				c.inBackquotes++ // an over-count is harmless: it only makes verify likelier
			}
			// bash 5.3's ${ cmd; } and ${| cmd; } (the printer garbles an
			// empty one as "${;}") print as $(cmd): the analysis treats
			// them alike.
			n.TempFile, n.ReplyVar = false, false
		}
		return true
	})
	if c.raw {
		return src
	}
	// The shield's runes all start with the byte 0xee: most scripts hold
	// none, and ContainsAny over runes is slow.
	if strings.IndexByte(src, 0xee) >= 0 && strings.ContainsAny(src, "\ue00b\ue00c\ue0ff") {
		return src // the shield's runes are in use
	}
	shielded := c.mangled && shieldTabwriter(f)
	var b strings.Builder
	p := printers.Get().(*syntax.Printer)
	p.Print(&b, f)
	printers.Put(p) // not reached after a panic: the printer's state is unknown
	out := b.String()
	if !c.heredoc {
		out = strings.TrimSuffix(out, "\n") // a heredoc may end at that newline
	}
	if shielded {
		out = unshield.Replace(out)
	}
	if c.verify {
		// After "{ a & }" ending another block the printer (v3.14.1)
		// prints "&}}", which does not parse: check, and keep the raw
		// text if so.
		if _, err := parseScript(out, d); err != nil {
			return src
		}
	}
	if c.emptyLastArm {
		// The minifying printer (v3.14.1) drops the ;; of an empty last
		// arm and prints "case x in a);esac", which does not parse.
		out = strings.ReplaceAll(out, ");esac", ");;esac")
	}
	return out
}

// normalizeWord rewrites a fully literal word to canonical quoting.
func normalizeWord(w *syntax.Word, lang syntax.LangVariant) {
	if len(w.Parts) == 0 {
		return
	}
	if l, ok := w.Parts[0].(*syntax.Lit); ok && len(w.Parts) == 1 && strings.IndexByte(l.Value, '\\') < 0 && !oddSpace(l.Value) {
		// Most words: one literal with nothing quoted. Every path below
		// leaves it as it is, so skip them (they build two strings).
		return
	}
	if l, ok := w.Parts[0].(*syntax.Lit); ok && assignLike(l.Value) {
		// NAME=… unquoted may be read as an assignment (after an alias
		// expands, or for env); quoting it would make it a word.
		return
	}
	if hiddenParam(w.Parts) {
		return // "$\<newline>!": bash expands it, the parser saw literals
	}
	var b strings.Builder
	quoted := false
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			for j := 0; j < len(v); j++ {
				c := v[j]
				switch {
				case c == '\\' && j+1 < len(v):
					j++
					b.WriteByte(v[j])
					quoted = true
				case strings.IndexByte("*?[]{}", c) >= 0, c == '~' && i == 0 && j == 0:
					return // live pattern, brace or tilde
				default:
					b.WriteByte(c)
				}
			}
		case *syntax.SglQuoted:
			quoted = true
			if p.Dollar {
				b.WriteString(ansiC(p.Value))
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			quoted = true
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return
				}
				var e evaluator
				e.lit(l.Value, dquoted, false, true)
				b.Write(e.cur.b)
			}
		default:
			return
		}
	}
	if !quoted && len(w.Parts) == 1 && !oddSpace(b.String()) {
		return // already a plain literal
	}
	if isReserved(b.String()) {
		return // "exp""ort" is a command, export a keyword: the quotes matter
	}
	q, err := syntax.Quote(b.String(), lang)
	if err != nil {
		return
	}
	w.Parts = []syntax.WordPart{&syntax.Lit{ValuePos: w.Pos(), ValueEnd: w.End(), Value: q}}
}

// printers are reused: a Printer allocates its buffers when made.
var printers = sync.Pool{New: func() any { return syntax.NewPrinter(syntax.Minify(true)) }}

// quoteWord quotes s for a command line, when it needs quoting.
func quoteWord(s string, d Dialect) string {
	lang := syntax.LangBash
	if d == POSIX {
		lang = syntax.LangPOSIX
	}
	q, err := syntax.Quote(s, lang)
	if err != nil {
		return s
	}
	return q
}

// oddSpace reports whether s holds a character the printer treats as
// space though the shell does not (\v, \f, \r, U+00A0 …): printed bare,
// a word made of them is lost, so such words are quoted.
func oddSpace(s string) bool {
	for _, r := range s {
		if r != ' ' && r != '\t' && r != '\n' && unicode.IsSpace(r) {
			return true
		}
	}
	return false
}

// The printer writes through a text/tabwriter, for which \v and \f end
// cells and \xff escapes: literal text holding them is mangled ("*\v"
// prints as "* "). They are swapped for private-use runes while printing.
var (
	shield   = strings.NewReplacer("\v", "\ue00b", "\f", "\ue00c", "\xff", "\ue0ff")
	unshield = strings.NewReplacer("\ue00b", "\v", "\ue00c", "\f", "\ue0ff", "\xff")
)

// tabwriterMangles reports whether literal text holds a character the
// tabwriter mangles.
func tabwriterMangles(s string) bool { return strings.ContainsAny(s, "\v\f\xff") }

// shieldTabwriter swaps the characters the tabwriter mangles in every
// literal of the tree; it reports whether it did. canonical calls it only
// when its own walk saw such a literal: a second walk of every tree cost
// a sixth of the canonical form.
func shieldTabwriter(f *syntax.File) bool {
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Lit:
			if tabwriterMangles(n.Value) {
				n.Value, found = shield.Replace(n.Value), true
			}
		case *syntax.SglQuoted:
			if tabwriterMangles(n.Value) {
				n.Value, found = shield.Replace(n.Value), true
			}
		}
		return true
	})
	return found
}

// fixDollarBackquote escapes a literal $ before a backquoted substitution:
// the printer turns `cmd` into $(cmd), and "$`cmd`" would print as
// "$$(cmd)", which is $$ followed by a function declaration.
func fixDollarBackquote(parts []syntax.WordPart) {
	for i := 0; i+1 < len(parts); i++ {
		l, ok := parts[i].(*syntax.Lit)
		cs, ok2 := parts[i+1].(*syntax.CmdSubst)
		if !ok || !ok2 || !cs.Backquotes || !strings.HasSuffix(l.Value, "$") {
			continue
		}
		bs := 0
		for j := len(l.Value) - 2; j >= 0 && l.Value[j] == '\\'; j-- {
			bs++
		}
		if bs%2 == 0 {
			l.Value = l.Value[:len(l.Value)-1] + `\$`
		}
	}
}

// wordSet is a set of words, made on first use: most trees need none.
type wordSet map[*syntax.Word]bool

func (s *wordSet) add(w *syntax.Word) {
	if *s == nil {
		*s = wordSet{}
	}
	(*s)[w] = true
}

func skipWords(n syntax.Node, skip *wordSet) {
	syntax.Walk(n, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.Word); ok {
			skip.add(w)
		}
		return true
	})
}

// hiddenParam reports whether literal parts, joined, hold $ and a special
// parameter character: the parts of a line-continued "$\<newline>*".
func hiddenParam(parts []syntax.WordPart) bool {
	var b strings.Builder
	for i, p := range parts {
		if l, ok := p.(*syntax.Lit); ok && i+1 < len(parts) && dollarEnd(l.Value) {
			if _, ok := parts[i+1].(*syntax.ParamExp); ok {
				return true
			}
		}
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if hiddenParam(p.Parts) {
				return true
			}
			b.WriteByte(' ')
		default:
			b.WriteByte(' ')
		}
	}
	s := b.String()
	for i := 0; i+1 < len(s); i++ {
		if c := s[i+1]; s[i] == '$' && (strings.IndexByte(specialParams, c) >= 0 || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return true
		}
	}
	return false
}

// isReserved reports whether the parser reads w as a keyword when unquoted.
func isReserved(w string) bool {
	switch w {
	case "if", "then", "else", "elif", "fi", "do", "done",
		"case", "esac", "while", "until", "for", "in",
		"function", "select", "time", "coproc", "{", "}",
		"[[", "]]", "!", "export", "declare", "local",
		"readonly", "typeset", "nameref", "let":
		return true
	}
	return false
}

// assignLike reports whether text starts like an assignment: NAME= or
// NAME+=.
func assignLike(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	return ok && validName(strings.TrimSuffix(name, "+"))
}

// delimText is a heredoc delimiter's text after quote removal.
func delimText(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(strings.ReplaceAll(p.Value, "\\", ""))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				} else {
					b.WriteByte('$')
				}
			}
		default:
			b.WriteByte('$')
		}
	}
	return b.String()
}

// plainFuncName reports whether a function name prints safely before "()".
func plainFuncName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '-' || c == '.' || c == ':' || c == '/' || c == '+' || c == '@' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
