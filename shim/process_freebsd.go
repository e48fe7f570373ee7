package shim

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// From FreeBSD's <sys/wait.h> and <sys/types.h>: wait6's options and idtype.
const (
	wNohang  = 1
	wStopped = 2 // WUNTRACED
	pPid     = 0 // P_PID
)

// stopped reports whether the child has stopped (SIGTSTP, SIGSTOP) since the
// last call. It asks wait6 for stop reports only (no WEXITED), so it never
// reaps the child from under os.Process.Wait.
func (p *proc) stopped() bool {
	var status syscall.WaitStatus
	pid, _, errno := unix.Syscall6(unix.SYS_WAIT6, pPid, uintptr(p.pid),
		uintptr(unsafe.Pointer(&status)), wNohang|wStopped, 0, 0)
	return errno == 0 && int(pid) == p.pid && status.Stopped()
}
