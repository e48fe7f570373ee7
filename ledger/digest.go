package ledger

import (
	"strconv"

	"github.com/guard-exec/guard-exec/internal/redact"
)

// DigestPart is how much of each end of a command's output a digest keeps.
const DigestPart = 2 << 10

// Digest builds an exit record's digest from the first and the last bytes
// of a command's output (each up to DigestPart; the caller's ring buffers)
// and the output's total size: ANSI escapes stripped, and a marker where
// output was left out, so a reader knows the two ends are not contiguous.
// Append redacts it like any digest.
func Digest(head, tail []byte, total int64) string {
	head = head[:min(len(head), DigestPart)]
	tail = tail[max(0, len(tail)-DigestPart):]
	if total <= int64(len(head)) { // everything fits in the head
		return string(redact.StripANSI(head))
	}
	omitted := total - int64(len(head)) - int64(len(tail))
	if omitted <= 0 { // the two ends overlap: keep the part of tail after head
		over := min(-omitted, int64(len(tail)))
		return string(redact.StripANSI(append(append([]byte(nil), head...), tail[over:]...)))
	}
	return string(redact.StripANSI(head)) + "\n… [" + strconv.FormatInt(omitted, 10) + " bytes omitted] …\n" +
		string(redact.StripANSI(tail))
}
