package policy

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

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
	// Under is, for a dynamic word whose known prefix names a directory
	// ("/etc/$X", "$HOME/.ssh/$K"), that directory: the target is
	// somewhere below it. "" otherwise.
	Under string

	// raw is the absolute path before cleaning. The kernel resolves ".."
	// after following the symlink before it ("keys/../.bashrc" with keys →
	// ~/.ssh is ~/.bashrc), so resolution must start from it, not from
	// Path, which the lexical Clean already collapsed.
	raw string
	// listed is set when raw is the word itself and the analysis found it
	// listing its directory (parse.Word.Listed): it exists, and locate
	// does not stat it again — rm -rf /* is twenty entries of / the
	// glob has just read. A target derived from another word (cp's file
	// in its destination directory) never carries it.
	listed bool
}

// target resolves a path word against the command's working directory.
func (x *Ctx) target(c *parse.Command, w parse.Word) Target {
	t := Target{Word: w, Glob: w.Glob}
	// c.Dir is "" after a cd to a place the analysis cannot know: a
	// relative path is then unknown too.
	dir := c.Dir
	v := w.Value
	if w.Dynamic {
		// A known prefix with a directory still says where it lands:
		// "/etc/"+$X is somewhere in /etc.
		if k := w.Known(); strings.Contains(k, "/") {
			if u, ok := x.absolute(dir, globBase(k[:strings.LastIndexByte(k, '/')+1])); ok {
				t.Under = filepath.Clean(u)
			}
		} else if k == "" && c.Placeholder && c.FeedersOfWord(w) == nil {
			// What find -exec or xargs supplies lands under find's roots
			// (find /etc … | xargs rm): judge it there, outermost root
			// first.
			for _, d := range x.placeholderDirs(c) {
				if t.Under == "" || !x.inWriteRoots(d) {
					t.Under = d
				}
			}
		}
		return t
	}
	if w.Glob {
		v = globBase(v)
	}
	abs, ok := x.absolute(dir, v)
	if !ok {
		return t
	}
	t.raw, t.Path, t.Known = abs, filepath.Clean(abs), true
	t.listed = w.Listed && !w.Glob
	return t
}

// absolute makes v absolute: "~" is the home directory, a relative path is
// relative to dir. It reports false when that cannot be known.
func (x *Ctx) absolute(dir, v string) (string, bool) {
	switch {
	case v == "~" || strings.HasPrefix(v, "~/"):
		if x.Home == "" {
			return "", false
		}
		return x.Home + v[1:], true
	case filepath.IsAbs(v):
		return v, true
	case dir == "":
		return "", false
	case v == "":
		return dir, true
	}
	return dir + "/" + v, true
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
	return strings.HasPrefix(p, root) && p[len(root)] == '/'
}

// inWriteRoots reports whether p, a resolved path, is inside one of the
// allowed write roots (project, temp dirs, caches, configured roots). The
// roots are compared both as given and with their symlinks resolved, so a
// TMPDIR that is itself a link (macOS /tmp → /private/tmp) still holds the
// resolved paths of the files under it; they are resolved only when a
// path is outside their literal forms.
func (x *Ctx) inWriteRoots(p string) bool {
	for _, r := range x.WriteRoots {
		if within(p, r) {
			return true
		}
	}
	for _, r := range x.resolvedRoots() {
		if within(p, r) {
			return true
		}
	}
	return false
}

// resolvedRoots resolves the write roots once per decision.
func (x *Ctx) resolvedRoots() []string {
	b := x.state()
	if !b.rootsDone {
		b.rootsDone = true
		for _, r := range x.WriteRoots {
			if rr, _ := x.lookupDir(filepath.Clean(r), 0); rr != r {
				b.roots = append(b.roots, rr)
			}
		}
	}
	return b.roots
}

// resolve follows symlinks in the existing part of p, so that a link in the
// project pointing at ~/.ssh is judged as ~/.ssh. p is absolute; it may
// hold "." and ".." components, which are taken after the links before
// them, as the kernel does.
func (x *Ctx) resolve(p string) string {
	r, _ := x.lookup(p)
	return r
}

// lookup resolves p and reports whether it exists. Rules ask about the
// same paths several times in one decision (where a write lands, what
// place it is, whether it is a credential): about half the Lstats of a
// batch were the one just made. The answers are kept for the decision;
// nothing changes on disk while it is made.
func (x *Ctx) lookup(p string) (string, bool) {
	b := x.state()
	if d, ok := b.looked[p]; ok {
		return d.path, d.exists
	}
	var d dirLookup
	d.path, d.exists = x.lookupN(p, 0)
	if b.looked == nil {
		b.looked = map[string]dirLookup{}
	}
	b.looked[p] = d
	return d.path, d.exists
}

// maxLinks bounds the symlinks followed for one path, as the kernel does
// (ELOOP).
const maxLinks = 40

// lookupN walks p one component at a time: the directory part is resolved
// once per decision (or per cache), the last component costs one Lstat,
// and a symlink is followed to where it points — also when that does not
// exist yet, since a write through a dangling link creates its target.
func (x *Ctx) lookupN(p string, links int) (string, bool) {
	dir, base := splitLast(p)
	if base == "" {
		return "/", true
	}
	rd, ok := x.lookupDir(dir, links)
	switch base {
	case ".":
		return rd, ok
	case "..":
		return filepath.Dir(rd), ok
	}
	cand := filepath.Join(rd, base)
	if !ok {
		return cand, false
	}
	fi, err := x.fs().Lstat(cand)
	if err != nil {
		return cand, false
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return cand, true
	}
	if links >= maxLinks {
		return cand, false
	}
	if rl, ok := x.fs().(readlinker); ok {
		if t, err := rl.Readlink(cand); err == nil {
			if !filepath.IsAbs(t) {
				t = rd + "/" + t
			}
			return x.lookupN(t, links+1)
		}
	}
	if r, err := x.fs().EvalSymlinks(cand); err == nil {
		return r, true
	}
	return cand, false
}

// readlinker is the optional part of an FS that reads a symlink's target;
// without it links are followed with EvalSymlinks, which cannot follow a
// dangling one.
type readlinker interface {
	Readlink(name string) (string, error)
}

// Readlink reads a symlink's target.
func (OSFS) Readlink(name string) (string, error) { return os.Readlink(name) }

// dirLookup is a resolved directory.
type dirLookup struct {
	path   string
	exists bool
}

// PathCache remembers resolved directories across decisions: check
// --batch judges thousands of command lines in the same few directories.
// It assumes the directories do not change while it lives, which holds
// for a guard that decides without running anything. Safe for concurrent
// use.
type PathCache struct {
	mu    sync.Mutex
	dirs  map[string]dirLookup
	selfs []*selfMemo // guard-exec's own paths, per world they were built for (rules_self.go)
}

// maxSelfMemos bounds the self sets a cache remembers: one per project
// and environment a batch judges in.
const maxSelfMemos = 16

func (pc *PathCache) selfSet(x *Ctx) *selfSet {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	for _, m := range pc.selfs {
		if m.builtFor(x) {
			return m.set
		}
	}
	return nil
}

func (pc *PathCache) putSelfSet(m *selfMemo) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if len(pc.selfs) < maxSelfMemos {
		pc.selfs = append(pc.selfs, m)
	}
}

// NewPathCache returns an empty cache.
func NewPathCache() *PathCache { return &PathCache{dirs: map[string]dirLookup{}} }

// maxDirCache bounds the directories a cache remembers.
const maxDirCache = 4096

func (pc *PathCache) get(dir string) (dirLookup, bool) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	d, ok := pc.dirs[dir]
	return d, ok
}

func (pc *PathCache) put(dir string, d dirLookup) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if len(pc.dirs) < maxDirCache {
		pc.dirs[dir] = d
	}
}

// lookupDir resolves a directory, remembering the answer for the decision
// (or in Ctx.Paths, across decisions). A directory that does not exist is
// its resolved parent joined with its name.
func (x *Ctx) lookupDir(dir string, links int) (string, bool) {
	if dir == "/" {
		return "/", true
	}
	pc := x.Paths
	if pc == nil {
		b := x.state()
		if b.dirs == nil {
			b.dirs = NewPathCache()
		}
		pc = b.dirs
	}
	if d, ok := pc.get(dir); ok {
		return d.path, d.exists
	}
	var d dirLookup
	d.path, d.exists = x.lookupN(dir, links)
	pc.put(dir, d)
	return d.path, d.exists
}

// splitLast splits an absolute path at its last component, ignoring
// trailing slashes: "/a/b/" → "/a", "b".
func splitLast(p string) (string, string) {
	p = strings.TrimRight(p, "/")
	if p == "" {
		return "/", ""
	}
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/", p[i+1:]
	}
	return p[:i], p[i+1:]
}

// locate resolves a target for judging a write: the resolved path and
// whether it exists. With follow false the last component is not followed
// when it is a symlink — rm, unlink, ln -f and mv act on the link itself,
// not on what it points at.
func (x *Ctx) locate(t Target, follow bool) (string, bool) {
	raw := t.raw
	if raw == "" {
		raw = t.Path
	}
	if follow {
		return x.lookup(raw)
	}
	dir, base := splitLast(raw)
	if base == ".." || base == "." || base == "" {
		return x.lookup(raw)
	}
	rd, _ := x.lookupDir(dir, 0)
	p := filepath.Join(rd, base)
	// Kept for the decision, as lookup's answers are: every glob of
	// rm -rf ~/{a..z}* is judged against the home directory itself.
	if t.listed {
		return p, true
	}
	b := x.state()
	if exists, ok := b.lstated[p]; ok {
		return p, exists
	}
	_, err := x.fs().Lstat(p)
	if b.lstated == nil {
		b.lstated = map[string]bool{}
	}
	b.lstated[p] = err == nil
	return p, err == nil
}
