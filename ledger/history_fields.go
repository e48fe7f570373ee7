package ledger

import (
	"bytes"
	"encoding/json"

	"github.com/guard-exec/guard-exec/internal/jsonstr"
)

// eachField calls fn with each top-level key of the JSON object in b and
// its raw value, in order, until fn returns false. It reads the compact
// form Append writes (no whitespace) and reports false for anything it
// cannot follow, so the caller falls back to a full decode. Strings are
// skipped with a byte search for their closing quote, so a long digest
// costs little.
func eachField(b []byte, fn func(key, val []byte) bool) bool {
	if len(b) < 2 || b[0] != '{' {
		return false
	}
	i := 1
	if b[i] == '}' {
		return i == len(b)-1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		end := skipString(b, i)
		if end < 0 || end >= len(b) || b[end] != ':' {
			return false
		}
		key := b[i+1 : end-1]
		vstart := end + 1
		vend := skipValue(b, vstart)
		if vend < 0 || vend >= len(b) {
			return false
		}
		if !fn(key, b[vstart:vend]) {
			return true
		}
		switch b[vend] {
		case ',':
			i = vend + 1
		case '}':
			return vend == len(b)-1
		default:
			return false
		}
	}
}

// skipString returns the index just past the string starting at b[i] (a
// quote), or -1.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
	return -1
}

// skipValue returns the index just past the JSON value starting at b[i],
// or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e := skipString(b, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// unquote decodes a raw JSON string value; "" for anything else.
func unquote(v []byte) string {
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return string(v[1 : len(v)-1])
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return ""
	}
	return s
}

// jsonString encodes s exactly as Append's encoder does (no HTML
// escaping), so it can be searched for in stored lines.
func jsonString(s string) []byte { return jsonstr.Append(nil, s) }
