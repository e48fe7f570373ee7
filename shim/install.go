package shim

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Names are the shells a shim directory stands in for.
var Names = []string{"bash", "sh"}

// Install makes dir hold a bash and an sh that are guard-exec: symbolic
// links to target, the guard-exec executable (resolved, so the links keep
// working when the path used to start it was itself a link). An existing
// entry is replaced only when it is guard-exec already (an earlier
// install, possibly of a binary that has since moved); anything else is
// left alone and reported, so a shim install never hides a real shell.
func Install(dir, target string) error {
	real, err := resolveTarget(target)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, name := range Names {
		p := filepath.Join(dir, name)
		if _, err := os.Lstat(p); err == nil && !isOurs(p, real) {
			return fmt.Errorf("%s exists and is not guard-exec; remove it or install into another directory", p)
		}
		// Replace atomically: a shell started while installing finds
		// either the old entry or the new one, never none.
		tmp := p + ".tmp-" + strconv.Itoa(os.Getpid())
		os.Remove(tmp)
		if err := os.Symlink(real, tmp); err != nil {
			return err
		}
		if err := os.Rename(tmp, p); err != nil {
			os.Remove(tmp)
			return err
		}
	}
	return nil
}

// resolveTarget checks that target is an executable file and returns its
// absolute, symlink-free path.
func resolveTarget(target string) (string, error) {
	abs, err := filepath.Abs(target)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("guard-exec executable: %w", err)
	}
	info, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !info.Mode().IsRegular() || info.Mode().Perm()&0o111 == 0 {
		return "", fmt.Errorf("%s is not an executable file", real)
	}
	return real, nil
}

// isOurs reports whether the entry at p is guard-exec: it is the same file
// as self, resolves to a guard-exec binary, or is a dangling link whose
// target was named guard-exec (the binary of an earlier install, moved or
// removed).
func isOurs(p, self string) bool {
	if IsGuardExec(p, self) {
		return true
	}
	dest, err := os.Readlink(p)
	if err != nil {
		return false
	}
	if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	return strings.HasPrefix(filepath.Base(dest), selfName)
}

// Uninstall removes the bash and sh entries of dir that are guard-exec,
// then dir itself when nothing else is left in it. It returns the entries
// removed; an entry that is not guard-exec is kept and reported.
func Uninstall(dir, self string) ([]string, error) {
	var removed []string
	var errs []error
	for _, name := range Names {
		p := filepath.Join(dir, name)
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if !isOurs(p, self) {
			errs = append(errs, fmt.Errorf("%s is not guard-exec; left in place", p))
			continue
		}
		if err := os.Remove(p); err != nil {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, p)
	}
	os.Remove(dir) // only succeeds when empty
	return removed, errors.Join(errs...)
}

// Link is the state of one entry of a shim directory.
type Link struct {
	Name   string // bash or sh
	Path   string // DIR/NAME
	Exists bool
	Ours   bool   // it is guard-exec
	Target string // where it resolves to, when it resolves
	// Found is what PATH finds for Name (the first executable of that
	// name); the shim works only when that is Path.
	Found string
}

// Active reports whether the entry exists, is guard-exec, and is what PATH
// finds for its name.
func (l Link) Active() bool {
	return l.Exists && l.Ours && l.Found != "" && sameEntry(l.Found, l.Path)
}

// Status describes dir's entries and how PATH sees them.
func Status(dir, pathEnv, self string) []Link {
	out := make([]Link, 0, len(Names))
	for _, name := range Names {
		l := Link{Name: name, Path: filepath.Join(dir, name)}
		if _, err := os.Lstat(l.Path); err == nil {
			l.Exists = true
			l.Ours = isOurs(l.Path, self)
			if t, err := filepath.EvalSymlinks(l.Path); err == nil {
				l.Target = t
			}
		}
		l.Found = LookPath(name, pathEnv)
		out = append(out, l)
	}
	return out
}

// OnPath reports where dir appears on pathEnv: the 0-based index of its
// first appearance among the entries, or -1.
func OnPath(dir, pathEnv string) int {
	want, err := os.Stat(dir)
	for i, d := range filepath.SplitList(pathEnv) {
		if !filepath.IsAbs(d) {
			continue
		}
		if filepath.Clean(d) == filepath.Clean(dir) {
			return i
		}
		if got, err2 := os.Stat(d); err == nil && err2 == nil && os.SameFile(got, want) {
			return i
		}
	}
	return -1
}

// LookPath returns the first executable regular file called name in the
// absolute entries of pathEnv, as a shell's command search finds it; "" if
// there is none.
func LookPath(name, pathEnv string) string {
	for _, d := range filepath.SplitList(pathEnv) {
		if !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, name)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// sameEntry reports whether two paths name the same directory entry: equal
// once cleaned, or the same directory holding the same name (a shim
// directory reached through a symlinked parent).
func sameEntry(a, b string) bool {
	a, b = filepath.Clean(a), filepath.Clean(b)
	if a == b {
		return true
	}
	if filepath.Base(a) != filepath.Base(b) {
		return false
	}
	da, err1 := os.Stat(filepath.Dir(a))
	db, err2 := os.Stat(filepath.Dir(b))
	return err1 == nil && err2 == nil && os.SameFile(da, db)
}
