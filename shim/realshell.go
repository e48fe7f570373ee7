package shim

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrNoShell is wrapped by FindRealShell's error when PATH holds no real shell.
var ErrNoShell = errors.New("no real shell on PATH")

// selfName is the name guard-exec is installed under. A file on PATH that resolves
// to a file of this name is another copy of guard-exec (a second install, a shim
// directory of another version), never a real shell: running it would loop.
const selfName = "guard-exec"

// FindRealShell returns the first name on pathEnv that is not guard-exec itself and
// not another guard-exec shim. Files are compared, not names: a candidate is skipped
// when it is the same file as self (os.SameFile, which sees through symlinks and hard
// links) or when it resolves (filepath.EvalSymlinks) to a file named guard-exec.
// self is os.Executable() of the caller; an empty or missing self skips that check.
//
// Empty and relative PATH entries are ignored: bash would search them, but a shim
// that picked up ./bash from the working directory would run whatever a repository
// ships under that name. A directory that appears twice is searched once.
func FindRealShell(name, pathEnv, self string) (string, error) {
	var selfInfo os.FileInfo
	if self != "" {
		selfInfo, _ = os.Stat(self)
	}
	seen := make(map[string]bool)
	for _, dir := range filepath.SplitList(pathEnv) {
		dir = filepath.Clean(dir)
		if !filepath.IsAbs(dir) || seen[dir] {
			continue
		}
		seen[dir] = true
		cand := filepath.Join(dir, name)
		if isRealShell(cand, selfInfo) {
			return cand, nil
		}
	}
	return "", fmt.Errorf("%w: every %q on PATH is guard-exec or missing", ErrNoShell, name)
}

func isRealShell(cand string, self os.FileInfo) bool {
	// Lstat first: a candidate that is not a symlink keeps its own name
	// whatever links its directories go through, so only a symlink needs
	// the walk of EvalSymlinks (three more system calls for /usr/bin/bash).
	info, err := os.Lstat(cand)
	link := err == nil && info.Mode()&os.ModeSymlink != 0
	if link {
		info, err = os.Stat(cand)
	}
	if err != nil || !info.Mode().IsRegular() || info.Mode().Perm()&0o111 == 0 {
		return false
	}
	if self != nil && os.SameFile(info, self) {
		return false
	}
	if !link {
		return !strings.HasPrefix(filepath.Base(cand), selfName)
	}
	resolved, err := filepath.EvalSymlinks(cand)
	if err != nil {
		return false
	}
	return !strings.HasPrefix(filepath.Base(resolved), selfName)
}
