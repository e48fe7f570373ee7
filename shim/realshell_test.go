package shim

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindRealShell(t *testing.T) {
	root := t.TempDir()
	self := writeExe(t, filepath.Join(root, "install", "guard-exec"))   // the running guard
	other := writeExe(t, filepath.Join(root, "other", "guard-exec-v2")) // another install
	shims := mkdir(t, filepath.Join(root, "shims"))                     // bash -> self
	symlink(t, self, filepath.Join(shims, "bash"))
	otherShims := mkdir(t, filepath.Join(root, "other-shims")) // bash -> another guard-exec
	symlink(t, other, filepath.Join(otherShims, "bash"))
	hard := mkdir(t, filepath.Join(root, "hard")) // bash: a hard link to self
	if err := os.Link(self, filepath.Join(hard, "bash")); err != nil {
		t.Fatal(err)
	}
	notExec := mkdir(t, filepath.Join(root, "noexec"))
	if err := os.WriteFile(filepath.Join(notExec, "bash"), []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dirBash := mkdir(t, filepath.Join(root, "dir"))
	mkdir(t, filepath.Join(dirBash, "bash"))
	real := writeExe(t, filepath.Join(root, "usr", "bin", "bash"))
	realLink := mkdir(t, filepath.Join(root, "links")) // a real bash reached through a symlink
	symlink(t, real, filepath.Join(realLink, "bash"))
	cwd := mkdir(t, filepath.Join(root, "cwd")) // ./bash and rel/bash a repository could plant
	writeExe(t, filepath.Join(cwd, "bash"))
	writeExe(t, filepath.Join(cwd, "rel", "bash"))
	t.Chdir(cwd)

	for _, tc := range []struct {
		name string
		path []string
		want string // "" for an error
	}{
		{"shim first", []string{shims, filepath.Dir(real)}, real},
		{"the same shim directory twice", []string{shims, shims + "/", shims, filepath.Dir(real)}, real},
		{"another guard-exec's shim", []string{otherShims, shims, filepath.Dir(real)}, real},
		{"hard link to self", []string{hard, filepath.Dir(real)}, real},
		{"not executable, a directory", []string{notExec, dirBash, filepath.Dir(real)}, real},
		{"relative and empty entries are skipped", []string{"", ".", "rel", filepath.Dir(real)}, real},
		{"symlink to a real shell is kept as found", []string{shims, realLink, filepath.Dir(real)}, filepath.Join(realLink, "bash")},
		{"only shims", []string{shims, otherShims, hard, shims}, ""},
		{"empty PATH", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FindRealShell("bash", strings.Join(tc.path, string(os.PathListSeparator)), self)
			if tc.want == "" {
				if !errors.Is(err, ErrNoShell) || !strings.Contains(err.Error(), `"bash"`) {
					t.Fatalf("got %q, %v; want an ErrNoShell naming bash", got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}

	// Run from the shim directory by the symlink's name, self is still the file.
	t.Run("self given through a symlink", func(t *testing.T) {
		got, err := FindRealShell("bash", shims+":"+filepath.Dir(real), filepath.Join(shims, "bash"))
		if err != nil || got != real {
			t.Fatalf("got %q, %v", got, err)
		}
	})
}

func writeExe(t *testing.T, path string) string {
	t.Helper()
	mkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func mkdir(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func realBash(t testing.TB) string {
	t.Helper()
	bash, err := FindRealShell("bash", os.Getenv("PATH"), "")
	if err != nil {
		t.Skip(err)
	}
	return bash
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
