package sandbox

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A Journal keeps what a command must not change inside the write roots
// where the kernel cannot keep it: protected paths that did not exist when
// the command started (nothing to bind read-only; whatever the command
// makes there is moved aside afterwards), and, where no mount namespace
// can be made, the contents of the protected files themselves (put back
// afterwards). It is the fallback: a bind is enforced while the command
// runs, a journal only repairs after it, so a change lives for the
// command's duration and a change to a protected file bigger than the
// journal's bounds is reported, not undone.
type Journal struct {
	absent []string         // protected paths inside a root that did not exist
	files  map[string]entry // path → what it held (full journal only)
	dirs   map[string]bool  // journaled directories: anything new in them goes
	over   []string         // protected paths too big to journal
}

type entry struct {
	data []byte
	mode fs.FileMode
	dir  bool
}

// Bounds of a full journal.
const (
	journalMaxBytes   = 4 << 20
	journalMaxEntries = 4096
)

// CanMountNS reports whether Start can give a command a mount namespace:
// the thread needs CAP_SYS_ADMIN (a user namespace, which would give it,
// cannot be entered by a multithreaded process).
func CanMountNS() bool {
	if os.Getenv(NoMountNSEnv) == "1" {
		return false
	}
	canMountNS.Do(func() { canMountNS.v = hasSysAdmin() })
	return canMountNS.v
}

var canMountNS struct {
	sync.Once
	v bool
}

// TakeJournal records the protected paths of s inside its roots before
// the command starts: always which are absent; with full, the contents of
// those that exist.
func TakeJournal(s *Spec, full bool) *Journal {
	j := &Journal{files: map[string]entry{}, dirs: map[string]bool{}}
	s.cleanRoots()
	budget := journalMaxBytes
	for _, p := range s.Protected {
		if rootOf(p, s.WriteRoots) == "" && (!s.rootsLinked() || rootOf(resolveParent(p), s.realRoots()) == "") {
			continue // outside every root: Landlock keeps it
		}
		fi, err := os.Lstat(p)
		if err != nil {
			j.absent = append(j.absent, p)
			continue
		}
		if !full || live(p, s.Live) {
			continue
		}
		if !j.take(p, fi, &budget) {
			j.over = append(j.over, p)
		}
	}
	return j
}

// resolveParent resolves p's directory (p itself may not exist).
func resolveParent(p string) string {
	if d, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		return filepath.Join(d, filepath.Base(p))
	}
	return p
}

func (j *Journal) take(p string, fi fs.FileInfo, budget *int) bool {
	ok := true
	err := filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if len(j.files) >= journalMaxEntries {
			ok = false
			return filepath.SkipAll
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		switch {
		case d.IsDir():
			j.files[q] = entry{dir: true, mode: info.Mode().Perm()}
			j.dirs[q] = true
		case info.Mode().IsRegular():
			if int(info.Size()) > *budget {
				ok = false
				return filepath.SkipAll
			}
			b, err := os.ReadFile(q)
			if err != nil {
				return nil
			}
			*budget -= len(b)
			j.files[q] = entry{data: b, mode: info.Mode().Perm()}
		}
		return nil
	})
	return ok && err == nil
}

// Restore undoes what the command changed in the journaled paths and
// moves aside (into aside, a directory it creates) whatever it made where
// a protected path was absent. It returns the paths it repaired, and the
// protected ones too big to journal.
func (j *Journal) Restore(aside string) (repaired []string) {
	for _, p := range j.absent {
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		dst := filepath.Join(aside, strconv.FormatInt(time.Now().UnixNano(), 36)+"-"+filepath.Base(p))
		if os.MkdirAll(aside, 0o700) == nil && os.Rename(p, dst) == nil {
			repaired = append(repaired, p)
		} else if os.RemoveAll(p) == nil {
			repaired = append(repaired, p)
		}
	}
	changed := map[string]bool{}
	// What is new in a journaled directory goes; what changed or went
	// missing comes back.
	for d := range j.dirs {
		_ = filepath.WalkDir(d, func(q string, de fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if _, ok := j.files[q]; !ok {
				os.RemoveAll(q)
				changed[q] = true
				if de.IsDir() {
					return filepath.SkipDir
				}
			}
			return nil
		})
	}
	for q, e := range j.files {
		if e.dir {
			if fi, err := os.Lstat(q); err != nil || !fi.IsDir() {
				os.RemoveAll(q)
				os.MkdirAll(q, e.mode)
				changed[q] = true
			}
			continue
		}
		cur, err := os.ReadFile(q)
		if fi, lerr := os.Lstat(q); err == nil && lerr == nil && fi.Mode().IsRegular() && bytes.Equal(cur, e.data) {
			continue
		}
		os.RemoveAll(q)
		os.MkdirAll(filepath.Dir(q), 0o755)
		if os.WriteFile(q, e.data, e.mode) == nil {
			changed[q] = true
		}
	}
	for q := range changed {
		repaired = append(repaired, q)
	}
	return append(repaired, j.over...)
}

func live(p string, list []string) bool {
	for _, l := range list {
		if p == l || strings.HasPrefix(p, l+"/") {
			return true
		}
	}
	return false
}
