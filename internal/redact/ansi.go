package redact

import "bytes"

const esc = 0x1b

// StripANSI removes terminal escape sequences from output, so digests hold
// the text a person read: CSI sequences (colours, cursor moves: ESC [ … final),
// OSC strings (titles, hyperlinks: ESC ] … BEL or ESC \), DCS/SOS/PM/APC
// strings (ESC P, X, ^, _ … ESC \), charset selects and other two-byte
// escapes (ESC ( B, ESC =, ESC 7). A string sequence left open at the end is
// dropped to the end. Text without ESC is returned as it is, not copied.
func StripANSI(b []byte) []byte {
	i := bytes.IndexByte(b, esc)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	for i >= 0 {
		out = append(out, b[:i]...)
		b = b[i+escapeLen(b[i:]):]
		i = bytes.IndexByte(b, esc)
	}
	return append(out, b...)
}

// escapeLen returns the length of the escape sequence at the start of b,
// which begins with ESC.
func escapeLen(b []byte) int {
	if len(b) < 2 {
		return len(b)
	}
	switch c := b[1]; {
	case c == '[':
		return csiLen(b)
	case c == ']', c == 'P', c == 'X', c == '^', c == '_':
		return stringLen(b, c == ']')
	case 0x20 <= c && c <= 0x2f: // intermediates, then one final byte: ESC ( B, ESC # 8
		j := 2
		for j < len(b) && 0x20 <= b[j] && b[j] <= 0x2f {
			j++
		}
		return min(j+1, len(b))
	case 0x30 <= c && c <= 0x7e:
		return 2
	}
	return 1 // a lone ESC before a control or non-ASCII byte: drop just the ESC
}

// csiLen: ESC [ parameters (0x30–0x3f)* intermediates (0x20–0x2f)* final (0x40–0x7e).
func csiLen(b []byte) int {
	j := 2
	for j < len(b) && 0x30 <= b[j] && b[j] <= 0x3f {
		j++
	}
	for j < len(b) && 0x20 <= b[j] && b[j] <= 0x2f {
		j++
	}
	if j < len(b) && 0x40 <= b[j] && b[j] <= 0x7e {
		return j + 1
	}
	return j // malformed or cut short: drop what was read
}

// stringLen finds the end of a control string: ST (ESC \), or BEL for OSC.
func stringLen(b []byte, bel bool) int {
	for j := 2; j < len(b); j++ {
		switch {
		case bel && b[j] == 0x07:
			return j + 1
		case b[j] == esc && j+1 < len(b) && b[j+1] == '\\':
			return j + 2
		}
	}
	return len(b)
}
