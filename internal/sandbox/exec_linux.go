package sandbox

import (
	"fmt"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// Exec replaces guard-exec with path inside the sandbox s describes: the
// interactive shell, which runs for as long as the person's session and
// starts every line itself. Nothing of guard-exec is left to protect, so
// the thread that restricts itself is the one that execs (execve from any
// thread ends the others), and CAP_SYS_PTRACE need not go. It returns only
// on failure, before or at the exec.
func Exec(path string, argv, env []string, s *Spec) (Coverage, error) {
	var cov Coverage
	cov.ABI = ABI()
	if cov.ABI == 0 {
		return cov, ErrNoLandlock
	}
	s.cleanRoots()
	rfd, err := ruleset(s, cov.ABI)
	if err != nil {
		return cov, err
	}
	defer unix.Close(rfd)
	// Never unlocked: after a failed exec this thread may be restricted,
	// and the guard is about to exit with the error anyway.
	runtime.LockOSThread()
	cov.Landlock = true
	if cov.MountNS, cov.Bound, err = enterMountNS(s, bindsFor(s)); err != nil {
		return cov, fmt.Errorf("sandbox: %w", err)
	}
	if s.Mode == Strict {
		cov.NetNS = unix.Unshare(unix.CLONE_NEWNET) == nil
	}
	if err := restrictSelf(rfd); err != nil {
		return cov, fmt.Errorf("sandbox: %w", err)
	}
	return cov, syscall.Exec(path, argv, env)
}
