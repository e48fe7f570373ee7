package worktree

import (
	"os"
	"path/filepath"
	"time"
)

// DefaultMaxEntries bounds a walk: files and directories looked at.
const DefaultMaxEntries = 20_000

// SkipNames are directory names never entered, nor looked at themselves:
// version control data (a read-only `git status` rewrites .git/index),
// dependency trees and caches that tools rewrite on their own, and
// guard-exec's own ledger.
var SkipNames = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".jj": true,
	".guard-exec":  true,
	"node_modules": true, "vendor": true, "target": true,
	".venv": true, "venv": true, "__pycache__": true, ".pytest_cache": true, ".mypy_cache": true,
	".ruff_cache": true, ".tox": true, ".nox": true,
	".gradle": true, ".next": true, ".nuxt": true, ".turbo": true, ".parcel-cache": true, ".cache": true,
}

// Interval is a stretch of time whose changes do not count: a run of the
// watched command itself, which may write files of its own (caches,
// reports, build output) without anyone changing the project.
type Interval struct{ From, To time.Time }

// Options tune a walk. The zero value is the default.
type Options struct {
	Quiet      []Interval
	Skip       []string // absolute paths neither walked nor looked at (the ledger, a temp dir inside the project)
	MaxEntries int      // default DefaultMaxEntries
	// NoGit stops a walk that reached MaxEntries from asking git about the
	// rest of a repository (see gitChanged).
	NoGit bool
}

// Result is what a walk found.
type Result struct {
	Changed bool
	Path    string // the first changed entry found, absolute; "" when none
	Entries int    // entries looked at
	// Incomplete is set when the walk could not look at everything and
	// found no change: it stopped at MaxEntries, or root could not be
	// read. Nothing can then be said about the rest of the tree.
	Incomplete bool
	// Git is set when the walk reached MaxEntries in a git repository and
	// git status answered for the rest.
	Git bool
}

// ChangedSince walks root breadth-first and reports the first entry whose
// change time is after since and outside every quiet interval. An entry
// that cannot be read is passed over: it cannot be shown to have changed.
func ChangedSince(root string, since time.Time, opt Options) Result {
	max := opt.MaxEntries
	if max <= 0 {
		max = DefaultMaxEntries
	}
	w := walker{since: since, quiet: opt.Quiet, max: max, skip: map[string]bool{}}
	for _, s := range opt.Skip {
		w.skip[filepath.Clean(s)] = true
	}
	root = filepath.Clean(root)
	// The root may be reached through a symbolic link (a project kept
	// elsewhere and linked into place): it is followed, unlike any link
	// inside.
	t, ok := changeTime(root)
	if !ok {
		return Result{Incomplete: true}
	}
	if w.counts(t) {
		return Result{Changed: true, Path: root, Entries: 1}
	}
	w.res.Entries = 1
	queue := []string{root}
	for i := 0; i < len(queue) && !w.done(); i++ {
		queue = w.dir(queue[i], i == 0, queue)
		queue[i] = ""
	}
	if w.res.Incomplete && w.res.Entries >= max && !opt.NoGit && isRepo(root) {
		if changed, path, ok := w.gitChanged(root); ok {
			w.res.Changed, w.res.Path, w.res.Incomplete, w.res.Git = changed, path, false, true
		}
	}
	return w.res
}

// isRepo reports whether root is the top of a git work tree (a .git
// directory, or a file for worktrees and submodules).
func isRepo(root string) bool {
	_, err := os.Lstat(filepath.Join(root, ".git"))
	return err == nil
}

type walker struct {
	since time.Time
	quiet []Interval
	max   int
	skip  map[string]bool
	res   Result
}

func (w *walker) done() bool { return w.res.Changed || w.res.Incomplete }

// counts reports whether a change at t is one the caller asked about.
func (w *walker) counts(t time.Time) bool {
	if !t.After(w.since) {
		return false
	}
	for _, q := range w.quiet {
		if !t.Before(q.From) && !t.After(q.To) {
			return false
		}
	}
	return true
}

// dir looks at the entries of one directory and returns the queue with its
// subdirectories added.
func (w *walker) dir(dir string, root bool, queue []string) []string {
	d, err := openDir(dir, root)
	if err != nil {
		if root {
			w.res.Incomplete = true
		}
		return queue
	}
	defer d.close()
	for {
		names, err := d.names()
		for _, name := range names {
			if SkipNames[name] {
				continue
			}
			path := dir + string(os.PathSeparator) + name
			if w.skip[path] {
				continue
			}
			if w.res.Entries >= w.max {
				w.res.Incomplete = true
				return queue
			}
			w.res.Entries++
			t, isDir, ok := d.stat(name)
			if !ok {
				continue
			}
			if w.counts(t) {
				w.res.Changed, w.res.Path = true, path
				return queue
			}
			if isDir {
				queue = append(queue, path)
			}
		}
		if err != nil || len(names) == 0 {
			return queue
		}
	}
}
