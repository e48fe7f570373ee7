package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestResolverMatchesEvalSymlinks: the resolver gives what
// filepath.EvalSymlinks gives, for paths through symlinked directories,
// symlinks to files, relative and chained links, a loop, and missing
// paths, whatever order it meets them in.
func TestResolverMatchesEvalSymlinks(t *testing.T) {
	d := t.TempDir()
	for _, dir := range []string{"real/a/b", "real/c", "other"} {
		if err := os.MkdirAll(filepath.Join(d, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(d, "real/c/f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"link":         filepath.Join(d, "real"), // absolute, to a directory
		"rel":          "real/a",                 // relative
		"chain":        "link",                   // a link to a link
		"real/c/lf":    "f",                      // to a file, beside it
		"real/a/up":    "../../other",            // climbing out
		"loop1":        "loop2",
		"loop2":        "loop1",
		"real/a/b/bad": filepath.Join(d, "missing"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(d, name)); err != nil {
			t.Fatal(err)
		}
	}
	paths := []string{
		"real", "real/a/b", "link", "link/a", "link/a/b", "rel", "rel/b", "chain/c/f", "chain/c/lf",
		"real/c/lf", "real/a/up", "link/a/up", "rel/up", "loop1", "loop1/x", "real/a/b/bad", "missing",
		"missing/x", "link/missing", "real/c/f/x", "link/../other", "/",
	}
	for _, order := range [][]string{paths, reversed(paths)} {
		res := resolver{}
		for _, p := range order {
			if p != "/" {
				p = filepath.Join(d, p)
			}
			want, werr := filepath.EvalSymlinks(p)
			got, gerr := res.resolve(p)
			if (werr == nil) != (gerr == nil) || got != want {
				t.Errorf("resolve(%q) = %q, %v; EvalSymlinks gives %q, %v", p, got, gerr, want, werr)
			}
		}
	}
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}
