// Package jsonstr writes JSON strings byte for byte as encoding/json does
// (without HTML escaping), for the hand-written encoders of the ledger and
// of OTLP/JSON, which must not allocate per field.
package jsonstr

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// Append appends s as encoding/json does without HTML escaping:
// quotes, backslashes and control bytes escaped, invalid UTF-8 replaced by
// \ufffd, U+2028 and U+2029 escaped.
func Append(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// Simple reads the JSON string whose opening quote is b[i] when it holds
// only what encoding/json reads byte for byte: valid UTF-8, no control
// characters, and escapes other than \u. It returns the string and the
// index after its closing quote; ok is false for anything else (a \u
// escape, bytes encoding/json would replace, a string that does not
// end), which the hand-written decoders leave to encoding/json.
func Simple(b []byte, i int) (s string, next int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return "", i, false
	}
	i++
	start, ascii, plain := i, true, true
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			raw := b[start:i]
			if !ascii && !utf8.Valid(raw) {
				return "", i, false // encoding/json would replace bytes
			}
			if plain {
				return string(raw), i + 1, true
			}
			s, ok := unescape(raw)
			return s, i + 1, ok
		case c == '\\':
			plain = false
			i++
		case c < 0x20:
			return "", i, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", i, false
}

// unescape decodes the escapes of a JSON string's contents other than
// \u, which it declines.
func unescape(raw []byte) (string, bool) {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		if i == len(raw) {
			return "", false
		}
		switch raw[i] {
		case '"', '\\', '/':
			out = append(out, raw[i])
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		default: // \u, or not an escape at all
			return "", false
		}
	}
	return string(out), true
}
