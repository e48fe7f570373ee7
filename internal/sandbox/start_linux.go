package sandbox

import (
	"fmt"
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// Start starts the command fork starts (fork returns its pid) inside the
// sandbox s describes, and only that command: guard-exec
// itself stays unrestricted, so it can still write the ledger's exit
// record, and the cost is a thread, not a re-exec (about 0.1 ms against
// several).
//
// How: a fresh goroutine locks itself to a new OS thread (never the main
// thread, see worker), gives that thread a mount namespace of its own with
// the protected paths bound read-only (mountns.go), drops its power to
// inspect other processes (ptrace.go), restricts it with Landlock and
// forks c from it, so c inherits all of that. The thread then waits for c
// to exit and ends with its goroutine, taking the restriction with it.
// Keeping it alive that long keeps Pdeathsig meaning "the guard died":
// Pdeathsig fires when the forking thread exits, which would otherwise be
// at once.
//
// The error is that of a sandbox that could not be set up (c did not
// start) or of fork. On success cov says what is in force.
func Start(fork func() (pid int, err error), s *Spec) (cov Coverage, err error) {
	cov.ABI = ABI()
	if cov.ABI == 0 {
		return cov, ErrNoLandlock
	}
	if err := protectMemory(); err != nil {
		return cov, err
	}
	s.cleanRoots()
	rfd, err := ruleset(s, cov.ABI)
	if err != nil {
		return cov, err
	}
	defer unix.Close(rfd)
	var binds []bind
	if CanMountNS() {
		binds = bindsFor(s)
	}
	done := make(chan result, 1)
	// The caller's thread stays locked while the worker starts: were the
	// caller on the main thread, the worker cannot land there.
	runtime.LockOSThread()
	go worker(fork, s, rfd, binds, done, nil)
	res := <-done
	runtime.UnlockOSThread()
	res.cov.ABI = cov.ABI
	return res.cov, res.err
}

type result struct {
	cov Coverage
	err error
}

// worker runs on a thread of its own, which dies with it. A goroutine can
// land on the main thread (m0), which the Go runtime never ends: restricted,
// it would stay restricted and keep c in reach for the rest of the process.
// So a worker that finds itself there hands the job to another and keeps
// m0 busy (locked, waiting) until that one has locked its own thread.
func worker(fork func() (int, error), s *Spec, rfd int, binds []bind, done chan<- result, locked chan<- struct{}) {
	runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
	if locked != nil {
		close(locked)
	}
	if unix.Gettid() == unix.Getpid() {
		next := make(chan struct{})
		go worker(fork, s, rfd, binds, done, next)
		<-next
		runtime.UnlockOSThread() // nothing was done to m0
		return
	}
	var cov Coverage
	cov.Landlock = true
	cov.TCPDenied = s.Mode == Strict && ABI() >= 4
	var err error
	if cov.MountNS, cov.Bound, err = enterMountNS(s, binds); err == nil && s.Mode == Strict {
		cov.NetNS = unix.Unshare(unix.CLONE_NEWNET) == nil
	}
	if err == nil {
		err = dropPtrace()
	}
	if err == nil {
		err = restrictSelf(rfd)
	}
	if err != nil {
		done <- result{err: fmt.Errorf("sandbox: %w", err)}
		return
	}
	pid, err := fork()
	if err != nil {
		done <- result{err: err}
		return
	}
	done <- result{cov: cov}
	waitExit(pid)
}

// waitExit blocks the thread until the process pid has exited (it need not
// be reaped: os/exec's Wait does that on another thread).
func waitExit(pid int) {
	pfd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return // gone already
	}
	defer unix.Close(pfd)
	fds := []unix.PollFd{{Fd: int32(pfd), Events: unix.POLLIN}}
	for {
		if _, err := unix.Poll(fds, -1); err != unix.EINTR {
			return
		}
	}
}

// StartCmd is Start for an exec.Cmd: c.Start runs on the restricted thread.
func StartCmd(c *exec.Cmd, s *Spec) (Coverage, error) {
	return Start(func() (int, error) {
		if err := c.Start(); err != nil {
			return 0, err
		}
		return c.Process.Pid, nil
	}, s)
}
