package project

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRoot(t *testing.T) {
	tmp := t.TempDir()
	repo := filepath.Join(tmp, "repo")
	deep := filepath.Join(repo, "a", "b")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	worktree := filepath.Join(tmp, "wt")
	os.MkdirAll(worktree, 0o755)
	os.WriteFile(filepath.Join(worktree, ".git"), []byte("gitdir: x\n"), 0o644)
	plain := filepath.Join(tmp, "plain")
	os.MkdirAll(plain, 0o755)

	for _, tc := range []struct{ dir, want string }{
		{repo, repo},
		{deep, repo},
		{worktree, worktree},
		{plain, plain},
	} {
		if got := Root(tc.dir); got != tc.want {
			t.Errorf("Root(%s) = %s, want %s", tc.dir, got, tc.want)
		}
	}
	if InRepo(plain) {
		t.Errorf("InRepo(%s) = true", plain)
	}
}
