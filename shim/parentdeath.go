//go:build linux || freebsd

package shim

import "syscall"

// killOnParentDeath has the command killed by SIGKILL when the guard dies, even
// by SIGKILL (Linux's PR_SET_PDEATHSIG, FreeBSD's PROC_PDEATHSIG_CTL).
func killOnParentDeath(sys *syscall.SysProcAttr) {
	if sys != nil {
		sys.Pdeathsig = syscall.SIGKILL
	}
}
