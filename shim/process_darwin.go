package shim

import "golang.org/x/sys/unix"

// sstop is SSTOP from <sys/proc.h>: p_stat of a stopped process.
const sstop = 4

// stopped reports whether the child is stopped (SIGTSTP, SIGSTOP). macOS has no
// waitid in golang.org/x/sys, and wait4 with WUNTRACED would also reap a child
// that has exited, from under os.Process.Wait: so the child's state is read with
// sysctl kern.proc.pid, which never reaps.
func (p *proc) stopped() bool {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", p.pid)
	return err == nil && k.Proc.P_pid == int32(p.pid) && k.Proc.P_stat == sstop
}
