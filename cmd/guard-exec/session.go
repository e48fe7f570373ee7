package main

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// session names the agent session a command belongs to, for the loop
// brake: GUARD_EXEC_SESSION when set, else the parent process, named by
// its pid and start time so that a reused pid is a new session.
// It is computed once per invocation: the loop brake and the exec record
// both ask.
func (g *guard) session() string {
	if g.sess != "" {
		return g.sess
	}
	if s := g.vars["GUARD_EXEC_SESSION"]; s != "" {
		g.sess = s
		return s
	}
	// Not fmt.Sprintf: nothing else on the way of a command uses fmt, and
	// its first use costs about 20 µs of set-up and page faults.
	ppid := os.Getppid()
	g.sess = "ppid-" + strconv.Itoa(ppid) + "-" + procStart(ppid)
	return g.sess
}

// procStart reads a process's start time (clock ticks since boot), or "0".
func procStart(pid int) string {
	if s, ok := procStat(pid); ok {
		if f, ok := statLineField(s, statStartTime); ok {
			return f
		}
	}
	return "0"
}

// parentStat is the guard's parent's /proc stat line once read: the walk
// to an outer guard (findOuter) reads it first, and the session is named
// by the start time in it, a field that does not change in a process's
// life. Other processes' lines are read each time they are asked for.
var parentStat struct {
	sync.Mutex
	pid  int
	line string
}

// procStat is pid's /proc stat line, the parent's read once.
func procStat(pid int) (string, bool) {
	parentStat.Lock()
	defer parentStat.Unlock()
	if parentStat.line != "" && parentStat.pid == pid {
		return parentStat.line, true
	}
	s, ok := readProcStat(pid)
	if ok && parentStat.line == "" && pid == os.Getppid() {
		parentStat.pid, parentStat.line = pid, s
	}
	return s, ok
}

// Fields of /proc/PID/stat, counted from 0 after the command name: field 3
// of proc(5) (state) is 0.
const (
	statParent    = 1  // ppid, field 4
	statSession   = 3  // session, field 6
	statThreads   = 17 // num_threads, field 20
	statStartTime = 19 // starttime, field 22: clock ticks after boot
)

// statField is the n-th field of /proc/PID/stat after the command name.
// The name (field 2) may hold spaces and parentheses, so fields are counted
// after its last closing parenthesis.
func statField(pid, n int) (string, bool) {
	s, ok := readProcStat(pid)
	if !ok {
		return "", false
	}
	return statLineField(s, n)
}

// statLineField is the n-th field of a /proc/PID/stat line after the
// command name.
func statLineField(s string, n int) (string, bool) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", false
	}
	return nthField(s[i+1:], n)
}

// nthField returns the n-th (from 0) of the space-separated fields of s,
// which is what strings.Fields(s)[n] would be for the ASCII text of
// /proc/PID/stat, without building the other fifty.
func nthField(s string, n int) (string, bool) {
	for {
		s = strings.TrimLeft(s, " \t\n")
		if s == "" {
			return "", false
		}
		end := strings.IndexAny(s, " \t\n")
		if end < 0 {
			end = len(s)
		}
		if n == 0 {
			return s[:end], true
		}
		n--
		s = s[end:]
	}
}

// readProcStat reads /proc/PID/stat with plain system calls: os.ReadFile
// would register the file with the runtime's poller first (epoll set-up,
// four fcntls) on every command. The line is a few hundred bytes; the
// command name in it is at most 64.
func readProcStat(pid int) (string, bool) {
	fd, err := syscall.Open("/proc/"+strconv.Itoa(pid)+"/stat", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return "", false
	}
	defer syscall.Close(fd)
	var buf [2048]byte
	n := 0
	for n < len(buf) {
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || m <= 0 {
			break
		}
		n += m
		if buf[n-1] == '\n' { // the whole line: no read for the end of file
			break
		}
	}
	return string(buf[:n]), n > 0
}
