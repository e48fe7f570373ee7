package parse

import (
	"strings"

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
func canonical(f *syntax.File, d Dialect) string {
	lang := syntax.LangBash
	if d == POSIX {
		lang = syntax.LangPOSIX
	}
	skip := map[*syntax.Word]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Redirect:
			if n.Op == syntax.Hdoc || n.Op == syntax.DashHdoc {
				skip[n.Word] = true
				if n.Hdoc != nil {
					skip[n.Hdoc] = true
				}
			}
		case *syntax.BinaryTest:
			if n.Op == syntax.TsReMatch {
				if w, ok := n.Y.(*syntax.Word); ok {
					skip[w] = true
				}
			}
		case *syntax.Word:
			if !skip[n] {
				normalizeWord(n, lang)
			}
		}
		return true
	})
	var b strings.Builder
	syntax.NewPrinter(syntax.Minify(true)).Print(&b, f)
	return strings.TrimSuffix(b.String(), "\n")
}

// normalizeWord rewrites a fully literal word to canonical quoting.
func normalizeWord(w *syntax.Word, lang syntax.LangVariant) {
	if len(w.Parts) == 0 {
		return
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
	if !quoted && len(w.Parts) == 1 {
		return // already a plain literal
	}
	q, err := syntax.Quote(b.String(), lang)
	if err != nil {
		return
	}
	w.Parts = []syntax.WordPart{&syntax.Lit{ValuePos: w.Pos(), ValueEnd: w.End(), Value: q}}
}

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
