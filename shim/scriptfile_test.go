package shim

import (
	"os"
	"path/filepath"
	"testing"
)

// TestScriptPath: a script operand not in the current directory is the
// first readable file of that name on PATH, skipping directories, as bash
// finds it; a name with a slash, or one that exists here, is never looked up.
func TestScriptPath(t *testing.T) {
	root := t.TempDir()
	mk := func(p string, dir bool) {
		t.Helper()
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if dir {
			err = os.Mkdir(p, 0o755)
		} else {
			err = os.WriteFile(p, []byte("echo hi\n"), 0o644) // not executable: bash reads it all the same
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	mk("a/tool", true) // a directory on PATH is passed over
	mk("b/tool", false)
	mk("c/tool", false)
	mk("here/local", false)
	mk("here/sub", true)
	t.Chdir(filepath.Join(root, "here"))
	path := filepath.Join(root, "a") + ":" + filepath.Join(root, "b") + ":" + filepath.Join(root, "c")
	for _, tc := range []struct {
		name, path string
		set        bool
		want       string
	}{
		{"tool", path, true, filepath.Join(root, "b", "tool")},
		{"local", path, true, "local"},     // in the current directory: bash opens it there
		{"sub", path, true, "sub"},         // a directory here: bash refuses it, no search
		{"./tool", path, true, "./tool"},   // a slash: never searched
		{"missing", path, true, "missing"}, // nowhere: the caller reports the name
		{"tool", "", true, "tool"},         // PATH empty: bash does not search
		{"tool", "", false, "tool"},        // PATH unset: bash's default path, not these
	} {
		if got := ScriptPath(tc.name, tc.path, tc.set); got != tc.want {
			t.Errorf("ScriptPath(%q, %q, %v) = %q, want %q", tc.name, tc.path, tc.set, got, tc.want)
		}
	}
}
