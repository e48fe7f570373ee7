package main

import (
	"encoding/json"

	"github.com/guard-exec/guard-exec/internal/jsonstr"
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
		key, next, ok := jsonstr.Simple(line, i)
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
			if val, i, ok = jsonstr.Simple(line, i); !ok {
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
