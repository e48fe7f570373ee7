package shim

import (
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// child is the started command's process. On Linux it is started with
// syscall.StartProcess rather than os.StartProcess: the latter, on its
// first use in a process, checks that CLONE_PIDFD works by cloning a
// process that exits at once, a fork and a reap that every command paid
// (about 0.1 ms of a `-c true`). The command is started asking for a
// pidfd all the same; a kernel that gives none (older than 5.2, where the
// flag is ignored) leaves it at -1, and the pid is used then.
type child struct {
	pid   int
	mu    sync.Mutex // guards pidfd and done against a signal sent during the reap
	pidfd int        // -1: none
	done  bool       // the process has exited and is being or has been reaped
}

// spawn starts path as os.StartProcess would with attr (a nil file is
// closed in the child), forking on the calling thread.
func spawn(path string, argv []string, attr *os.ProcAttr) (*child, error) {
	var sys syscall.SysProcAttr
	if attr.Sys != nil {
		sys = *attr.Sys
	}
	pidfd := -1
	sys.PidFD = &pidfd
	env := attr.Env
	if env == nil {
		env = syscall.Environ()
	}
	files := make([]uintptr, len(attr.Files))
	for i, f := range attr.Files {
		files[i] = f.Fd() // ^uintptr(0) for nil: closed in the child
	}
	pid, _, err := syscall.StartProcess(path, argv, &syscall.ProcAttr{Dir: attr.Dir, Env: env, Files: files, Sys: &sys})
	runtime.KeepAlive(attr) // the files stay open until the child has them
	if err != nil {
		return nil, &os.PathError{Op: "fork/exec", Path: path, Err: err}
	}
	return &child{pid: pid, pidfd: pidfd}, nil
}

// signal sends sig to the process, through its pidfd where there is one;
// never once it has exited, so a recycled pid is never hit.
func (c *child) signal(sig syscall.Signal) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return os.ErrProcessDone
	}
	if c.pidfd >= 0 {
		if err := unix.PidfdSendSignal(c.pidfd, sig, nil, 0); err != unix.ENOSYS {
			return err
		}
	}
	return syscall.Kill(c.pid, sig)
}

// exitWithin waits up to d for the process to exit, without reaping it, by
// polling its pidfd (readable once it has exited). ok is false without a
// pidfd: the caller then cannot wait so.
func (c *child) exitWithin(d time.Duration) (exited, ok bool) {
	if c.pidfd < 0 {
		return false, false
	}
	deadline := time.Now().Add(d)
	fds := []unix.PollFd{{Fd: int32(c.pidfd), Events: unix.POLLIN}}
	for {
		ms := int((time.Until(deadline) + time.Millisecond - 1) / time.Millisecond)
		if ms <= 0 {
			return false, true
		}
		n, err := unix.Poll(fds, ms)
		switch {
		case err == unix.EINTR:
		case err != nil:
			return false, false
		case n > 0:
			return true, true
		}
	}
}

// wait waits for the process to exit and reaps it. It waits without
// reaping first (WNOWAIT), marks the process done, and only then reaps, so
// that signal never sends to the pid once it may be another process's.
func (c *child) wait() (syscall.WaitStatus, bool) {
	var info unix.Siginfo
	for unix.Waitid(unix.P_PID, c.pid, &info, unix.WEXITED|unix.WNOWAIT, nil) == unix.EINTR {
	}
	c.mu.Lock()
	c.done = true
	if c.pidfd >= 0 {
		_ = unix.Close(c.pidfd)
		c.pidfd = -1
	}
	c.mu.Unlock()
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(c.pid, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		return ws, err == nil
	}
}
