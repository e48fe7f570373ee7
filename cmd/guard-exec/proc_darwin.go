package main

import "golang.org/x/sys/unix"

// Processes as macOS's sysctl shows them (proc_linux.go has Linux's).
// A process's start time is in microseconds since the epoch: with the pid
// it names one process for as long as it lives.

// startTicks is when a process started.
func startTicks(pid int) (uint64, bool) {
	s, ok := watchedStart(pid)
	return uint64(s), ok
}

// watchedStart is a process's start time in microseconds since the epoch.
func watchedStart(pid int) (int64, bool) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || k.Proc.P_pid != int32(pid) {
		return 0, false
	}
	t := k.Proc.P_starttime
	return int64(t.Sec)*1e6 + int64(t.Usec), true
}

// procZombie is p_stat of a process that has exited and waits for its
// parent (SZOMB in sys/proc.h).
const procZombie = 5

// procTable is one look at every process: one sysctl.
func procTable() []unix.KinfoProc {
	all, _ := unix.SysctlKinfoProcSlice("kern.proc.all")
	return all
}

func keyOf(k *unix.KinfoProc) procKey {
	t := k.Proc.P_starttime
	return procKey{int(k.Proc.P_pid), uint64(int64(t.Sec)*1e6 + int64(t.Usec))}
}

// descendants lists the living processes below pid, children first,
// from one look at the process table.
func descendants(pid int) []procKey {
	children := map[int][]procKey{}
	all := procTable()
	for i := range all {
		if k := &all[i]; k.Proc.P_stat != procZombie {
			children[int(k.Eproc.Ppid)] = append(children[int(k.Eproc.Ppid)], keyOf(k))
		}
	}
	return breadthFirst(pid, func(p int) []procKey { return children[p] })
}

// groupMembers lists the living processes of process group pgid.
func groupMembers(pgid int) []procKey {
	var out []procKey
	all := procTable()
	for i := range all {
		if k := &all[i]; int(k.Eproc.Pgid) == pgid && k.Proc.P_stat != procZombie {
			out = append(out, keyOf(k))
		}
	}
	return out
}

// running reports whether p is still the process it names and not a
// zombie.
func running(p procKey) bool {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", p.pid)
	return err == nil && k.Proc.P_pid == int32(p.pid) && k.Proc.P_stat != procZombie && keyOf(k) == p
}
