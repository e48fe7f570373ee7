package parse

import "strings"

// perlQuote reads q(…) qq(…) qw(…) qx(…) and skips m// s/// tr/// y///.
func (lx *lexer) perlQuote(word string) bool {
	s, j := lx.src, lx.i
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if j >= len(s) {
		return false
	}
	d := s[j]
	if isIdentChar(d) || d == ' ' || d == ',' || d == ';' || d == ')' || d == '=' && word != "s" {
		return false
	}
	switch word {
	case "q", "qq", "qw", "qx":
		body, end := perlDelimited(s, j)
		lx.i = end
		switch word {
		case "qw":
			lx.toks = append(lx.toks, tok{kind: tWords, words: strings.Fields(body)})
		case "qx":
			lx.emit(tCmd, perlInterp(body))
		case "qq":
			lx.emit(tStr, perlInterp(body))
		default:
			lx.emit(tStr, body)
		}
		return true
	case "m", "qr":
		_, lx.i = perlDelimited(s, j)
		return true
	case "s", "tr", "y":
		_, end := perlDelimited(s, j)
		if close := closer(d); close != d {
			for end < len(s) && (s[end] == ' ' || s[end] == '\t') {
				end++
			}
			if end < len(s) {
				_, end = perlDelimited(s, end)
			}
		} else {
			end = skipDelimited(s, end, d, true)
		}
		for end < len(s) && isIdentChar(s[end]) { // flags
			end++
		}
		lx.i = end
		return true
	}
	return false
}

func closer(d byte) byte {
	switch d {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	case '<':
		return '>'
	}
	return d
}

// perlDelimited reads a body delimited by s[j] (bracket pairs nest) and
// returns it and the index after the closing delimiter.
func perlDelimited(s string, j int) (string, int) {
	open := s[j]
	cl := closer(open)
	depth := 1
	k := j + 1
	for k < len(s) {
		c := s[k]
		switch {
		case c == '\\' && k+1 < len(s):
			k += 2
			continue
		case c == cl && open != cl || c == cl && open == cl:
			depth--
			if depth == 0 {
				return s[j+1 : k], k + 1
			}
		case c == open && open != cl:
			depth++
		}
		k++
	}
	return s[j+1:], len(s)
}

// perlInterp marks the interpolations of a double-quoted Perl body.
func perlInterp(body string) string {
	lx := &lexer{src: body, lang: langPerl}
	var b strings.Builder
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\' && i+1 < len(body):
			i = lx.escape(&b, i)
		case c == '$' || c == '@':
			i = lx.hole(&b, i)
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// rubyPercent reads %x{…} %q{…} %Q{…} %w{…} %W{…} %i{…} %{…}.
func (lx *lexer) rubyPercent() bool {
	s, i := lx.src, lx.i
	kind := s[i+1]
	j := i + 2
	if !isIdentStart(kind) {
		kind, j = 'Q', i+1
	}
	if j >= len(s) || isIdentChar(s[j]) || s[j] == ' ' || s[j] == '=' {
		return false
	}
	switch kind {
	case 'x', 'q', 'Q', 'w', 'W', 'i', 'I', 'r', 's':
	default:
		return false
	}
	body, end := perlDelimited(s, j)
	lx.i = end
	switch kind {
	case 'x':
		lx.emit(tCmd, rubyInterp(body))
	case 'w', 'W', 'i', 'I':
		lx.toks = append(lx.toks, tok{kind: tWords, words: strings.Fields(body)})
	case 'q':
		lx.emit(tStr, body)
	case 'r', 's':
	default:
		lx.emit(tStr, rubyInterp(body))
	}
	return true
}

func rubyInterp(body string) string {
	lx := &lexer{src: body, lang: langRuby}
	var b strings.Builder
	for i := 0; i < len(body); {
		switch {
		case body[i] == '\\' && i+1 < len(body):
			i = lx.escape(&b, i)
		case body[i] == '#' && i+1 < len(body) && body[i+1] == '{':
			i = lx.hole(&b, i)
		default:
			b.WriteByte(body[i])
			i++
		}
	}
	return b.String()
}

// luaLong reads a Lua long string [[…]] or [==[…]==].
func (lx *lexer) luaLong() {
	s, i := lx.src, lx.i
	j := i + 1
	for j < len(s) && s[j] == '=' {
		j++
	}
	if j >= len(s) || s[j] != '[' {
		lx.emit(tPunct, "[")
		lx.i++
		return
	}
	close := "]" + strings.Repeat("=", j-i-1) + "]"
	k := strings.Index(s[j+1:], close)
	if k < 0 {
		lx.emit(tStr, s[j+1:])
		lx.i = len(s)
		return
	}
	lx.emit(tStr, s[j+1:j+1+k])
	lx.i = j + 1 + k + len(close)
}

// skipBalanced returns the index after the bracket closing the one at
// s[i], skipping quoted strings inside.
func skipBalanced(s string, i int, open, close byte) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch c := s[j]; c {
		case '\\':
			j++
		case '\'', '"', '`':
			j = skipDelimited(s, j+1, c, true) - 1
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(s)
}

// skipDelimited returns the index after the next unescaped d from i
// (a regex or string body); classes [...] are skipped for regexes.
func skipDelimited(s string, i int, d byte, regex bool) int {
	inClass := false
	for j := i; j < len(s); j++ {
		switch c := s[j]; {
		case c == '\\':
			j++
		case c == '\n' && d == '/':
			return j // not a regex after all
		case regex && c == '[' && d == '/':
			inClass = true
		case c == ']':
			inClass = false
		case c == d && !inClass:
			return j + 1
		}
	}
	return len(s)
}
