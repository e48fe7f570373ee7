package shim

import (
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// stopSelf sends SIGTSTP to the calling thread, which then stops the process before
// the call returns; a process-directed kill could be taken by another thread a moment
// later, after raw mode was back. SIGTSTP (not SIGSTOP) keeps its default action: the
// kernel discards it for an orphaned process group, which has no shell to resume it.
//
// The guard listens to SIGTSTP in pty mode (to pass it on to the command), and
// the Go runtime's handler, which stays installed even after signal.Reset, would
// swallow it; so SIGTSTP's default action is put back behind the runtime's back
// for the moment of the stop, and the runtime's handler restored after it.
func stopSelf() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var old kernelSigaction
	dfl := kernelSigaction{}
	if rtSigaction(syscall.SIGTSTP, &dfl, &old) != nil {
		return
	}
	_ = unix.Tgkill(os.Getpid(), unix.Gettid(), syscall.SIGTSTP)
	_ = rtSigaction(syscall.SIGTSTP, &old, nil)
}
