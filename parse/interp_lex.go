package parse

import (
	"strconv"
	"strings"
)

// A small tokenizer per interpreter family: enough to tell string
// literals (with each language's quoting: Python triple quotes, r- and
// f-strings, JS template literals, Perl q{} qq{} qx{}, Ruby %x{} #{…})
// from comments and code, so that a process API call is found only in
// code and a print of the same text stays data. Interpolated holes are
// Unknown.

type tokKind uint8

const (
	tIdent tokKind = iota // a name, with its sigil in Perl/PHP ($x)
	tStr                  // a string literal: s is its value
	tCmd                  // a command literal run by the shell: `…`, qx{…}, %x{…}
	tWords                // a word list: qw(…), %w(…)
	tPunct                // one punctuation character (or "=>", "..", "==")
	tNum
)

type tok struct {
	kind  tokKind
	s     string
	words []string
	nl    bool // a newline came before it: Ruby's call without parentheses ends there
}

type langID uint8

const (
	langPython langID = iota
	langJS
	langPerl
	langRuby
	langPHP
	langLua
	langAppleScript
	langAwk
	langR // lexed as Python: the same strings and comments
)

// maxTokens bounds the tokens read from one program.
const maxTokens = 200000

// lexer holds the scan position in src.
type lexer struct {
	src  string
	i    int
	lang langID
	toks []tok
	nl   bool // a newline since the last token
}

func tokenize(src string, lang langID) []tok {
	if lang == langR {
		lang = langPython
	}
	lx := &lexer{src: src, lang: lang}
	for lx.i < len(lx.src) && len(lx.toks) < maxTokens {
		lx.next()
	}
	return lx.toks
}

func (lx *lexer) emit(k tokKind, s string) {
	lx.toks = append(lx.toks, tok{kind: k, s: s, nl: lx.nl})
	lx.nl = false
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
func isIdentChar(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// prevSignificant returns the last token, for the regex-or-division guess.
func (lx *lexer) prevAllowsRegex() bool {
	if len(lx.toks) == 0 {
		return true
	}
	t := lx.toks[len(lx.toks)-1]
	switch t.kind {
	case tPunct:
		return strings.Contains("(,=:[!&|?{};~+-*%<>", t.s) || t.s == "=~" || t.s == "!~"
	case tIdent:
		switch t.s {
		case "return", "typeof", "in", "of", "split", "grep", "if", "unless", "and", "or", "not", "when":
			return true
		}
	}
	return false
}

// perlGlob reads Perl's glob operator, <PATTERN> where a term is
// expected (unlink <~/x/*>, for (<*.log>)), as the call glob("PATTERN")
// it is. <STDIN>, <$fh> and <> read lines and are left alone, as is a
// comparison ($a <$b), where no term is expected.
func (lx *lexer) perlGlob() bool {
	s, i := lx.src, lx.i
	if n := len(lx.toks); n > 0 {
		if t := lx.toks[n-1]; t.kind == tIdent && strings.ContainsAny(t.s[:1], "$@%") || t.kind == tNum || t.kind == tStr ||
			t.kind == tPunct && !lx.prevAllowsRegex() {
			return false
		}
	}
	end := strings.IndexAny(s[i+1:], ">\n;")
	if end <= 0 || s[i+1+end] != '>' {
		return false
	}
	pat := s[i+1 : i+1+end]
	bare := strings.TrimPrefix(pat, "$")
	if bare == "" || strings.IndexFunc(bare, func(r rune) bool { return r >= 0x80 || !isIdentChar(byte(r)) }) < 0 {
		return false // <STDIN>, <$fh>: a readline
	}
	lx.emit(tIdent, "glob")
	lx.emit(tPunct, "(")
	lx.emit(tStr, pat)
	lx.emit(tPunct, ")")
	lx.i = i + end + 2
	return true
}

func (lx *lexer) next() {
	s, i := lx.src, lx.i
	c := s[i]
	switch {
	case c == '\n' && lx.lang == langAwk:
		lx.emit(tPunct, ";") // newlines end awk statements
		lx.i++
	case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		lx.nl = lx.nl || c == '\n'
		lx.i++
	case lx.comment():
	case isIdentStart(c) || c == '$' && lx.lang == langJS ||
		(c == '$' || c == '@' || c == '%') && (lx.lang == langPerl || lx.lang == langPHP) && i+1 < len(s) && isIdentStart(s[i+1]):
		lx.ident()
	case c >= '0' && c <= '9':
		j := i
		for j < len(s) && (isIdentChar(s[j]) || s[j] == '.') {
			j++
		}
		lx.emit(tNum, s[i:j])
		lx.i = j
	case c == '"' || c == '\'':
		lx.quoted(c, "")
	case c == '`':
		lx.backtick()
	case c == '/' && (lx.lang == langJS || lx.lang == langPerl || lx.lang == langRuby || lx.lang == langAwk) && lx.prevAllowsRegex():
		lx.i = skipDelimited(s, i+1, '/', true)
	case c == '%' && lx.lang == langRuby && i+1 < len(s) && lx.rubyPercent():
	case c == '<' && lx.lang == langPerl && lx.perlGlob():
	case c == '<' && lx.lang == langPHP && strings.HasPrefix(s[i:], "<?php"):
		lx.i += 5
	case c == '[' && lx.lang == langLua && i+1 < len(s) && (s[i+1] == '[' || s[i+1] == '='):
		lx.luaLong()
	default:
		two := ""
		if i+1 < len(s) {
			two = s[i : i+2]
		}
		switch two {
		case "=>", "..", "==", "=~", "!~", "::", "->", "<<":
			lx.emit(tPunct, two)
			lx.i += 2
			return
		}
		lx.emit(tPunct, s[i:i+1])
		lx.i++
	}
}

// comment skips a comment at the position, if one starts there.
func (lx *lexer) comment() bool {
	s, i := lx.src, lx.i
	line := func() {
		if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
			lx.i = i + j
		} else {
			lx.i = len(s)
		}
	}
	block := func(open, close string) bool {
		if !strings.HasPrefix(s[i:], open) {
			return false
		}
		if j := strings.Index(s[i+len(open):], close); j >= 0 {
			lx.i = i + len(open) + j + len(close)
		} else {
			lx.i = len(s)
		}
		return true
	}
	switch lx.lang {
	case langPython, langRuby, langAwk:
		if s[i] == '#' {
			line()
			return true
		}
	case langPerl:
		if s[i] == '#' && (i == 0 || s[i-1] != '$') {
			line()
			return true
		}
	case langJS:
		if strings.HasPrefix(s[i:], "//") {
			line()
			return true
		}
		return block("/*", "*/")
	case langPHP:
		if s[i] == '#' || strings.HasPrefix(s[i:], "//") {
			line()
			return true
		}
		return block("/*", "*/")
	case langLua:
		if strings.HasPrefix(s[i:], "--[[") {
			return block("--[[", "]]")
		}
		if strings.HasPrefix(s[i:], "--") {
			line()
			return true
		}
	case langAppleScript:
		if strings.HasPrefix(s[i:], "--") || s[i] == '#' {
			line()
			return true
		}
		return block("(*", "*)")
	}
	return false
}

func (lx *lexer) ident() {
	s, i := lx.src, lx.i
	j := i + 1
	for j < len(s) && (isIdentChar(s[j]) || s[j] == '$' && lx.lang == langJS) {
		j++
	}
	word := s[i:j]
	lx.i = j
	// String prefixes: Python r"…" f"…" b"…"; Perl/Ruby quote operators.
	if j < len(s) {
		switch lx.lang {
		case langPython:
			if (s[j] == '"' || s[j] == '\'') && len(word) <= 2 && strings.Trim(strings.ToLower(word), "rbuf") == "" {
				lx.quoted(s[j], strings.ToLower(word))
				return
			}
		case langPerl:
			if lx.perlQuote(word) {
				return
			}
		}
	}
	lx.emit(tIdent, word)
}

// quoted reads a string literal opened by q at lx.i. prefix holds Python
// string prefixes (r raw, f formatted).
func (lx *lexer) quoted(q byte, prefix string) {
	s := lx.src
	i := lx.i
	triple := lx.lang == langPython && strings.HasPrefix(s[i:], strings.Repeat(string(q), 3))
	end := string(q)
	if triple {
		end = strings.Repeat(string(q), 3)
	}
	i += len(end)
	raw := strings.Contains(prefix, "r")
	interp := strings.Contains(prefix, "f") // Python f-strings
	switch lx.lang {
	case langPerl, langPHP, langRuby:
		raw = q == '\''
		interp = q == '"'
	case langAwk, langAppleScript, langLua, langJS:
	}
	var b strings.Builder
	for i < len(s) {
		if strings.HasPrefix(s[i:], end) {
			i += len(end)
			break
		}
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			if raw {
				if s[i+1] == q || s[i+1] == '\\' {
					if lx.lang != langPython {
						b.WriteByte(s[i+1])
					} else {
						b.WriteByte('\\')
						b.WriteByte(s[i+1])
					}
					i += 2
					continue
				}
				b.WriteByte(c)
				i++
				continue
			}
			i = lx.escape(&b, i)
		case interp && (c == '{' && lx.lang == langPython || c == '$' || c == '@' && lx.lang == langPerl || c == '#' && lx.lang == langRuby && i+1 < len(s) && s[i+1] == '{'):
			i = lx.hole(&b, i)
		case !triple && c == '\n' && lx.lang == langPython:
			i = len(s) // unterminated
		default:
			b.WriteByte(c)
			i++
		}
	}
	lx.i = i
	lx.emit(tStr, b.String())
}

// hole handles an interpolation inside a string at s[i]: {expr} in
// Python f-strings, $x ${…} in Perl/PHP/Ruby "…", #{…} in Ruby, @x in
// Perl. It writes Unknown and returns the index after the hole.
func (lx *lexer) hole(b *strings.Builder, i int) int {
	s := lx.src
	c := s[i]
	if lx.lang == langPython {
		if i+1 < len(s) && s[i+1] == '{' {
			b.WriteByte('{')
			return i + 2
		}
		b.WriteString(Unknown)
		return skipBalanced(s, i, '{', '}')
	}
	if c == '#' { // Ruby #{…}
		b.WriteString(Unknown)
		return skipBalanced(s, i+1, '{', '}')
	}
	// $x, ${…}, @x, $x->[…]
	j := i + 1
	if j < len(s) && s[j] == '{' {
		b.WriteString(Unknown)
		return skipBalanced(s, j, '{', '}')
	}
	if j < len(s) && (isIdentStart(s[j]) || c == '$' && strings.IndexByte("0123456789!@&_", s[j]) >= 0) {
		for j < len(s) && isIdentChar(s[j]) {
			j++
		}
		if j == i+1 {
			j++
		}
		b.WriteString(Unknown)
		return j
	}
	b.WriteByte(c)
	return i + 1
}

// escape decodes a backslash escape at s[i]; it returns the index after it.
func (lx *lexer) escape(b *strings.Builder, i int) int {
	s := lx.src
	c := s[i+1]
	switch c {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case '0':
		b.WriteByte(0)
	case '\n':
		// a line continuation
	case 'x':
		if i+3 < len(s) && isHex(s[i+2]) && isHex(s[i+3]) {
			b.WriteByte(byte(hexVal(s[i+2])<<4 | hexVal(s[i+3])))
			return i + 4
		}
		b.WriteByte('x')
	case 'u':
		if i+5 < len(s) {
			if n, err := strconv.ParseUint(s[i+2:i+6], 16, 32); err == nil {
				b.WriteRune(rune(n))
				return i + 6
			}
		}
		b.WriteByte('u')
	default:
		b.WriteByte(c)
	}
	return i + 2
}

// backtick reads `…`: a JS template literal (a string with ${} holes) or a
// command literal in Perl, Ruby, PHP and the shell.
func (lx *lexer) backtick() {
	s := lx.src
	i := lx.i + 1
	var b strings.Builder
	for i < len(s) && s[i] != '`' {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			i = lx.escape(&b, i)
		case s[i] == '$' && i+1 < len(s) && s[i+1] == '{' && lx.lang == langJS:
			b.WriteString(Unknown)
			i = skipBalanced(s, i+1, '{', '}')
		case (s[i] == '$' || s[i] == '#' && i+1 < len(s) && s[i+1] == '{') && lx.lang != langJS:
			i = lx.hole(&b, i)
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	lx.i = i + 1
	if lx.lang == langJS {
		lx.emit(tStr, b.String())
		return
	}
	lx.emit(tCmd, b.String())
}
