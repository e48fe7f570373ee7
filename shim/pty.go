package shim

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

const (
	ptyBufferSize = 64 << 10
	// holderExit is how long the pty may take to report EIO after its holders
	// were killed; a holder that left the process group (setsid) is abandoned then.
	holderExit = 100 * time.Millisecond
	// holderWrites bounds, in OutputGraces, how long background processes may go
	// on writing to the pty after the command exited (`yes &` never stops).
	holderWrites = 10
)

// ptySession is one command under a pseudo-terminal: the master, the loops that
// copy keystrokes in and output out, and what is recorded of that output.
type ptySession struct {
	s       *Spec
	master  *os.File
	mfd     int
	tty     *os.File // the slave, closed in the guard once the child has it
	outer   outerTerminal
	proc    *proc
	dig     *digest
	errCopy *copier  // stderr, when it is neither a terminal nor stdout's file
	errW    *os.File // the write end of errCopy's pipe, given to the child
	merged  bool
	broken  bool // a write to the caller's stdout failed; output is still drained

	castMu sync.Mutex // the output loop and resizes both record events
	cast   *cast
	size   unix.Winsize

	outStop, inStop *stopper
	outDone, inDone chan struct{}

	exitWake *stopper      // tells pumpOutput the command has exited
	idle     chan struct{} // closed when, after the exit, the master stayed empty for OutputGrace
}

// runPTY runs the command with the pty slave as its terminal and copies between the
// master and the caller's files. Stdin that is not a terminal is handed to the
// command as it is: through the pty it would be echoed, cut at 4096 bytes a line,
// and its end could not be told (a partial line needs two ^D).
func runPTY(ctx context.Context, s *Spec) (*Result, error) {
	t, err := newPTYSession(s)
	if err != nil {
		return nil, err
	}
	defer t.close()
	l, done, err := t.command()
	if err != nil {
		done()
		return nil, err
	}
	p, err := startProc(l, true, s.Started, s.Start)
	done()
	t.tty.Close() // else the master never reports EIO
	if t.errW != nil {
		t.errW.Close()
	}
	if err != nil {
		if t.errCopy != nil {
			t.errCopy.discard()
		}
		return nil, err
	}
	t.proc = p
	defer t.outer.restore()
	_ = t.outer.makeRaw() // without raw mode the command still runs; ^C then reaches it through the guard
	defer t.handleSignals()()
	t.startLoops()
	res := &Result{PTY: true}
	res.TimedOut = p.wait(ctx, s.limits())
	p.status(res)
	res.Incomplete = t.finish()
	t.results(res)
	return res, nil
}

func newPTYSession(s *Spec) (*ptySession, error) {
	master, tty, err := pty.Open()
	if err != nil {
		return nil, err
	}
	t := &ptySession{s: s, master: master, mfd: int(master.Fd()), tty: tty, dig: newDigest(s.DigestBytes),
		outDone: make(chan struct{}), inDone: make(chan struct{}), idle: make(chan struct{}),
		outer: outerTerminal{fd: -1}}
	if IsTerminal(s.Stdin) {
		t.outer.fd = rawFd(s.Stdin)
	}
	t.size = *windowSize(s.Stdout, s.Stdin)
	t.cast = newCast(s.CastLimit, int(t.size.Col), int(t.size.Row), envValue(s.Env, "TERM"), time.Now())
	if err = t.setup(); err == nil {
		t.outStop, err = newStopper()
	}
	if err == nil {
		t.inStop, err = newStopper()
	}
	if err == nil {
		t.exitWake, err = newStopper()
	}
	if err != nil {
		master.Close()
		tty.Close()
		for _, st := range []*stopper{t.outStop, t.inStop} {
			if st != nil {
				st.close()
			}
		}
		return nil, err
	}
	return t, nil
}

func (t *ptySession) setup() error {
	if err := clearONLCR(t.tty); err != nil {
		return err
	}
	if err := unix.IoctlSetWinsize(t.mfd, unix.TIOCSWINSZ, &t.size); err != nil {
		return err
	}
	return unix.SetNonblock(t.mfd, true)
}

// command wires the child: the slave as stdout, as stdin when the caller's stdin is
// a terminal, and as stderr when the caller's stderr is a terminal or stdout's file.
// The child leads a new session with the slave as controlling terminal, so that the
// slave's ^C reaches its foreground group; Ctty names the child's fd that holds the
// slave (1 when stdin is the caller's pipe).
func (t *ptySession) command() (*launch, func(), error) {
	s := t.s
	in, ctty := t.tty, 0
	if t.outer.fd < 0 {
		in, ctty = s.Stdin, 1
	}
	errf := s.Stderr
	switch {
	case s.Stderr == nil || s.Closed[2]:
	case IsTerminal(s.Stderr) || sameFile(s.Stderr, s.Stdout):
		errf, t.merged = t.tty, true
	default:
		// Errors sent to a log file (2>err.log) stay out of the terminal, as under bash.
		var err error
		if t.errCopy, t.errW, err = newCopier(s.Stderr, s.DigestBytes); err != nil {
			return nil, func() {}, err
		}
		errf = t.errW
	}
	l, done, err := s.command(in, t.tty, errf)
	if err != nil {
		return nil, done, err
	}
	l.sys = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: ctty}
	return l, done, nil
}

func (t *ptySession) startLoops() {
	go t.pumpOutput()
	if t.outer.fd >= 0 {
		go t.pumpInput()
	} else {
		close(t.inDone)
	}
	if t.errCopy != nil {
		t.errCopy.start()
	}
}

// pumpOutput copies the master to the caller's stdout until EIO, which Linux reports
// once every descriptor of the slave is closed and everything written before was
// read; so nothing written at exit is lost (reading until Wait and then closing the
// master lost all of it, creack/pty#7).
//
// Once the command has exited, a master that stays empty for OutputGrace means a
// background process holds the slave without writing: pumpOutput reports it (idle)
// and reads on. Emptiness, not elapsed time, is the test because the output the
// command wrote before exiting may still be on its way: a slow caller's terminal
// keeps the loop writing, and the pty's own buffers hold tens of KiB that no ioctl
// counts (TIOCINQ sees only the last 4 KiB).
func (t *ptySession) pumpOutput() {
	defer close(t.outDone)
	defer t.restoreOnPanic()
	buf := make([]byte, ptyBufferSize)
	wake, idleMs := t.exitWake, -1
	for {
		n, err := t.outStop.readNonblock(t.mfd, buf, wake, idleMs)
		if n > 0 {
			t.deliver(buf[:n])
		}
		switch {
		case err == errWoken:
			wake, idleMs = nil, max(1, int(t.s.OutputGrace.Milliseconds()))
		case err == errIdle:
			close(t.idle)
			idleMs = -1
		case err != nil || n == 0:
			return
		}
	}
}

func (t *ptySession) deliver(p []byte) {
	if t.s.Stdout != nil && !t.broken {
		if _, err := t.s.Stdout.Write(p); err != nil {
			t.broken = true // keep draining, or the command would block on a full pty
		}
	}
	t.dig.Write(p)
	t.castMu.Lock()
	if !t.cast.cut {
		t.cast.output(time.Now(), p)
	}
	t.castMu.Unlock()
}

// pumpInput forwards keystrokes from the outer terminal to the master. It polls, so
// that at the end it stops instead of staying blocked in a read of the terminal and
// swallowing the person's next keystroke.
func (t *ptySession) pumpInput() {
	defer close(t.inDone)
	defer t.restoreOnPanic()
	buf := make([]byte, 32<<10)
	for {
		n, err := t.inStop.read(t.outer.fd, buf, nil)
		if n > 0 && t.typed(buf[:n]) != nil {
			return
		}
		if err != nil || n == 0 {
			return
		}
	}
}

// typed passes keystrokes to the pty, except the suspend character (^Z) while the
// pty's line discipline would turn it into SIGTSTP: the command leads a session of
// its own, so its process group is orphaned, and Linux discards a SIGTSTP sent to
// an orphaned group. The guard stops the group with SIGSTOP instead, which is not
// discarded, and follows it into the stop (suspend).
func (t *ptySession) typed(p []byte) error {
	susp, ok := t.suspendChar()
	for ok {
		i := bytes.IndexByte(p, susp)
		if i < 0 {
			break
		}
		if err := t.inStop.writeAll(t.mfd, p[:i]); err != nil {
			return err
		}
		t.stopJob()
		p = p[i+1:]
	}
	return t.inStop.writeAll(t.mfd, p)
}

// suspendChar is the pty's VSUSP character when ISIG is on (a full-screen program
// that reads ^Z as a key turns ISIG off).
func (t *ptySession) suspendChar() (byte, bool) {
	tio, err := unix.IoctlGetTermios(t.mfd, ioctlGetTermios)
	if err != nil || tio.Lflag&unix.ISIG == 0 || tio.Cc[unix.VSUSP] == 0 {
		return 0, false
	}
	return tio.Cc[unix.VSUSP], true
}

// stopJob stops the pty's foreground process group, as ^Z would have.
func (t *ptySession) stopJob() {
	if pgrp, err := unix.IoctlGetInt(t.mfd, unix.TIOCGPGRP); err == nil && pgrp > 0 {
		_ = unix.Kill(-pgrp, unix.SIGSTOP)
		return
	}
	t.proc.signalGroup(unix.SIGSTOP)
}

// restoreOnPanic gives the person their terminal back before a panic in a loop
// takes the process down (Run's deferred restore would not run).
func (t *ptySession) restoreOnPanic() {
	if r := recover(); r != nil {
		t.outer.restore()
		panic(r)
	}
}

// finish waits for the output to end after the command exited. Background processes
// that still hold the pty (`trap "" HUP; (sleep 9; echo late) &`) have their process
// group killed, and the result is marked incomplete, when the master has stayed
// empty for OutputGrace, or when they keep writing for holderWrites*OutputGrace.
func (t *ptySession) finish() (incomplete bool) {
	t.exitWake.stop()
	// Keystrokes stop going to the pty the moment the command has exited: what
	// the person types now is for the next command (the shell's prompt), and
	// the pty would swallow it. Background jobs would get SIGTTIN under bash.
	t.inStop.stop()
	<-t.inDone
	writing := time.NewTimer(holderWrites * t.s.OutputGrace)
	defer writing.Stop()
	select {
	case <-t.outDone:
	case <-t.idle:
		incomplete = t.killHolders()
	case <-writing.C:
		incomplete = t.killHolders()
	}
	if t.errCopy != nil && drain(t.s.OutputGrace, t.errCopy) {
		incomplete = true
	}
	return incomplete || t.broken
}

// killHolders kills the command's process group and waits a moment for the EIO
// that follows; a holder that left the group (setsid) is abandoned.
func (t *ptySession) killHolders() (incomplete bool) {
	t.proc.signalGroup(syscall.SIGKILL)
	select {
	case <-t.outDone:
	case <-time.After(holderExit):
		t.outStop.stop()
		<-t.outDone
	}
	return true
}

func (t *ptySession) results(r *Result) {
	r.Merged = t.merged
	r.Stdout = t.dig.stream()
	if t.errCopy != nil {
		r.Stderr = t.errCopy.dig.stream()
	}
	t.castMu.Lock()
	cast, cut := t.cast.transcript(time.Now())
	t.castMu.Unlock()
	r.Cast = cast
	r.Incomplete = r.Incomplete || cut
}

// close releases the master, the slave (if the child never got it) and the
// stoppers; the loops have ended by then.
func (t *ptySession) close() {
	t.master.Close()
	t.tty.Close()
	t.outStop.close()
	t.inStop.close()
	t.exitWake.close()
}

// envValue looks key up the way the child will see it: in env, or in the guard's
// own environment when env is nil (exec.Cmd's rule); the last assignment wins.
func envValue(env []string, key string) string {
	if env == nil {
		return os.Getenv(key)
	}
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}
