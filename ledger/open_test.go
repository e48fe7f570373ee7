package ledger

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenPrepares(t *testing.T) {
	l := newLedger(t, Options{})
	fi, err := os.Stat(l.Dir())
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("directory mode %v, %v", fi.Mode().Perm(), err)
	}
	if got := readFile(t, l.path(ignoreName)); got != "*\n" {
		t.Errorf(".gitignore = %q", got)
	}
	pair(t, l, "a", 0)
	for _, name := range []string{ignoreName, lockName, activeName} {
		if fi, err := os.Stat(l.path(name)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v", name, fi.Mode().Perm(), err)
		}
	}
}

// The directory vanishing under a running guard (someone cleaned up) is
// repaired by the next append.
func TestAppendRecreatesDirectory(t *testing.T) {
	l := newLedger(t, Options{})
	pair(t, l, "a", 0)
	if err := os.RemoveAll(l.Dir()); err != nil {
		t.Fatal(err)
	}
	if id := pair(t, l, "b", 0); id != "ev-0001" {
		t.Errorf("id = %s", id)
	}
	if _, err := os.Stat(l.path(ignoreName)); err != nil {
		t.Error(".gitignore not recreated")
	}
}

func TestOpenNotADirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	writeFile(t, file, "x")
	if _, err := Open(file, Options{}); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("Open(file) = %v", err)
	}
	if _, err := Open(filepath.Join(file, "sub"), Options{}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Open(file/sub) = %v", err)
	}
	if _, err := Open("", Options{}); err == nil {
		t.Error("Open(\"\") accepted")
	}
}

func TestUnwritableDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	lockDown(t, dir)
	if _, err := Open(dir, Options{}); err == nil || !strings.Contains(err.Error(), "ledger: directory not writable") {
		t.Errorf("Open of an unwritable directory: %v", err)
	}

	// Prepared, then made unwritable: the append says so and writes nothing.
	dir2 := filepath.Join(t.TempDir(), "ro2")
	l, err := Open(dir2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lockDown(t, dir2)
	if _, err := l.Append(&Record{Kind: KindExec}); err == nil || !strings.Contains(err.Error(), "ledger: lock: ") {
		t.Errorf("Append to an unwritable directory: %v", err)
	}
}

// lockDown makes dir refuse new entries: chmod for ordinary users, the
// immutable attribute for root (which permission bits do not stop).
func lockDown(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		os.Chmod(dir, 0o500)
		t.Cleanup(func() { os.Chmod(dir, 0o700) })
		return
	}
	if out, err := exec.Command("chattr", "+i", dir).CombinedOutput(); err != nil {
		t.Skipf("running as root and cannot make %s immutable: %v %s", dir, err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", dir).Run() })
}

// A symlink planted in place of the ledger (say, by a repository that ships
// a .guard-exec directory) is refused, not followed.
func TestSymlinkRefused(t *testing.T) {
	l := newLedger(t, Options{})
	target := filepath.Join(t.TempDir(), "bashrc")
	writeFile(t, target, "# rc\n")
	if err := os.Symlink(target, l.path(activeName)); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(&Record{Kind: KindExec}); err == nil {
		t.Error("Append followed a symlinked ledger.jsonl")
	}
	if got := readFile(t, target); got != "# rc\n" {
		t.Errorf("symlink target written: %q", got)
	}
}

func TestLocation(t *testing.T) {
	h := t.TempDir() // a home that exists (paths.Home)
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tests := []struct {
		root   string
		getenv func(string) string
		want   string
	}{
		{"/p", env("GUARD_EXEC_LEDGER_DIR", "/override", "HOME", h), "/override"},
		{"/p", env("HOME", h, "XDG_STATE_HOME", "/s"), "/p/.guard-exec"},
		{"", env("HOME", h, "XDG_STATE_HOME", "/s"), "/s/guard-exec"},
		{"", env("HOME", h, "XDG_STATE_HOME", "relative"), h + "/.local/state/guard-exec"},
		{"", env("HOME", h), h + "/.local/state/guard-exec"},
		{"", env("HOME", "relative"), ""},
		// never a new .guard-exec/ in /, /tmp or $HOME, even as a work tree's root
		{"/", env("HOME", h), h + "/.local/state/guard-exec"},
		{"/tmp", env("HOME", h), h + "/.local/state/guard-exec"},
		{h, env("HOME", h+"/"), h + "/.local/state/guard-exec"},
		{h + "/proj", env("HOME", h), h + "/proj/.guard-exec"},
	}
	for _, tt := range tests {
		if got := Location(tt.root, tt.getenv); got != tt.want {
			t.Errorf("Location(%q) = %q, want %q", tt.root, got, tt.want)
		}
	}
}
