package sandbox

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// NoLandlockEnv, set to 1, makes guard-exec behave as on a kernel without
// Landlock, so the fail-closed paths can be tested on any machine.
const NoLandlockEnv = "GUARD_EXEC_SANDBOX_NO_LANDLOCK"

var abiOnce struct {
	sync.Once
	v int
}

// ABI is the running kernel's Landlock ABI version, 0 when the kernel has
// no Landlock (or it is disabled at boot, or NoLandlockEnv is set).
func ABI() int {
	if os.Getenv(NoLandlockEnv) == "1" {
		return 0
	}
	abiOnce.Do(func() {
		v, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
		if e == 0 {
			abiOnce.v = int(v)
		}
	})
	return abiOnce.v
}

// ErrNoLandlock is the error of a sandbox the kernel cannot give.
var ErrNoLandlock = errors.New("the kernel has no Landlock (Linux 5.13 or later with CONFIG_SECURITY_LANDLOCK, landlock in the lsm= boot list)")

// rulesetAttr is struct landlock_ruleset_attr up to the fields ABI 6 knows.
// x/sys's LandlockRulesetAttr has fields of later ABIs; passing its size to
// an older kernel is accepted only while they are zero, and this keeps that
// from depending on someone remembering it.
type rulesetAttr struct {
	handledFS  uint64
	handledNet uint64
	scoped     uint64
}

// pathBeneath is struct landlock_path_beneath_attr, which the kernel reads
// packed (12 bytes).
type pathBeneath struct {
	allowed  uint64
	parentFd int32
}

// The write rights, by the ABI that brought them. Reading and executing
// are not handled: the sandbox bounds what a command changes, not what it
// reads (see doc.go), and an unhandled right is not restricted at all.
const (
	fsWriteABI1 = unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR |
		unix.LANDLOCK_ACCESS_FS_REMOVE_FILE | unix.LANDLOCK_ACCESS_FS_MAKE_CHAR |
		unix.LANDLOCK_ACCESS_FS_MAKE_DIR | unix.LANDLOCK_ACCESS_FS_MAKE_REG |
		unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO |
		unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK | unix.LANDLOCK_ACCESS_FS_MAKE_SYM
	fsRefer    = unix.LANDLOCK_ACCESS_FS_REFER    // ABI 2: links and renames across directories
	fsTruncate = unix.LANDLOCK_ACCESS_FS_TRUNCATE // ABI 3
	// fileRights are those a rule on a file (not a directory) may carry.
	fileRights = unix.LANDLOCK_ACCESS_FS_WRITE_FILE | fsTruncate
	netTCP     = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP // ABI 4
)

// handledFS is the write rights the running ABI knows. x/sys defines bits
// of ABIs newer than the kernel's; handing them over is EINVAL.
func handledFS(abi int) uint64 {
	h := uint64(fsWriteABI1)
	if abi >= 2 {
		h |= fsRefer
	}
	if abi >= 3 {
		h |= fsTruncate
	}
	return h
}

// devices are what every command may write although they are not in a
// root: the sink and sources of bytes, and the terminal (descriptors the
// command inherits are never checked again; these cover opening them by
// name, as `>/dev/tty`, `tty`, ssh's password prompt and script(1) do).
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
	"/dev/tty", "/dev/ptmx", "/dev/pts", "/dev/shm"}

// ruleset builds the Landlock ruleset of s and returns its descriptor.
func ruleset(s *Spec, abi int) (fd int, err error) {
	attr := rulesetAttr{handledFS: handledFS(abi)}
	if s.Mode == Strict && abi >= 4 {
		attr.handledNet = netTCP // no rule grants a port: every TCP connect and bind is denied
	}
	r, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if e != 0 {
		return -1, fmt.Errorf("landlock_create_ruleset: %w", e)
	}
	fd = int(r)
	for _, p := range append(append([]string(nil), s.WriteRoots...), devices...) {
		if err := addPath(fd, p, attr.handledFS); err != nil {
			unix.Close(fd)
			return -1, err
		}
	}
	return fd, nil
}

// addPath grants the write rights on p (a hierarchy, or one file); a
// missing p is skipped.
func addPath(rfd int, p string, rights uint64) error {
	pfd, err := unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil // nothing there to grant; creating it is up to its parent's rule
	}
	defer unix.Close(pfd)
	var st unix.Stat_t
	if unix.Fstat(pfd, &st) != nil {
		return nil
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		rights &= fileRights
	}
	attr := pathBeneath{allowed: rights, parentFd: int32(pfd)}
	_, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(rfd), unix.LANDLOCK_RULE_PATH_BENEATH,
		uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
	if e != 0 {
		return fmt.Errorf("landlock_add_rule %s: %w", p, e)
	}
	return nil
}

// restrictSelf puts the calling thread (only it: no TSYNC) and whatever it
// starts from now on in the ruleset's domain.
func restrictSelf(rfd int) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if _, _, e := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(rfd), 0, 0); e != 0 {
		return fmt.Errorf("landlock_restrict_self: %w", e)
	}
	return nil
}
