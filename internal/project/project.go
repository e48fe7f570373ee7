// Package project finds the project a working directory belongs to.
package project

import (
	"os"
	"path/filepath"
)

// Root returns the nearest directory at or above dir that holds a .git
// entry (a directory, or a file for worktrees and submodules), which is
// what `git rev-parse --show-toplevel` answers, without starting git. When
// dir is not in a repository it returns dir itself.
func Root(dir string) string {
	dir = filepath.Clean(dir)
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// InRepo reports whether Root found a repository rather than falling back.
func InRepo(root string) bool {
	_, err := os.Lstat(filepath.Join(root, ".git"))
	return err == nil
}
