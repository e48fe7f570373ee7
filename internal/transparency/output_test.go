package transparency

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSumFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) Output {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		o, err := SumFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	a, a2, b := write("a", "out\n"), write("a2", "out\n"), write("b", "out")
	if !a.Same(a2) || a.Same(b) {
		t.Fatalf("Same: %v %v", a.Same(a2), a.Same(b))
	}
	if d := Diff(b, a); !strings.Contains(d, `"out"`) || !strings.Contains(d, `"out\n"`) {
		t.Errorf("Diff of small outputs shows no texts: %s", d)
	}
	big := write("big", strings.Repeat("x", KeepForDiff+1))
	if big.Data != nil || big.Size != KeepForDiff+1 {
		t.Errorf("big output: %d bytes kept of %d", len(big.Data), big.Size)
	}
	if d := Diff(big, a); !strings.Contains(d, big.SHA256) {
		t.Errorf("Diff of a big output names no sums: %s", d)
	}
}
