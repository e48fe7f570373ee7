//go:build unix && !linux

package shim

import "syscall"

// DieBy ends the guard by sig, the signal the command died by, so that its caller
// sees what it would have seen from bash (see the Linux version). Here
// golang.org/x/sys has no sigaction to put the default disposition back behind
// the Go runtime, whose handler would turn many signals into nothing or a stack
// dump; so the guard becomes a shell that kills itself (dieByExec). DieBy returns
// only if that failed or the signal did not end the process; the caller then
// exits with 128+sig.
func DieBy(sig syscall.Signal) { dieByExec(sig) }
