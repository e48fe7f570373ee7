//go:build unix && !linux

package shim

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// stopSelf stops the guard the way ^Z stops a job, on systems where
// golang.org/x/sys offers no way to put SIGTSTP's default action back behind the
// Go runtime's handler (see the Linux version). It sends SIGSTOP, which no
// handler can take, to the whole process: macOS and FreeBSD suspend every
// thread before the kill returns to user space. SIGSTOP is not discarded in an
// orphaned process group as SIGTSTP is, and there no shell would ever resume the
// guard; so it is sent only when the guard's group provably has one, a parent in
// another group of the same session. Otherwise the stop is left out, as the
// kernel would have left out the SIGTSTP.
func stopSelf() {
	if !groupHasShell() {
		return
	}
	_ = unix.Kill(os.Getpid(), syscall.SIGSTOP)
}

// groupHasShell reports whether the guard's parent is in another process group
// of the guard's session: the guard's group is then not orphaned, and whoever
// leads that session (a shell with job control) can continue it.
func groupHasShell() bool {
	ppid := os.Getppid()
	if ppid <= 1 {
		return false
	}
	ppgrp, err := unix.Getpgid(ppid)
	if err != nil || ppgrp == unix.Getpgrp() {
		return false
	}
	psid, err := unix.Getsid(ppid)
	if err != nil {
		return false
	}
	sid, err := unix.Getsid(0)
	return err == nil && sid == psid
}
