package shim

import (
	"context"
	"errors"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// launch is everything the command is started with. startProc is the one place
// it is started.
type launch struct {
	path  string
	argv  []string
	env   []string // nil: the guard's own
	dir   string
	files []*os.File // the child's 0, 1, 2; a nil entry is closed in the child
	sys   *syscall.SysProcAttr
}

// proc is the running command: the direct child and the process group that signals
// and kills are aimed at.
type proc struct {
	child    *child // spawn_linux.go, spawn_other.go
	ws       syscall.WaitStatus
	reaped   bool // ws is the child's exit status
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

// startProc starts l. It uses spawn (os.StartProcess, or on Linux
// syscall.StartProcess) rather than exec.Cmd because only those can hand the
// child a closed descriptor (`guard-exec -c 'echo hi' >&-`
// must fail to write as bash does, not write to /dev/null). Pdeathsig fires when the *thread* that forked exits, not the
// process, so the fork happens on a locked thread; the thread is then returned to
// the runtime, which keeps it (only a goroutine that exits while locked kills its
// thread).
func startProc(l *launch, ownGroup bool, started func(int), wrap func(fork func() (int, error)) error) (*proc, error) {
	killOnParentDeath(l.sys)
	attr := &os.ProcAttr{Dir: l.dir, Env: l.env, Files: l.files, Sys: l.sys}
	var process *child
	fork := func() (int, error) {
		p, err := spawn(l.path, l.argv, attr)
		if err != nil {
			return 0, err
		}
		process = p
		return p.pid, nil
	}
	runtime.LockOSThread()
	var err error
	if wrap != nil {
		err = wrap(fork)
	} else {
		_, err = fork()
	}
	if err == nil && process == nil {
		err = errors.New("the command was not started")
	}
	runtime.UnlockOSThread()
	if err != nil {
		return nil, err
	}
	p := &proc{child: process, pid: process.pid, ownGroup: ownGroup, start: time.Now()}
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
	p.signal(sig)
}

// signal sends sig to the command's own process, bash, and nothing else.
func (p *proc) signal(sig syscall.Signal) {
	_ = p.child.signal(sig) // never hits a recycled pid
}

// forward passes on a signal the guard received to bash, and only to bash, as
// if the caller had sent it there: bash decides what its jobs get (its traps,
// its own death and the status it leaves). Sent to the group, a SIGINT would
// kill background jobs bash leaves running, and a SIGTERM would reach every
// job that does not trap it.
//
// The one exception is a signal a terminal sends to its whole foreground group
// (^C, ^\, a hangup) while the command shares that group: bash got its own copy
// from the kernel, and a second would run its traps twice. The guard cannot
// tell a `kill -INT` of its pid from a ^C then (Go's signal API has no
// siginfo), and takes it for the terminal's.
func (p *proc) forward(sig os.Signal) {
	s, ok := sig.(syscall.Signal)
	if !ok || !isForwarded(s) {
		return
	}
	if !p.ownGroup && ttySignal(s) && inForeground() {
		return
	}
	p.signal(s)
}

// ttySignal reports whether a terminal sends sig to its foreground group.
func ttySignal(sig syscall.Signal) bool {
	switch sig {
	case syscall.SIGINT, syscall.SIGQUIT, syscall.SIGHUP, syscall.SIGWINCH, syscall.SIGTSTP:
		return true
	}
	return false
}

// inForeground reports whether the guard's process group is the foreground group
// of its controlling terminal.
func inForeground() bool {
	fd, err := unix.Open("/dev/tty", unix.O_RDONLY|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	pgrp, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
	return err == nil && pgrp == unix.Getpgrp()
}

// waitLimits are how long the command may run and how it is stopped.
type waitLimits struct {
	timeout   time.Duration
	killGrace time.Duration
	slow      func() // Spec.Slow
	slowAfter time.Duration
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
	var slowTimer *time.Timer
	if lim.slow != nil {
		if exited, ok := p.child.exitWithin(lim.slowAfter); !ok {
			slowTimer = time.AfterFunc(lim.slowAfter, lim.slow)
		} else if !exited {
			lim.slow()
		}
	}
	p.ws, p.reaped = p.child.wait()
	p.end = time.Now()
	if timer != nil {
		timer.Stop()
	}
	if slowTimer != nil {
		slowTimer.Stop()
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
	if !p.reaped {
		r.ExitCode = 128 + int(syscall.SIGKILL) // lost: the wait failed
		return
	}
	ws := p.ws
	switch {
	case ws.Signaled():
		r.ExitCode = 128 + int(ws.Signal())
		r.Signal = unix.SignalName(ws.Signal())
	default:
		r.ExitCode = ws.ExitStatus()
	}
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
