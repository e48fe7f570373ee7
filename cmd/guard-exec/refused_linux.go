package main

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// refusedByKernel reports whether err, a failure to write the ledger, is
// a kernel sandbox refusing the write rather than the file system: the
// process has no_new_privs (confined: every sandboxed process has it, and
// nothing inside can clear it), and the write that failed is one the file
// system would allow.
//
//   - EACCES or EPERM where access(2) grants the write: the file's modes and
//     owner allow it, and something access(2) does not consult refused it,
//     which is how Landlock refuses a path outside the write roots.
//   - EROFS on a read-only bind of a file system mounted read-write, below
//     the root: how the sandbox makes the ledger and guard-exec's state
//     read-only (a read-only root file system, or a read-only medium, is
//     not such a bind, and the guard fails closed there as before).
//
// A ledger that is unwritable for any other reason (its modes, a file in
// the way, a full disk) is not a refusal of the kernel's.
func refusedByKernel(g *guard, err error) bool {
	var pe *fs.PathError
	if !errors.As(err, &pe) || !filepath.IsAbs(pe.Path) {
		return false
	}
	switch {
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		return confined(g) && permitsWrite(pe.Path)
	case errors.Is(err, syscall.EROFS):
		return confined(g) && readOnlyBind(pe.Path)
	}
	return false
}

// permitsWrite reports whether access(2) grants writing path, or creating
// it in its directory when it does not exist.
func permitsWrite(path string) bool {
	if err := unix.Access(path, unix.W_OK); err == nil {
		return true
	} else if !errors.Is(err, syscall.ENOENT) {
		return false
	}
	return unix.Access(filepath.Dir(path), unix.W_OK|unix.X_OK) == nil
}

// readOnlyBind reports whether the mount that holds path (the nearest of
// its directories that exists) is mounted read-only while its file system
// is read-write, and is not the root: a read-only bind.
func readOnlyBind(path string) bool {
	p := path
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
			break
		}
		parent := filepath.Dir(p)
		if parent == p {
			return false
		}
		p = parent
	}
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return false
	}
	m, ok := mountOf(b, p)
	return ok && m.point != "/" && m.readOnly && !m.fsReadOnly
}

// mount is one line of /proc/self/mountinfo, as much as readOnlyBind needs.
type mount struct {
	point                string
	readOnly, fsReadOnly bool
}

// mountOf finds the mount that holds path in mountinfo: the longest mount
// point that is path or one of its directories, the last listed when one
// is mounted over another.
func mountOf(mountinfo []byte, path string) (mount, bool) {
	var best mount
	found := false
	sc := bufio.NewScanner(bytes.NewReader(mountinfo))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		// ID PARENT MAJ:MIN ROOT POINT OPTIONS [TAGS…] - FSTYPE SOURCE SUPEROPTIONS
		f := strings.Fields(sc.Text())
		sep := -1
		for i := 6; i < len(f); i++ {
			if f[i] == "-" {
				sep = i
				break
			}
		}
		if len(f) < 6 || sep < 0 || sep+3 >= len(f) {
			continue
		}
		point := unescapeMount(f[4])
		if !within(path, point) && point != "/" {
			continue
		}
		if found && len(point) < len(best.point) {
			continue
		}
		best = mount{point: point, readOnly: hasOption(f[5], "ro"), fsReadOnly: hasOption(f[sep+3], "ro")}
		found = true
	}
	return best, found
}

func hasOption(opts, want string) bool {
	for _, o := range strings.Split(opts, ",") {
		if o == want {
			return true
		}
	}
	return false
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space, \011,
// \012, \134).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
