package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/guard-exec/guard-exec/internal/paths"
)

// On macOS another process's descriptors are not readable, so a guard
// announces itself with a file instead: while its command runs,
// StateDir/running/PID holds the announcement and the guard's start time
// (a pid is reused, a pid with its start time is not). The state
// directory is one that sandboxed commands may not write. A guard killed
// before it removed its file leaves one that names a process which no
// longer runs, or runs with another start time, and is ignored. Not run
// on macOS here: built and vetted only (README, Platforms).

// runningFile is the announcement file of process pid; "" without a state
// directory.
func runningFile(pid int) string {
	d := paths.StateDir(os.Getenv)
	if d == "" {
		return ""
	}
	return filepath.Join(d, "running", strconv.Itoa(pid))
}

// announce marks this process as the guard of command id until the
// returned function is called.
func announce(id string, sb *sandboxRun) func() {
	f := runningFile(os.Getpid())
	start, ok := watchedStart(os.Getpid())
	if id == "" || f == "" || !ok {
		return func() {}
	}
	_ = os.MkdirAll(filepath.Dir(f), 0o700)
	body := announcement(id, sb.nestedMode()) + "\n" + strconv.FormatInt(start, 10) + "\n"
	if os.WriteFile(f, []byte(body), 0o600) != nil {
		return func() {}
	}
	return func() { _ = os.Remove(f) }
}

// announced reads pid's announcement; nil when pid is no guard running a
// command.
func announced(pid int) *outerGuard {
	f := runningFile(pid)
	if f == "" {
		return nil
	}
	b, err := os.ReadFile(f)
	if err != nil {
		return nil
	}
	name, start, _ := strings.Cut(strings.TrimSuffix(string(b), "\n"), "\n")
	if now, ok := watchedStart(pid); !ok || strconv.FormatInt(now, 10) != start {
		return nil
	}
	return parseAnnouncement(pid, name)
}

// believed is pid's announcement: the state directory is the user's, and
// sandboxed commands may not write it.
func believed(pid int) *outerGuard { return announced(pid) }

// mayBeGuard is true: which file a process runs is not read here, so the
// walk to an outer guard is never remembered (unnested.go).
func mayBeGuard(int) bool { return true }

// ancestorOf is pid's parent; how many threads it runs is not read here
// (0: not known).
func ancestorOf(pid int) (parent, threads int, ok bool) {
	parent, ok = parentProcess(pid)
	return parent, 0, ok
}

// parentProcess is pid's parent, from sysctl's process table.
func parentProcess(pid int) (int, bool) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || k.Proc.P_pid != int32(pid) {
		return 0, false
	}
	return int(k.Eproc.Ppid), true
}

// guardedAncestor reports whether pid is a guard running a command.
func guardedAncestor(pid int) bool { return announced(pid) != nil }
