package main

import "golang.org/x/sys/unix"

// becomeSubreaper makes orphans of the command this process's children
// (lineage.go). Failure (an old kernel) only means fewer processes are listed.
func becomeSubreaper() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) }
