package shim

import (
	"os"
	"syscall"
)

// intoCgroup has the command started in dir (CLONE_INTO_CGROUP): from its
// first instruction on, it and everything it starts are in that cgroup. It
// reports whether it set anything.
func intoCgroup(sys *syscall.SysProcAttr, dir *os.File) bool {
	fd := rawFd(dir)
	if sys == nil || fd < 0 {
		return false
	}
	sys.UseCgroupFD, sys.CgroupFD = true, fd
	return true
}

// outOfCgroup undoes intoCgroup.
func outOfCgroup(sys *syscall.SysProcAttr) { sys.UseCgroupFD, sys.CgroupFD = false, 0 }
