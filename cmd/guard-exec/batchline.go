package main

import (
	"encoding/json"
	"unicode/utf8"
)

// decodeBatchLine reads a request line of check --batch. The lines callers
// send are one flat object of two plain strings; those are read here,
// without encoding/json's reflection (7% of a batch's CPU went to it).
// Anything else — another key or a key spelled in other case (which
// encoding/json matches), a value that is not a string or null, a \u
// escape, a control character, bytes that are not UTF-8, a syntax error —
// goes to json.Unmarshal, so every line gets exactly its answer.
// FuzzDecodeBatchLine checks that both agree.
func decodeBatchLine(line []byte, req *batchLine) error {
	if fastBatchLine(line, req) {
		return nil
	}
	*req = batchLine{}
	return json.Unmarshal(line, req)
}

// fastBatchLine decodes line into req when it is a plain request, and
// reports whether it was.
func fastBatchLine(line []byte, req *batchLine) bool {
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return false
	}
	i = skipSpace(line, i+1)
	if i < len(line) && line[i] == '}' {
		return skipSpace(line, i+1) == len(line)
	}
	for {
		if i >= len(line) || line[i] != '"' {
			return false
		}
		key, next, ok := plainString(line, i+1)
		if !ok {
			return false
		}
		i = skipSpace(line, next)
		if i >= len(line) || line[i] != ':' {
			return false
		}
		i = skipSpace(line, i+1)
		var val string
		null := false
		switch {
		case i+4 <= len(line) && string(line[i:i+4]) == "null":
			null, i = true, i+4
		case i < len(line) && line[i] == '"':
			if val, i, ok = plainString(line, i+1); !ok {
				return false
			}
		default:
			return false
		}
		switch key {
		case "command":
			if null {
				req.Command = nil
			} else {
				req.Command = &val
			}
		case "cwd":
			if !null {
				req.Cwd = val
			}
		default:
			return false
		}
		i = skipSpace(line, i)
		if i >= len(line) {
			return false
		}
		switch line[i] {
		case ',':
			i = skipSpace(line, i+1)
		case '}':
			return skipSpace(line, i+1) == len(line)
		default:
			return false
		}
	}
}

// plainString reads a JSON string whose opening quote is before line[i]:
// its value and the index after its closing quote. It declines (ok false)
// \u escapes, control characters and bytes that are not UTF-8, which
// encoding/json reads its own way.
func plainString(line []byte, i int) (s string, next int, ok bool) {
	start := i
	for ; i < len(line); i++ {
		c := line[i]
		if c == '"' {
			b := line[start:i]
			return string(b), i + 1, utf8.Valid(b)
		}
		if c == '\\' || c < 0x20 {
			break
		}
	}
	var buf []byte
	buf = append(buf, line[start:i]...)
	for ; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '"':
			return string(buf), i + 1, utf8.Valid(buf)
		case c < 0x20:
			return "", 0, false
		case c == '\\':
			if i+1 >= len(line) {
				return "", 0, false
			}
			i++
			switch line[i] {
			case '"', '\\', '/':
				buf = append(buf, line[i])
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			default: // \u, or not an escape
				return "", 0, false
			}
		default:
			buf = append(buf, c)
		}
	}
	return "", 0, false
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func skipSpace(line []byte, i int) int {
	for i < len(line) {
		switch line[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}
