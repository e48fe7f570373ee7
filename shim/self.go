package shim

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// MainPackage is guard-exec's import path, as its build information
// records it. A file whose build information names it is guard-exec,
// whatever the file is called.
const MainPackage = "github.com/guard-exec/guard-exec/cmd/guard-exec"

// IsGuardExec reports whether the executable at path is guard-exec: the same
// file as self (a symlink or a hard link to it), a file that resolves to a
// name starting with "guard-exec", or a copy of a guard-exec binary under
// any name (its Go build information names MainPackage). A copy installed
// as bash next to another copy would otherwise take the other for the real
// shell, and the two would start each other forever.
func IsGuardExec(path, self string) bool {
	info, err := os.Stat(path)
	if err != nil {
		return false
	}
	if self != "" {
		if s, err := os.Stat(self); err == nil && os.SameFile(info, s) {
			return true
		}
	}
	if resolved, err := filepath.EvalSymlinks(path); err == nil &&
		strings.HasPrefix(filepath.Base(resolved), selfName) {
		return true
	}
	return isGuardCopy(path)
}

// goNote is the start of the ELF note the Go linker writes at the front of
// every binary (name "Go", type 4: the build id), within its first page.
// Only files that have it pay for reading their build information.
var goNote = []byte("\x04\x00\x00\x00Go\x00\x00")

// minGuardSize is below the size of any guard-exec build (it links a shell
// parser and the Go runtime: several MiB even stripped). Smaller files —
// bash, dash, zsh — are not opened at all, which keeps the check to one
// stat on every command.
const minGuardSize = 2 << 20

func isGuardCopy(path string) bool {
	info, err := os.Stat(path)
	return err == nil && isGuardCopySized(path, info.Size())
}

// isGuardCopySized is isGuardCopy for a file whose size is known.
func isGuardCopySized(path string, size int64) bool {
	if size < minGuardSize {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	head := make([]byte, 4096)
	n, _ := f.ReadAt(head, 0)
	f.Close()
	if !bytes.HasPrefix(head[:n], []byte("\x7fELF")) || !bytes.Contains(head[:n], goNote) {
		return false
	}
	main, ok := goMainPath(path)
	return ok && main == MainPackage
}

// DefaultPath is searched for the real shell when PATH is not set at all
// (env -i), as bash itself falls back to a built-in search path.
const DefaultPath = "/usr/local/bin:/usr/bin:/bin"

// fallbackPath is searched when PATH holds no real shell.
const fallbackPath = "/bin:/usr/bin"

// FindShell is FindRealShell made safe against copies of guard-exec: a
// candidate that is guard-exec under another name is skipped, its directory
// dropped from the search, and the search goes on. With pathSet false (no
// PATH in the environment) DefaultPath is searched.
func FindShell(name, pathEnv string, pathSet bool, self string) (string, error) {
	if !pathSet {
		pathEnv = DefaultPath
	}
	for range 64 {
		p, size, err := findRealShell(name, pathEnv, self)
		if errors.Is(err, ErrNoShell) && pathEnv != fallbackPath {
			// No real shell on PATH (PATH=/nonexistent bash -c …): bash's
			// caller found bash without PATH, and so does the guard, in the
			// places a system keeps it.
			pathEnv, err = fallbackPath, nil
			continue
		}
		if err != nil {
			return "", noShell(name, err)
		}
		if !isGuardCopySized(p, size) {
			return p, nil
		}
		pathEnv = dropDir(pathEnv, filepath.Dir(p))
	}
	return "", noShell(name, ErrNoShell)
}

func noShell(name string, err error) error {
	if !errors.Is(err, ErrNoShell) {
		return err
	}
	return fmt.Errorf("%w: every %s on PATH is guard-exec or missing; put the directory of the real %s on PATH after the shim directory", ErrNoShell, name, name)
}

// dropDir removes every PATH entry naming dir.
func dropDir(pathEnv, dir string) string {
	var keep []string
	for _, d := range filepath.SplitList(pathEnv) {
		if filepath.Clean(d) != dir {
			keep = append(keep, d)
		}
	}
	return strings.Join(keep, string(filepath.ListSeparator))
}
