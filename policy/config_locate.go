package policy

import (
	"strconv"
	"strings"
)

// keyLines maps each key of a TOML document to the line it is defined on,
// so that a problem with a value can be reported as file:line. The TOML
// decoder keeps positions to itself, and keeps only one per key name for
// an array of tables, so the loader finds them with this small scanner of
// its own. It runs only on documents the decoder has accepted, and only
// when a problem is reported; a key it cannot place is reported at the line
// of its nearest placed parent.
//
// Paths are the key's segments joined by keySep; the n-th table of an
// array of tables adds a segment "#n" ([[rule]] → "rule", "#0", …).
type keyLines map[string]int

const keySep = "\x1f"

func joinKey(path []string) string { return strings.Join(path, keySep) }

// line returns where path (or its nearest placed parent) is defined, or 0.
func (k keyLines) line(path []string) int {
	for n := len(path); n > 0; n-- {
		if l, ok := k[joinKey(path[:n])]; ok {
			return l
		}
	}
	return 0
}

// locateKeys scans a TOML document line by line. It tracks multi-line
// strings and brackets so that the text of a value is never taken for a
// key; keys inside inline tables are not placed (their table's line is).
func locateKeys(doc string) keyLines {
	k := keyLines{}
	var table []string
	arrays := map[string]int{} // [[name]] → tables seen so far
	var s valueScanner
	for n, text := range strings.Split(doc, "\n") {
		line := n + 1
		if s.busy() {
			s.scan(text)
			continue
		}
		t := strings.TrimLeft(text, " \t")
		switch {
		case t == "" || t[0] == '#' || t[0] == '\r':
		case strings.HasPrefix(t, "[["):
			path, _ := parseKey(t[2:])
			name := joinKey(path)
			table = append(path, "#"+strconv.Itoa(arrays[name]))
			arrays[name]++
			k.place(path, line)
			k.place(table, line)
		case t[0] == '[':
			path, _ := parseKey(t[1:])
			table = path
			k.place(table, line)
		default:
			path, rest := parseKey(t)
			if len(path) == 0 {
				continue
			}
			full := append(append([]string(nil), table...), path...)
			for i := len(table) + 1; i <= len(full); i++ {
				k.place(full[:i], line)
			}
			if r := strings.TrimLeft(rest, " \t"); strings.HasPrefix(r, "=") {
				s.scan(r[1:])
			}
		}
	}
	return k
}

// place records the first line a key appears on.
func (k keyLines) place(path []string, line int) {
	key := joinKey(path)
	if _, ok := k[key]; !ok {
		k[key] = line
	}
}

// parseKey reads a dotted key (bare, "basic" or 'literal' segments) from
// the start of s and returns it with the text after it.
func parseKey(s string) ([]string, string) {
	var path []string
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return path, s
		}
		var seg string
		switch s[0] {
		case '"':
			end := closingQuote(s[1:], '"')
			if end < 0 {
				return path, ""
			}
			seg = unescapeKey(s[1 : 1+end])
			s = s[end+2:]
		case '\'':
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return path, ""
			}
			seg = s[1 : 1+end]
			s = s[end+2:]
		default:
			i := 0
			for i < len(s) && isBareKeyByte(s[i]) {
				i++
			}
			if i == 0 {
				return path, s
			}
			seg, s = s[:i], s[i:]
		}
		path = append(path, seg)
		s = strings.TrimLeft(s, " \t")
		if !strings.HasPrefix(s, ".") {
			return path, s
		}
		s = s[1:]
	}
}

func isBareKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// closingQuote finds the unescaped quote q in s, or -1.
func closingQuote(s string, q byte) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i
		}
	}
	return -1
}

// unescapeKey undoes the common escapes of a quoted key; the rest stay as
// written, which only matters for placing a key nobody spells that way.
func unescapeKey(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	return strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\t`, "\t").Replace(s)
}

// valueScanner follows a value across lines: open brackets and braces
// and multi-line strings.
type valueScanner struct {
	depth int
	multi string // `"""` or `'''` while inside a multi-line string
}

func (v *valueScanner) busy() bool { return v.depth > 0 || v.multi != "" }

func (v *valueScanner) scan(s string) {
	for i := 0; i < len(s); i++ {
		if v.multi != "" {
			end := strings.Index(s[i:], v.multi)
			if v.multi == `"""` {
				end = closingTriple(s[i:])
			}
			if end < 0 {
				return
			}
			i += end + 2
			v.multi = ""
			continue
		}
		switch c := s[i]; c {
		case '#':
			return
		case '[', '{':
			v.depth++
		case ']', '}':
			if v.depth > 0 {
				v.depth--
			}
		case '"', '\'':
			if strings.HasPrefix(s[i:], strings.Repeat(string(c), 3)) {
				v.multi = strings.Repeat(string(c), 3)
				i += 2
				continue
			}
			var end int
			if c == '"' {
				end = closingQuote(s[i+1:], '"')
			} else {
				end = strings.IndexByte(s[i+1:], '\'')
			}
			if end < 0 {
				return
			}
			i += end + 1
		}
	}
}

// closingTriple finds an unescaped """ in s, or -1.
func closingTriple(s string) int {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == '"' && s[i+1] == '"' && s[i+2] == '"' {
			return i
		}
	}
	return -1
}
