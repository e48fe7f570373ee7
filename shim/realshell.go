package shim

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
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
	p, _, err := findRealShell(name, pathEnv, self)
	return p, err
}

// findRealShell is FindRealShell, also giving the size of the file found,
// which FindShell's check for a copy of guard-exec needs (a stat less).
func findRealShell(name, pathEnv, self string) (string, int64, error) {
	id := selfID{path: self}
	var seen []string // a PATH holds a dozen directories: a map costs more
	for dir := range strings.SplitSeq(pathEnv, string(filepath.ListSeparator)) {
		dir = filepath.Clean(dir)
		if !filepath.IsAbs(dir) || slices.Contains(seen, dir) {
			continue
		}
		seen = append(seen, dir)
		cand := filepath.Join(dir, name)
		if ok, size := isRealShell(cand, &id); ok {
			return cand, size, nil
		}
	}
	return "", 0, fmt.Errorf("%w: every %q on PATH is guard-exec or missing", ErrNoShell, name)
}

// selfID is guard-exec's own file, stat'ed when a candidate is found, not
// before: most PATH entries hold no bash, and each costs one lstat only.
type selfID struct {
	path string
	done bool
	ok   bool
	st   unix.Stat_t
}

// is reports whether st is guard-exec's own file (the same device and
// inode, as os.SameFile compares).
func (s *selfID) is(st *unix.Stat_t) bool {
	if !s.done {
		s.done = true
		s.ok = s.path != "" && unix.Stat(s.path, &s.st) == nil
	}
	return s.ok && st.Dev == s.st.Dev && st.Ino == s.st.Ino
}

// isRealShell looks at one candidate with plain stat calls: os.Lstat would
// build a FileInfo, and for each missing candidate an error value, on
// every command. It also returns the size of the file the candidate names.
func isRealShell(cand string, self *selfID) (bool, int64) {
	// Lstat first: a candidate that is not a symlink keeps its own name
	// whatever links its directories go through, so only a symlink needs
	// the walk of EvalSymlinks (three more system calls for /usr/bin/bash).
	var st unix.Stat_t
	if unix.Lstat(cand, &st) != nil {
		return false, 0
	}
	link := st.Mode&unix.S_IFMT == unix.S_IFLNK
	if link && unix.Stat(cand, &st) != nil {
		return false, 0
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || st.Mode&0o111 == 0 {
		return false, 0
	}
	if self.is(&st) {
		return false, 0
	}
	if !link {
		return !strings.HasPrefix(filepath.Base(cand), selfName), st.Size
	}
	resolved, err := filepath.EvalSymlinks(cand)
	if err != nil {
		return false, 0
	}
	return !strings.HasPrefix(filepath.Base(resolved), selfName), st.Size
}
