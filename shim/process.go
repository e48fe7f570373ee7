package shim

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// proc is the running command: the direct child and the process group that signals
// and kills are aimed at.
type proc struct {
	cmd      *exec.Cmd
	pid      int
	ownGroup bool // the child leads its own process group (pgid == pid)
	start    time.Time
	end      time.Time
	timedOut atomic.Bool

	mu       sync.Mutex // guards the stop sequence against the exit
	stopping bool       // SIGTERM was sent for a timeout or ctx's end
	exited   bool
	kill     *time.Timer
}

// startProc starts c. Pdeathsig fires when the *thread* that forked exits, not the
// process, so the fork happens on a locked thread; the thread is then returned to
// the runtime, which keeps it (only a goroutine that exits while locked kills its
// thread).
func startProc(c *exec.Cmd, ownGroup bool, started func(int), start func(*exec.Cmd) error) (*proc, error) {
	if start == nil {
		start = (*exec.Cmd).Start
	}
	runtime.LockOSThread()
	err := start(c)
	runtime.UnlockOSThread()
	if err != nil {
		return nil, err
	}
	p := &proc{cmd: c, pid: c.Process.Pid, ownGroup: ownGroup, start: time.Now()}
	if started != nil {
		started(p.pid)
	}
	return p, nil
}

// signalGroup sends sig to the child's process group, or to the child alone when it
// shares the guard's group (signalling that group would hit the guard and its
// siblings too).
func (p *proc) signalGroup(sig syscall.Signal) {
	if p.ownGroup {
		_ = syscall.Kill(-p.pid, sig)
		return
	}
	_ = p.cmd.Process.Signal(sig) // a pidfd: never hits a recycled pid
}

// forward passes on a signal the guard received. In its own group the command gets
// every forwarded signal. Sharing the guard's group (see sharedGroup), it already got
// the terminal's SIGINT, SIGQUIT and SIGHUP from the kernel, and a second copy would
// run its traps twice, so only SIGTERM (what agents send to the pid they started)
// is passed on.
func (p *proc) forward(sig os.Signal) {
	s, ok := sig.(syscall.Signal)
	if !ok || !isForwarded(s) || (!p.ownGroup && s != syscall.SIGTERM) {
		return
	}
	p.signalGroup(s)
}

// waitLimits are how long the command may run and how it is stopped.
type waitLimits struct {
	timeout   time.Duration
	killGrace time.Duration
}

// wait blocks until the child exits and reports whether it was stopped for running
// too long. Nothing runs beside it until something happens: the timeout and ctx's
// end are timer callbacks, signals are handled on the relay goroutine. (A
// supervising goroutine with a select loop cost 50 µs of every `bash -c true` in
// wake-ups.)
func (p *proc) wait(ctx context.Context, lim waitLimits) (timedOut bool) {
	var timer *time.Timer
	if lim.timeout > 0 {
		timer = time.AfterFunc(lim.timeout, func() {
			p.timedOut.Store(true)
			p.terminate(lim.killGrace)
		})
	}
	stopCtx := context.AfterFunc(ctx, func() {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			p.timedOut.Store(true)
		}
		p.terminate(lim.killGrace)
	})
	_ = p.cmd.Wait() // all stdio is *os.File: Wait copies nothing, the status is in ProcessState
	p.end = time.Now()
	if timer != nil {
		timer.Stop()
	}
	stopCtx()
	p.exit()
	return p.timedOut.Load()
}

// terminate starts the stop sequence: SIGTERM to the group now, SIGKILL after grace.
func (p *proc) terminate(grace time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.exited || p.stopping {
		return
	}
	p.stopping = true
	p.signalGroup(syscall.SIGTERM)
	p.kill = time.AfterFunc(grace, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.exited {
			p.signalGroup(syscall.SIGKILL)
		}
	})
}

// exit records that the child was reaped. A command being stopped loses what is left
// of its group at once: bash may die of the SIGTERM while a background job that
// ignores it would otherwise outlive the timeout.
func (p *proc) exit() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.exited = true
	if p.stopping {
		p.kill.Stop()
		p.signalGroup(syscall.SIGKILL)
	}
}

// status maps the wait status the way bash reports it: the exit status, or 128+N
// for a death by signal N.
func (p *proc) status(r *Result) {
	r.Duration = p.end.Sub(p.start)
	ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	switch {
	case !ok:
		r.ExitCode = p.cmd.ProcessState.ExitCode()
	case ws.Signaled():
		r.ExitCode = 128 + int(ws.Signal())
		r.Signal = unix.SignalName(ws.Signal())
	default:
		r.ExitCode = ws.ExitStatus()
	}
}

// cldStopped is CLD_STOPPED from <signal.h>: waitid's si_code for a stopped child.
const cldStopped = 5

// stopped reports whether the child has stopped (SIGTSTP, SIGSTOP) since the last
// call. It asks waitid for stop reports only, so it never reaps the child from under
// os/exec's Wait.
func (p *proc) stopped() bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_PID, p.pid, &info, unix.WSTOPPED|unix.WNOHANG, nil)
	return err == nil && info.Signo == int32(syscall.SIGCHLD) && info.Code == cldStopped
}

// sharedGroup reports whether the command should stay in the guard's own process
// group: when the guard has a controlling terminal. A child in a group of its own
// is not part of the guard's job there, so it would be stopped by SIGTTIN as soon as
// it read the terminal (sudo's password prompt, ssh's host-key question, `read`
// from a terminal stdin) and by SIGTTOU when it changed the terminal's modes, and
// job control (^Z, fg) would not reach it; under bash alone it is part of the job
// and none of that happens. Finding the terminal costs an ioctl on stdio, or one
// open of /dev/tty when stdio has none.
func sharedGroup(files ...*os.File) bool {
	for _, f := range files {
		if isControllingTerminal(rawFd(f)) {
			return true
		}
	}
	fd, err := unix.Open("/dev/tty", unix.O_RDONLY|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false // no controlling terminal: nothing to share
	}
	defer unix.Close(fd)
	return isControllingTerminal(fd)
}

// isControllingTerminal reports whether fd is the guard's controlling terminal:
// TIOCGPGRP fails with ENOTTY on any other file, terminals included.
func isControllingTerminal(fd int) bool {
	if fd < 0 {
		return false
	}
	_, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
	return err == nil
}
