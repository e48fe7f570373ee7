package main

import (
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/guard-exec/guard-exec/shim"
)

// macOS has no parent-death signal and no cgroups: a guard killed by
// SIGKILL would leave its command running. So a watchdog stands in for
// Linux's Pdeathsig: once the command has run for keeperDelay, a copy of
// guard-exec is started as `guard-exec __keeper PID START`, in a session
// of its own, with a pipe from the guard as stdin. When the guard ends
// normally it writes a byte and the watchdog exits; at end of file with no
// byte the guard died, and the watchdog kills the command and what it
// started, as far as it saw them (keeperMain). What it misses: a process
// started and orphaned between two of its looks that left the command's
// process group (setsid), or everything a command started within its
// first keeperDelay and orphaned outside its group. Not run on macOS
// here: built and vetted only (README, Platforms).

// keeperArg is the first argument of guard-exec started as a watchdog.
const keeperArg = "__keeper"

// keeperDelay is how long a command runs before its watchdog starts: most
// commands are over by then and pay nothing.
const keeperDelay = 20 * time.Millisecond

// keeper is the watchdog of one command.
type keeper struct {
	mu       sync.Mutex
	timer    *time.Timer
	done     *os.File // the write end of the watchdog's stdin, once started
	released bool
	watchdog int
}

// startKeeper has the watchdog started keeperDelay after the command
// starts (through spec.Started).
func startKeeper(spec *shim.Spec) *keeper {
	k := &keeper{}
	started := spec.Started
	spec.Started = func(pid int) {
		if started != nil {
			started(pid)
		}
		k.mu.Lock()
		defer k.mu.Unlock()
		k.timer = time.AfterFunc(keeperDelay, func() { k.spawn(pid) })
	}
	return k
}

func (k *keeper) spawn(pid int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.released {
		return
	}
	start, ok := watchedStart(pid)
	if !ok {
		return // already gone
	}
	r, w, err := os.Pipe()
	if err != nil {
		return
	}
	defer r.Close()
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		w.Close()
		return
	}
	defer null.Close()
	exe, err := os.Executable()
	if err != nil {
		w.Close()
		return
	}
	p, err := os.StartProcess(exe, []string{"guard-exec", keeperArg, strconv.Itoa(pid), strconv.FormatInt(start, 10)}, &os.ProcAttr{
		Dir: "/", Env: []string{}, Files: []*os.File{r, null, null},
		Sys: &syscall.SysProcAttr{Setsid: true},
	})
	if err != nil {
		w.Close()
		return
	}
	k.watchdog, k.done = p.Pid, w
	_ = p.Release()
}

// release tells the watchdog the guard ended normally.
func (k *keeper) release() {
	if k == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.released = true
	if k.timer != nil {
		k.timer.Stop()
	}
	if k.done != nil {
		_, _ = k.done.Write([]byte{1})
		k.done.Close()
	}
}

// left is what the command left running: not known without a cgroup.
func (*keeper) left() []procKey { return nil }

// inCgroup: macOS has no cgroups.
func (*keeper) inCgroup() bool { return false }

// pid is the watchdog's pid; 0 without one.
func (k *keeper) pid() int {
	if k == nil {
		return 0
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.watchdog
}

// keeperMain is guard-exec started as the watchdog of process arg (its pid
// and its start time in microseconds, as watchedStart gives them): while
// it waits for its guard's byte it keeps the command's tree (keepTree,
// keeper_tree.go): the command, what runs below it, and, when the command
// leads a process group of its own, the group's members, which a double
// fork does not take out of it. At end of file without the byte the guard
// died, and every one of them that still runs is killed.
func keeperMain(arg string) int {
	signal.Ignore(syscall.SIGINT, syscall.SIGQUIT, syscall.SIGHUP, syscall.SIGPIPE)
	if len(os.Args) != 4 {
		return 2
	}
	pid, err1 := strconv.Atoi(os.Args[2])
	start, err2 := strconv.ParseUint(os.Args[3], 10, 64)
	if err1 != nil || err2 != nil || pid <= 1 {
		return 2
	}
	ended := make(chan bool, 1)
	go func() {
		var b [1]byte
		n, _ := os.Stdin.Read(b[:])
		ended <- n == 1 // a byte: the guard ended normally
	}()
	root := procKey{pid, start}
	if !running(root) {
		<-ended
		return 0
	}
	keepTree(root, ended, func(seen map[procKey]bool) {
		if running(root) {
			seen[root] = true
		}
		if pgid, err := unix.Getpgid(pid); err == nil && pgid == pid {
			for _, p := range groupMembers(pgid) {
				seen[p] = true
			}
		}
	})
	return 0
}
