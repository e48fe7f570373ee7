package shim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeGuard writes an executable named guard-exec, standing in for the
// binary: only its name and mode matter to Install.
func fakeGuard(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "bin", "guard-exec")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestInstallUninstall(t *testing.T) {
	target := fakeGuard(t)
	dir := filepath.Join(t.TempDir(), "shim")
	if err := Install(dir, target); err != nil {
		t.Fatal(err)
	}
	for _, n := range Names {
		dest, err := os.Readlink(filepath.Join(dir, n))
		if err != nil || dest != target {
			t.Errorf("%s -> %q (%v), want a symlink to %s", n, dest, err, target)
		}
	}
	// Installing again is fine: the entries are ours.
	if err := Install(dir, target); err != nil {
		t.Fatalf("second install: %v", err)
	}
	st := Status(dir, dir+":/usr/bin:/bin", target)
	for _, l := range st {
		if !l.Exists || !l.Ours || !l.Active() {
			t.Errorf("status %+v: want an active guard-exec entry", l)
		}
	}
	removed, err := Uninstall(dir, target)
	if err != nil || len(removed) != 2 {
		t.Fatalf("uninstall: %v %v", removed, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the empty shim directory should be gone: %v", err)
	}
}

func TestInstallKeepsForeignFiles(t *testing.T) {
	target := fakeGuard(t)
	dir := t.TempDir()
	real := filepath.Join(dir, "bash")
	if err := os.WriteFile(real, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := Install(dir, target)
	if err == nil || !strings.Contains(err.Error(), "is not guard-exec") {
		t.Fatalf("install over a real bash: %v", err)
	}
	if b, _ := os.ReadFile(real); string(b) != "#!/bin/sh\n" {
		t.Error("the foreign bash was changed")
	}
	if _, err := Uninstall(dir, target); err == nil {
		t.Error("uninstall should report the foreign bash it keeps")
	}
	if _, err := os.Stat(real); err != nil {
		t.Error("uninstall removed a foreign bash")
	}
}

func TestInstallReplacesMovedBinary(t *testing.T) {
	old := fakeGuard(t)
	dir := t.TempDir()
	if err := Install(dir, old); err != nil {
		t.Fatal(err)
	}
	os.Remove(old) // the old binary is gone: the links dangle
	target := fakeGuard(t)
	if err := Install(dir, target); err != nil {
		t.Fatalf("reinstall over dangling links: %v", err)
	}
	if dest, _ := os.Readlink(filepath.Join(dir, "sh")); dest != target {
		t.Errorf("sh -> %q, want %q", dest, target)
	}
}

func TestStatusShadowed(t *testing.T) {
	target := fakeGuard(t)
	dir := t.TempDir()
	if err := Install(dir, target); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "bash"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, l := range Status(dir, other+":"+dir, target) {
		switch l.Name {
		case "bash":
			if l.Active() || l.Found != filepath.Join(other, "bash") {
				t.Errorf("bash is shadowed by %s: %+v", other, l)
			}
		case "sh":
			if !l.Active() {
				t.Errorf("sh should be active: %+v", l)
			}
		}
	}
	if i := OnPath(dir, "relative:"+other+":"+dir+"/"); i != 2 {
		t.Errorf("OnPath = %d, want 2", i)
	}
	if i := OnPath(dir, other); i != -1 {
		t.Errorf("OnPath = %d, want -1", i)
	}
}

func TestIsGuardExecLinks(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	sym := filepath.Join(dir, "bash")
	if err := os.Symlink(self, sym); err != nil {
		t.Fatal(err)
	}
	if !IsGuardExec(sym, self) {
		t.Error("a symlink to self is guard-exec")
	}
	hard := filepath.Join(dir, "sh")
	if err := os.Link(self, hard); err == nil && !IsGuardExec(hard, self) {
		t.Error("a hard link to self is guard-exec")
	}
	for _, p := range []string{"/bin/sh", "/bin/bash", "/usr/bin/env"} {
		if _, err := os.Stat(p); err == nil && IsGuardExec(p, self) {
			t.Errorf("%s is not guard-exec", p)
		}
	}
}

func TestFindShellDefaultPath(t *testing.T) {
	p, err := FindShell("sh", "", false, "")
	if err != nil {
		t.Skipf("no sh in %s: %v", DefaultPath, err)
	}
	if !strings.HasPrefix(p, "/") {
		t.Errorf("FindShell = %q", p)
	}
	// No shell on PATH: the system's own places are searched.
	if got, err := FindShell("sh", t.TempDir(), true, ""); err != nil || !strings.HasPrefix(got, "/") {
		t.Errorf("no shell on PATH: %q, %v", got, err)
	}
}
