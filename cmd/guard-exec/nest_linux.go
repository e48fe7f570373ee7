package main

import (
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/guard-exec/guard-exec/internal/rawread"
)

// On Linux a guard announces itself with a descriptor of its own: while
// its command runs it holds, at the fixed number announceFD, a memfd named
// by the announcement, so that /proc/PID/fd/45 of the guard reads
// "/memfd:guard-exec:ev-0012:write (deleted)". The descriptor is
// close-on-exec: the command never sees it, and it goes with the guard,
// which leaves nothing to clean up after a kill. A look costs one readlink
// per ancestor, beside the read of its stat for the next parent; finding
// no guard above walks up to PID 1, which on an agent's machine is a
// handful of processes. The number lies in the 64 descriptors a process's
// table starts with (growing the table past them makes a threaded process
// wait for the kernel's RCU grace period: 10 ms a command, measured),
// above the ones bash saves redirections in (10 upwards) and below those
// of its process substitutions (63 downwards). Where the caller passed a
// descriptor of that number on to the guard, it stays the command's and
// the guard does not announce itself: a guard inside it is then a guard
// of its own.
//
// A guard believes an announcement only from a process running the same
// executable as itself, on a descriptor that process made (close-on-exec,
// which one passed on to it across exec cannot be: a command cannot hand
// its guard a forged one) — a renamed copy of guard-exec, a program that
// makes such a descriptor, does not make a guard nested: that would lift
// the loop brake, quiet warnings and claim a sandbox, so it errs on the
// strict side;
// approve refuses below any announcing process (guardedAncestor), since
// there the cautious answer is the refusal.
const announceFD = 45

// announce marks this process as the guard of command id, run under sb,
// until the returned function is called.
func announce(id string, sb *sandboxRun) func() {
	if id == "" {
		return func() {}
	}
	if _, err := unix.FcntlInt(announceFD, unix.F_GETFD, 0); err == nil {
		return func() {} // the caller's descriptor, passed on to the command
	}
	fd, err := unix.MemfdCreate(announcement(id, sb.nestedMode()), unix.MFD_CLOEXEC)
	if err != nil {
		return func() {}
	}
	if fd != announceFD {
		err = unix.Dup3(fd, announceFD, unix.O_CLOEXEC)
		unix.Close(fd)
		if err != nil {
			return func() {}
		}
	}
	return func() { unix.Close(announceFD) }
}

// announced reads pid's announcement; nil when pid is no guard running a
// command.
func announced(pid int) *outerGuard {
	link, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/fd/" + strconv.Itoa(announceFD))
	if err != nil {
		return nil
	}
	name, ok := strings.CutPrefix(link, "/memfd:")
	if !ok {
		return nil
	}
	name = strings.TrimSuffix(name, " (deleted)")
	return parseAnnouncement(pid, name)
}

// believed is pid's announcement when this guard believes it: made by
// pid itself, which runs the same executable.
func believed(pid int) *outerGuard {
	if o := announced(pid); o != nil && madeByItself(pid) && sameExecutable(pid) {
		return o
	}
	return nil
}

// parentProcess is pid's parent.
func parentProcess(pid int) (int, bool) { return parentOf(pid) }

// ancestorOf is pid's parent and how many threads pid runs, from one read
// of its stat; threads is 0 when not known.
func ancestorOf(pid int) (parent, threads int, ok bool) {
	s, ok := procStat(pid)
	if !ok {
		return 0, 0, false
	}
	if f, ok := statLineField(s, statThreads); ok {
		threads, _ = strconv.Atoi(f)
	}
	f, ok := statLineField(s, statParent)
	if !ok {
		return 0, threads, false
	}
	parent, err := strconv.Atoi(f)
	return parent, threads, err == nil
}

// guardedAncestor reports whether pid is a guard running a command,
// whatever its executable: approve's check, where a false yes only
// refuses.
func guardedAncestor(pid int) bool { return announced(pid) != nil }

// madeByItself reports whether pid's announcement descriptor is
// close-on-exec: made by the process itself, not passed on to it.
func madeByItself(pid int) bool {
	b, err := rawread.File("/proc/"+strconv.Itoa(pid)+"/fdinfo/"+strconv.Itoa(announceFD), 0, 4096)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "flags:"); ok {
			flags, err := strconv.ParseUint(strings.TrimSpace(v), 8, 64)
			return err == nil && flags&unix.O_CLOEXEC != 0
		}
	}
	return false
}

// mayBeGuard reports whether pid, a process running more than one thread,
// could be a guard: it runs this executable.
func mayBeGuard(pid int) bool { return sameExecutable(pid) }

// sameExecutable reports whether pid runs the file this process runs.
func sameExecutable(pid int) bool {
	var mine, theirs unix.Stat_t
	if unix.Stat("/proc/self/exe", &mine) != nil || unix.Stat("/proc/"+strconv.Itoa(pid)+"/exe", &theirs) != nil {
		return false
	}
	return mine.Dev == theirs.Dev && mine.Ino == theirs.Ino
}
