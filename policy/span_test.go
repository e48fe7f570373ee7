package policy

import (
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/internal/redact"
	"github.com/guard-exec/guard-exec/parse"
)

// cleanSpanSlow is cleanSpan without its shortcut for text it leaves as
// it is.
func cleanSpanSlow(s string) string {
	s = redact.String(s, nil)
	s = strings.ReplaceAll(s, parse.Unknown, "…")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString("⏎")
		case r < 0x20 || r == 0x7f:
			b.WriteString("�")
		default:
			b.WriteRune(r)
		}
		if b.Len() >= spanMax {
			b.WriteString("…")
			break
		}
	}
	return b.String()
}

// TestCleanSpanShortcut checks that cleanSpan gives what the rune loop
// gives: control characters, newlines, invalid UTF-8, unknown parts,
// secrets and text at and around the length bound.
func TestCleanSpanShortcut(t *testing.T) {
	long := strings.Repeat("a", spanMax)
	for _, s := range []string{
		"", "git push --force origin main", "rm -rf /home/dev", "echo a\nb", "a\tb", "a\x7fb", "a\xffb", "\xe2\x82",
		"héllo wörld", "rm -rf " + parse.Unknown, "curl -H 'Authorization: Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789'",
		long[:spanMax-1], long, long + "b", strings.Repeat("é", spanMax/2), strings.Repeat("é", spanMax/2-1) + "x",
	} {
		if got, want := cleanSpan(s), cleanSpanSlow(s); got != want {
			t.Errorf("cleanSpan(%q) = %q, want %q", s, got, want)
		}
	}
}
