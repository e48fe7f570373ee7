package policy

import (
	"strings"
	"testing"
)

// TestHasComponent checks hasComponent against what it means: name is a
// whole component of p after a slash.
func TestHasComponent(t *testing.T) {
	paths := []string{"", "/", "//", "a", "/a", "a/", "/a/", "/ab", "/ba", "/x/a", "/x/a/", "/x/a/y", "/x/ab/y",
		"/x/ba/y", "a/x", "x/a", "/x//a", "/.guard-exec", "/p/.guard-exec/ledger.jsonl", "/p/.guard-exec2/x", "/p/x.guard-exec"}
	for _, p := range paths {
		for _, name := range []string{"a", "ab", ".guard-exec", "x"} {
			want := strings.Contains(p+"/", "/"+name+"/")
			if got := hasComponent(p, name); got != want {
				t.Errorf("hasComponent(%q, %q) = %v, want %v", p, name, got, want)
			}
		}
	}
}
