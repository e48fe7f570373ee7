package shim

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// cldStopped is CLD_STOPPED from <signal.h>: waitid's si_code for a stopped child.
const cldStopped = 5

// stopped reports whether the child has stopped (SIGTSTP, SIGSTOP) since the last
// call. It asks waitid for stop reports only, so it never reaps the child from under
// os/exec's Wait.
func (p *proc) stopped() bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_PID, p.pid, &info, unix.WSTOPPED|unix.WNOHANG, nil)
	return err == nil && info.Signo == int32(syscall.SIGCHLD) && info.Code == cldStopped
}
