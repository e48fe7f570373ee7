package sandbox

import (
	"fmt"
	"sync"

	"golang.org/x/sys/unix"
)

// The forking thread lives, in the command's Landlock domain, as long as
// the command runs, and Landlock lets a process inspect those of its own
// domain: through that thread the command could read and write all of
// guard-exec's memory (process_vm_writev, /proc/PID/mem) and take its
// descriptors (pidfd_getfd), the ledger's among them. Landlock is not the
// only check: the kernel's own ptrace_may_access refuses a process that is
// not dumpable to anyone without CAP_SYS_PTRACE. So guard-exec makes itself
// not dumpable (the command's own programs are dumpable again after their
// exec), and the forking thread gives up CAP_SYS_PTRACE for good (from its
// bounding set, so a root command does not get it back at exec). Both are
// a prctl or two: the cheapest closing of that gap (a gate that held the
// command until the thread was gone cost 1 ms).

var dumpable struct {
	sync.Once
	err error
}

// protectMemory makes guard-exec not dumpable, once per process. It also
// means no core dump of guard-exec, and /proc/PID of it owned by root.
func protectMemory() error {
	dumpable.Do(func() {
		if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
			dumpable.err = fmt.Errorf("prctl(PR_SET_DUMPABLE): %w", err)
		}
	})
	return dumpable.err
}

// dropPtrace removes CAP_SYS_PTRACE from the calling thread: from its
// bounding set where it may change that (CAP_SETPCAP: root), and from its
// effective, permitted and inheritable sets. A thread that keeps it in the
// bounding set without being able to drop it, as root, would hand it back
// to a command at exec: that is an error.
func dropPtrace() error {
	bset, _ := unix.PrctlRetInt(unix.PR_CAPBSET_READ, unix.CAP_SYS_PTRACE, 0, 0, 0)
	if bset == 1 {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, unix.CAP_SYS_PTRACE, 0, 0, 0); err != nil && unix.Geteuid() == 0 {
			return fmt.Errorf("cannot drop CAP_SYS_PTRACE from the bounding set: %w", err)
		}
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capget: %w", err)
	}
	bit := uint32(1) << (unix.CAP_SYS_PTRACE % 32)
	i := unix.CAP_SYS_PTRACE / 32
	if (data[i].Effective|data[i].Permitted|data[i].Inheritable)&bit == 0 {
		return nil
	}
	data[i].Effective &^= bit
	data[i].Permitted &^= bit
	data[i].Inheritable &^= bit
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	return nil
}
