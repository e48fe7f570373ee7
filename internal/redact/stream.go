package redact

import "strings"

// A Stream redacts the successive chunks of one output stream, such as the
// events of a terminal transcript, where a private key block can begin in
// one chunk and end several chunks later: the chunks in between are dropped
// whole. Each chunk is otherwise redacted on its own, so a token split across
// two chunks can escape; callers that can should redact whole text instead.
type Stream struct {
	Extra []string // literal values to redact, as for String
	inKey bool
}

// String returns chunk redacted, given the chunks that came before it.
func (st *Stream) String(chunk string) string {
	if st.inKey {
		e := strings.Index(chunk, "-----END ")
		if e < 0 {
			return ""
		}
		e += len("-----END ")
		if c := strings.Index(chunk[e:], "-----"); c >= 0 {
			e += c + len("-----")
		}
		st.inKey = false
		chunk = chunk[e:]
	}
	out, open := redact(chunk, st.Extra)
	st.inKey = open
	return out
}
