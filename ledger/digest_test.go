package ledger

import (
	"bytes"
	"strings"
	"testing"
)

func TestDigest(t *testing.T) {
	out := []byte("\x1b[1mline one\x1b[0m\nline two\n")
	if got := Digest(out, out, int64(len(out))); got != "line one\nline two\n" {
		t.Errorf("short output: %q", got)
	}
	// Head and tail overlap: 10 bytes of output, 6 in each buffer.
	ten := []byte("0123456789")
	if got := Digest(ten[:6], ten[4:], 10); got != "0123456789" {
		t.Errorf("overlapping ends: %q", got)
	}
	big := bytes.Repeat([]byte("x"), 10000)
	head, tail := append([]byte("HEAD"), big[:DigestPart-4]...), append(big[:DigestPart-4], []byte("TAIL")...)
	got := Digest(head, tail, 1<<20)
	if !strings.HasPrefix(got, "HEAD") || !strings.HasSuffix(got, "TAIL") ||
		!strings.Contains(got, "\n… [1044480 bytes omitted] …\n") || len(got) > 2*DigestPart+40 {
		t.Errorf("long output: %d bytes, %q…%q", len(got), got[:8], got[len(got)-8:])
	}
}
