package shim

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Signals in pty mode: the four forwarded ones go to the command's group as in pipe
// mode; SIGWINCH resizes the pty; SIGCHLD may mean the command was stopped by a ^Z
// typed into the pty, which the guard then follows.

// handleSignals handles signals on a goroutine of the session's own, because
// resizing and following a stop touch the session; the returned func stops it and
// waits until it has.
func (t *ptySession) handleSignals() (stop func()) {
	ch := make(chan os.Signal, 16)
	unsubscribe := subscribePTY(func(sig os.Signal) {
		select {
		case ch <- sig:
		default: // 16 queued: a queued resize reads the size current when it runs
		}
	})
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-quit:
				return
			case sig := <-ch:
				t.onSignal(sig)
			}
		}
	}()
	return func() {
		unsubscribe()
		close(quit)
		<-done
	}
}

func (t *ptySession) onSignal(sig os.Signal) {
	switch sig {
	case syscall.SIGWINCH:
		t.resize()
	case syscall.SIGCHLD:
		if t.proc.stopped() {
			t.suspend()
		}
	case syscall.SIGTSTP:
		// Sent to the guard (`kill -TSTP`, a ^Z of the terminal the guard runs
		// in while the command has the pty): stop the command's job, which
		// then stops the guard with it (SIGCHLD above).
		// SIGSTOP, not SIGTSTP: the command's group is orphaned (see typed).
		t.stopJob()
	case syscall.SIGCONT:
		t.proc.signalGroup(syscall.SIGCONT)
	default:
		t.proc.forward(sig)
	}
}

// resize gives the pty the outer terminal's new size; the kernel then sends SIGWINCH
// to the command's foreground group.
func (t *ptySession) resize() {
	ws := windowSize(t.s.Stdout, t.s.Stdin)
	if ws.Col == t.size.Col && ws.Row == t.size.Row {
		return
	}
	t.size = *ws
	_ = unix.IoctlSetWinsize(t.mfd, unix.TIOCSWINSZ, ws)
	t.castMu.Lock()
	t.cast.resize(time.Now(), int(ws.Col), int(ws.Row))
	t.castMu.Unlock()
}

// suspend follows the command into a stop (^Z typed into the pty stops the command,
// not the guard): it gives the terminal back in its own modes, stops the guard the
// way ^Z would have under bash, and on `fg` takes raw mode again and continues the
// command. Without it a ^Z would leave the command stopped and the guard waiting.
func (t *ptySession) suspend() {
	if t.outer.saved == nil {
		return // not our terminal's doing: whoever stopped the command continues it
	}
	t.outer.restore()
	stopSelf()
	_ = t.outer.makeRaw()
	t.resize()
	t.proc.signalGroup(syscall.SIGCONT)
}
