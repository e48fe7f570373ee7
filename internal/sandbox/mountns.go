package sandbox

import (
	"os"
	"path/filepath"
	"strings"
)

// NoMountNSEnv, set to 1, makes the sandbox behave as where no mount
// namespace can be made (an unprivileged user: a multithreaded process
// cannot enter a user namespace), so the journal fallback is tested too.
const NoMountNSEnv = "GUARD_EXEC_SANDBOX_NO_MOUNTNS"

// bind is one mount made in the command's namespace.
type bind struct {
	path     string
	readOnly bool // false: a pin (see bindsFor)
}

// bindsFor lists the mounts that make s's protected paths read-only:
// only those inside a write root need one (outside, Landlock already
// refuses every write). Each protected path is bound read-only onto
// itself; each directory between its root and it is bound onto itself
// read-write first, because a mount point cannot be renamed or removed:
// without that pin, `mv .git .g; mkdir -p .git/hooks` in one command and
// `mv .g/objects …` in the next would trade the protected directory for
// an unprotected one.
func bindsFor(s *Spec) []bind {
	var out []bind
	seen := map[string]bool{}
	for _, p := range s.Protected {
		p = filepath.Clean(p)
		// As written, p is compared with the roots as written: one lstat.
		// Only a path outside them all, where some root is a symlink, is
		// resolved to be sure (a mount follows symlinks by itself).
		rp, root := p, rootOf(p, s.WriteRoots)
		if root != "" {
			if _, err := os.Lstat(p); err != nil {
				continue // missing: the journal reports what appears there
			}
		} else {
			if !s.rootsLinked() {
				continue // outside every root: Landlock refuses its writes already
			}
			var err error
			if rp, err = filepath.EvalSymlinks(p); err != nil {
				continue
			}
			if root = rootOf(rp, s.realRoots()); root == "" {
				continue
			}
		}
		rel, _ := filepath.Rel(root, rp)
		parts := strings.Split(rel, string(filepath.Separator))
		dir := root
		for _, part := range parts[:len(parts)-1] {
			dir = filepath.Join(dir, part)
			if !seen[dir] {
				seen[dir] = true
				out = append(out, bind{path: dir})
			}
		}
		if !seen[rp] {
			seen[rp] = true
			out = append(out, bind{path: rp, readOnly: true})
		} else {
			for i := range out {
				if out[i].path == rp {
					out[i].readOnly = true
				}
			}
		}
	}
	return out
}

// rootOf is the innermost write root holding p ("" when none does);
// both are clean paths (Spec.WriteRoots are cleaned once, in Start).
func rootOf(p string, roots []string) string {
	best := ""
	for _, r := range roots {
		if (p == r || strings.HasPrefix(p, r+"/") || r == "/") && len(r) > len(best) {
			best = r
		}
	}
	return best
}

// rootsLinked reports whether some write root is reached through a
// symlink, so a path outside every root as written may be inside one.
func (s *Spec) rootsLinked() bool {
	real := s.realRoots()
	for i, r := range s.WriteRoots {
		if real[i] != filepath.Clean(r) {
			return true
		}
	}
	return false
}

// realRoots are the write roots with symlinks resolved, once per Spec
// (the binds and the journal both compare every protected path with
// every root).
func (s *Spec) realRoots() []string {
	if s.real == nil {
		s.real = make([]string, 0, len(s.WriteRoots))
		res := resolver{}
		for _, r := range s.WriteRoots {
			if rr, err := res.resolve(r); err == nil {
				r = rr
			}
			s.real = append(s.real, r)
		}
	}
	return s.real
}

// resolver is filepath.EvalSymlinks for many absolute paths, remembering
// the directories it has resolved: a dozen write roots under the home
// directory (~/.cache, ~/.cargo/registry, ~/.cargo/git …) lstat the home
// directory once, not once each, which was 18 of a sandboxed command's
// system calls.
type resolver map[string]string

// resolve returns p with its symlinks resolved, as filepath.EvalSymlinks
// would: when p's last component is not a symlink, its real path is its
// directory's real path and that name; when it is one, EvalSymlinks
// follows it.
func (r resolver) resolve(p string) (string, error) {
	p = filepath.Clean(p)
	if p == "/" || !filepath.IsAbs(p) {
		return filepath.EvalSymlinks(p)
	}
	if rp, ok := r[p]; ok {
		return rp, nil
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return "", err
	}
	var rp string
	if fi.Mode()&os.ModeSymlink != 0 {
		if rp, err = filepath.EvalSymlinks(p); err != nil {
			return "", err
		}
	} else {
		dir, err := r.resolve(filepath.Dir(p))
		if err != nil {
			return "", err
		}
		rp = filepath.Join(dir, filepath.Base(p))
	}
	r[p] = rp
	return rp, nil
}
