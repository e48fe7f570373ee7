package parse

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// ansiC decodes the body of a $'…' string as bash does.
func ansiC(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(c)
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			} else {
				b.WriteString("\\c")
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, j := 0, i
			for ; j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7'; j++ {
				n = n*8 + int(s[j]-'0')
			}
			i = j - 1
			if n&0xff == 0 {
				return b.String() // bash cuts the string at a NUL
			}
			b.WriteByte(byte(n))
		case 'x', 'u', 'U':
			max := 2
			switch c {
			case 'u':
				max = 4
			case 'U':
				max = 8
			}
			n, j := 0, i+1
			for ; j < len(s) && j < i+1+max && isHex(s[j]); j++ {
				n = n*16 + hexVal(s[j])
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			i = j - 1
			if n == 0 {
				return b.String()
			}
			if c == 'x' {
				b.WriteByte(byte(n))
			} else {
				b.WriteRune(rune(n))
			}
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case c >= 'a':
		return int(c-'a') + 10
	case c >= 'A':
		return int(c-'A') + 10
	}
	return int(c - '0')
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// mergeLits joins adjacent literal parts: a line continuation splits a
// literal in two ("$\<newline>*" is the parts "$" and "*"), and bash reads
// them as one ($*).
func mergeLits(parts []syntax.WordPart) []syntax.WordPart {
	adjacent := false
	for i := 1; i < len(parts); i++ {
		l, a := parts[i-1].(*syntax.Lit)
		_, b := parts[i].(*syntax.Lit)
		_, pe := parts[i].(*syntax.ParamExp)
		if a && (b || pe && dollarEnd(l.Value)) {
			adjacent = true
			break
		}
	}
	if !adjacent {
		return parts
	}
	out := make([]syntax.WordPart, 0, len(parts)+1)
	for _, p := range parts {
		if pe, ok := p.(*syntax.ParamExp); ok && len(out) > 0 {
			// "$\<newline>$0": bash reads $$ then 0, the parser $ then $0.
			if prev, ok := out[len(out)-1].(*syntax.Lit); ok && dollarEnd(prev.Value) {
				out[len(out)-1] = &syntax.Lit{ValuePos: prev.ValuePos, ValueEnd: prev.ValueEnd, Value: prev.Value[:len(prev.Value)-1]}
				out = append(out, &syntax.ParamExp{Dollar: pe.Dollar, Short: true, Param: &syntax.Lit{Value: "$"}})
				if pe.Short && pe.Param != nil && pe.Index == nil {
					out = append(out, &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: pe.Param.Value})
				} else {
					out = append(out, &syntax.ParamExp{Dollar: pe.Dollar, Short: true, Param: &syntax.Lit{Value: "$"}})
				}
				continue
			}
		}
		if l, ok := p.(*syntax.Lit); ok && len(out) > 0 {
			if prev, ok := out[len(out)-1].(*syntax.Lit); ok {
				out[len(out)-1] = &syntax.Lit{ValuePos: prev.ValuePos, ValueEnd: l.ValueEnd, Value: prev.Value + l.Value}
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// plainLit reports whether unquoted literal text is its own value: no
// escapes, patterns, braces, tilde or dollar.
func plainLit(s string) bool {
	if s == "" || s[0] == '~' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\', '*', '?', '[', '{', '$', Unknown[0]:
			return false
		}
	}
	return true
}

// dollarEnd reports whether literal text ends with an unescaped $.
func dollarEnd(s string) bool {
	if !strings.HasSuffix(s, "$") {
		return false
	}
	bs := 0
	for j := len(s) - 2; j >= 0 && s[j] == '\\'; j-- {
		bs++
	}
	return bs%2 == 0
}
