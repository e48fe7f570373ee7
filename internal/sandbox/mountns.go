package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
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
		rp, err := filepath.EvalSymlinks(p)
		if err != nil {
			continue // missing: reported as NotExisted by the caller's check
		}
		root := rootOf(rp, s.WriteRoots)
		if root == "" {
			continue
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

// rootOf is the innermost write root holding p ("" when none does).
// Roots are compared after resolving their symlinks, as p is.
func rootOf(p string, roots []string) string {
	best := ""
	for _, r := range roots {
		if rr, err := filepath.EvalSymlinks(r); err == nil {
			r = rr
		}
		if (p == r || strings.HasPrefix(p, r+"/") || r == "/") && len(r) > len(best) {
			best = r
		}
	}
	return best
}

// enterMountNS gives the calling thread a mount namespace of its own with
// binds made in it. Mounts do not propagate back: the namespace is made a
// slave of the caller's first. A namespace that cannot be made (no
// CAP_SYS_ADMIN) is reported as not made, not as an error: the caller
// falls back to journaling; a namespace made but not finished is an error.
func enterMountNS(s *Spec, binds []bind) (made bool, bound []string, err error) {
	if len(binds) == 0 || s.NoMountNamespace || os.Getenv(NoMountNSEnv) == "1" {
		return false, nil, nil
	}
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return false, nil, nil
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_SLAVE, ""); err != nil {
		return false, nil, fmt.Errorf("mount namespace: %w", err)
	}
	for _, b := range binds {
		if err := unix.Mount(b.path, b.path, "", unix.MS_BIND, ""); err != nil {
			return false, nil, fmt.Errorf("bind %s: %w", b.path, err)
		}
		if !b.readOnly {
			continue
		}
		var st unix.Statfs_t
		flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY)
		if unix.Statfs(b.path, &st) == nil {
			flags |= uintptr(st.Flags) & (unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC | unix.MS_NOATIME | unix.MS_NODIRATIME | unix.MS_RELATIME)
		}
		if err := unix.Mount("", b.path, "", flags, ""); err != nil {
			return false, nil, fmt.Errorf("read-only %s: %w", b.path, err)
		}
		bound = append(bound, b.path)
	}
	return true, bound, nil
}
