package main

import "golang.org/x/sys/unix"

// becomeSubreaper makes orphans of the command this process's children
// (lineage.go). Failure (an old kernel) only means fewer processes are listed.
func becomeSubreaper() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) }

// hasChildren reports whether this process has a child, living or not yet
// reaped, without reaping any (WNOWAIT): one system call, so that the usual
// command, which leaves nothing behind, pays no walk of /proc. As a
// subreaper, whatever the command left running is a child by now.
func hasChildren() bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
	return err != unix.ECHILD
}
