package buildinfo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCgoLinked builds a program that imports net and os/user (what makes
// guard-exec link cgo) both ways and asks each what it is.
func TestCgoLinked(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no C compiler: every build is static")
	}
	dir := t.TempDir()
	for _, c := range []struct {
		env  string
		tags string
		want string
	}{
		{"CGO_ENABLED=1", "", "true true"},
		{"CGO_ENABLED=0", "", "false false"},
		{"CGO_ENABLED=1", "netgo,osusergo", "false false"},
	} {
		bin := filepath.Join(dir, "prog")
		args := []string{"build", "-o", bin}
		if c.tags != "" {
			args = append(args, "-tags", c.tags)
		}
		build := exec.Command("go", append(args, "./testdata/cgoprobe")...)
		build.Env = append(os.Environ(), c.env)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", c.env, args, err, out)
		}
		out, err := exec.Command(bin).Output()
		if err != nil {
			t.Fatal(err)
		}
		got, advice, _ := strings.Cut(string(out), "\n")
		if got != c.want {
			t.Errorf("%s tags=%q: %q, want %q", c.env, c.tags, got, c.want)
		}
		// What doctor says of a cgo build: its cost per command (about
		// 1 ms of CPU, scripts/bench.sh's plain-build figure) and the fix.
		if c.want == "true true" && (!strings.Contains(advice, "costs every command about 1 ms more") ||
			!strings.Contains(advice, "CGO_ENABLED=0 go install ./cmd/guard-exec")) {
			t.Errorf("%s: advice %q does not say the cost and the static build", c.env, advice)
		}
		if c.want == "false false" && advice != "" {
			t.Errorf("%s tags=%q: advice %q for a static build", c.env, c.tags, advice)
		}
	}
}
