package policy

import (
	"path/filepath"
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// Target is a path argument as policy sees it.
type Target struct {
	Word parse.Word
	// Path is absolute and cleaned when Known; for a glob it is the
	// directory the pattern starts in.
	Path  string
	Known bool
	Glob  bool // the word is a pattern (rm -rf /*): it names everything under Path
}

// target resolves a path word against the command's working directory.
func (x *Ctx) target(c *parse.Command, w parse.Word) Target {
	t := Target{Word: w, Glob: w.Glob}
	v := w.Value
	if w.Dynamic {
		// Known prefix of an absolute path still says where it lands:
		// "/"+$X is somewhere under /, which is as bad as /.
		return t
	}
	if w.Glob {
		v = globBase(v)
	}
	switch {
	case v == "~" || strings.HasPrefix(v, "~/"):
		if x.Home == "" {
			return t
		}
		v = x.Home + v[1:]
	case !filepath.IsAbs(v):
		dir := c.Dir
		if dir == "" {
			dir = x.Cwd
		}
		if dir == "" {
			return t
		}
		v = filepath.Join(dir, v)
	}
	t.Path, t.Known = filepath.Clean(v), true
	return t
}

// globBase is the directory part of a pattern before its first
// metacharacter: "/*" → "/", "build/*.o" → "build", "~/.*" → "~".
func globBase(p string) string {
	i := strings.IndexAny(p, "*?[")
	if i < 0 {
		return p
	}
	dir := p[:i]
	if j := strings.LastIndexByte(dir, '/'); j >= 0 {
		if j == 0 {
			return "/"
		}
		return dir[:j]
	}
	return "."
}

// within reports whether p is root or below it.
func within(p, root string) bool {
	if root == "" {
		return false
	}
	if p == root || root == "/" {
		return true
	}
	return strings.HasPrefix(p, root+"/")
}

// inWriteRoots reports whether p is inside one of the allowed write roots
// (project, temp dirs, caches, configured roots).
func (x *Ctx) inWriteRoots(p string) bool {
	for _, r := range x.WriteRoots {
		if within(p, r) {
			return true
		}
	}
	return false
}

// resolve follows symlinks in the existing part of p, so that a link in the
// project pointing at ~/.ssh is judged as ~/.ssh.
func (x *Ctx) resolve(p string) string {
	if r, err := x.fs().EvalSymlinks(p); err == nil {
		return r
	}
	// The path does not exist: resolve its nearest existing parent.
	dir, base := filepath.Split(p)
	dir = filepath.Clean(dir)
	if dir == p || dir == "." {
		return p
	}
	return filepath.Join(x.resolve(dir), base)
}
