package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Whose terminal approves. An agent that is held can start a terminal of
// its own — a renamed copy of guard-exec under `setsid script -qfc`, with
// env -i and a double fork so that no marked ancestor is left — and answer
// the question itself. A person's terminal is one that was already there:
// its other side (the pty master) is held by a terminal emulator, tmux or
// screen that was running before the command was held, by a process of
// another user (sshd, login), or there is no master at all (a console).
// So approve refuses a terminal:
//
//   - that it does not have in the foreground (a background job);
//   - whose session leader, or any process holding its master, is a
//     guard announcing a command or below one (nest.go), or is a process
//     a guarded command left running (lineage.go) or one of its
//     descendants;
//   - whose master is held by a process of the user that started after
//     the hold, and whose parent is not another user's (sshd's session
//     child, started at login, has root's sshd as parent).
//
// The walk reads /proc, which any process of the user can read; what it
// cannot see (another PID namespace holding the master, a container's
// runtime) is not refused. A terminal the agent started before the hold
// and kept in the background still passes these checks: the kernel
// sandbox, which makes the user's key unreadable to the command and
// everything it starts, closes that (approve needs the key).

// checkPersonsTerminal applies those checks to the terminal tty, for a
// decision made at held.
func checkPersonsTerminal(tty *os.File, held time.Time, left map[procKey]string) error {
	fd := int(tty.Fd())
	fg, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
	if err == nil && fg != syscall.Getpgrp() {
		return fmt.Errorf("is not in the foreground of its terminal")
	}
	if sid, err := unix.IoctlGetInt(fd, unix.TIOCGSID); err == nil && sid > 1 && markedChain(sid, left) {
		return fmt.Errorf("runs in a terminal session a guarded command started")
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil
	}
	major, minor := unix.Major(uint64(st.Rdev)), unix.Minor(uint64(st.Rdev))
	if major < 136 || major > 143 {
		return nil // a console or serial line: no master
	}
	index := int((major-136)*256 + minor)
	boot := bootTime()
	for _, h := range ptyMasters(index) {
		if markedChain(h, left) {
			return fmt.Errorf("runs in a terminal a guarded command opened (process %d, %s)", h, procComm(h))
		}
		uid, ok := procUID(h)
		if !ok || uid != os.Getuid() {
			continue
		}
		if pp, ok := parentOf(h); ok && pp > 1 {
			if puid, ok := procUID(pp); ok && puid != os.Getuid() {
				continue // a login's session process (sshd, login)
			}
		}
		// A second of slack covers the clocks' resolution: a person does
		// not open the terminal within the second before a hold.
		if start, ok := procStartTime(h, boot); ok && start.After(held.Add(-time.Second)) {
			return fmt.Errorf("runs in a terminal opened after the command was held (by process %d, %s); approve from a terminal that was already open", h, procComm(h))
		}
	}
	return nil
}

// markedChain reports whether pid or one of its ancestors is a guard
// running a command (nest.go: what a command starts stays below its guard
// while it runs) or is one a guarded command left running (left,
// lineage.go).
func markedChain(pid int, left map[procKey]string) bool {
	for range 64 {
		if pid <= 1 {
			return false
		}
		if len(left) > 0 {
			if st, ok := startTicks(pid); ok {
				if _, ok := left[procKey{pid, st}]; ok {
					return true
				}
			}
		}
		if guardedAncestor(pid) {
			return true
		}
		next, ok := parentOf(pid)
		if !ok {
			return false
		}
		pid = next
	}
	return false
}

// ptyMasters lists the processes holding the master of pty index.
func ptyMasters(index int) []int {
	procs, _ := os.ReadDir("/proc")
	var out []int
	want := "tty-index:\t" + strconv.Itoa(index)
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		dir := filepath.Join("/proc", p.Name(), "fd")
		fds, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			link, err := os.Readlink(filepath.Join(dir, fd.Name()))
			if err != nil || (link != "/dev/ptmx" && link != "/dev/pts/ptmx") {
				continue
			}
			info, err := os.ReadFile(filepath.Join("/proc", p.Name(), "fdinfo", fd.Name()))
			if err == nil && hasLine(string(info), want) {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

func hasLine(text, line string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == strings.TrimSpace(line) {
			return true
		}
	}
	return false
}

func procUID(pid int) (int, bool) {
	fi, err := os.Stat("/proc/" + strconv.Itoa(pid))
	if err != nil {
		return 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

func procComm(pid int) string {
	b, _ := readProcFile(pid, "comm", 256)
	return strings.TrimSpace(string(b))
}

// procStartTime is when a process started (clock ticks are 100 a second
// on Linux).
func procStartTime(pid int, boot time.Time) (time.Time, bool) {
	if boot.IsZero() {
		return time.Time{}, false
	}
	ticks, ok := startTicks(pid)
	if !ok {
		return time.Time{}, false
	}
	return boot.Add(time.Duration(ticks) * (time.Second / 100)), true
}

// bootTime is when the machine booted, from /proc/uptime (to 10 ms;
// /proc/stat's btime is whole seconds).
func bootTime() time.Time {
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return time.Time{}
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return time.Time{}
	}
	up, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return time.Time{}
	}
	return time.Now().Add(-time.Duration(up * float64(time.Second)))
}
