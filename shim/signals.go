package shim

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// The guard listens for signals once per process, not once per Run: every
// signal.Notify and signal.Stop is a round trip to the runtime's signal-mask thread
// and an rt_sigaction, and per Run they cost more than everything else Run adds to
// `bash -c true` (about 0.15 ms of 0.25 ms, measured). A relay goroutine hands each
// signal to the Runs in progress, by calling their handlers (which must not block);
// with none in progress, a terminating signal does what it would have done to a
// program that never listened.

// relayed are the signals every Run needs: the ones a shell stand-in forwards
// (every catchable signal whose default ends or is handled by bash, except the
// Go runtime's own SIGURG and SIGPROF and the job-control stops), and
// SIGPIPE, which is only swallowed so that a closed stdout cannot kill the guard
// before it has written its ledger (a notification, unlike signal.Ignore, does not
// hand SIG_IGN down to the command).
var relayed = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGALRM, syscall.SIGPIPE}

// ptyRelayed are the resize and stop notifications only pty mode uses. They are
// listened to from the first pty Run on, not before: each signal enabled is a round
// trip to the runtime's signal-mask thread, and a SIGCHLD listened to wakes the
// relay at every exit of a child, which in pipe mode nobody wants to hear about.
var ptyRelayed = []os.Signal{syscall.SIGWINCH, syscall.SIGCHLD, syscall.SIGTSTP, syscall.SIGCONT}

type subscriber struct{ handle func(os.Signal) }

var relay struct {
	once    sync.Once
	ptyOnce sync.Once
	in      chan os.Signal
	mu      sync.Mutex
	subs    map[*subscriber]bool
	lastEnd time.Time // when the last subscriber left
}

// lateSignal is how long after a Run a terminal's SIGINT or SIGQUIT is still taken
// to be the one that ended its command. ^C signals the whole foreground group: the
// command may die of its copy before the guard's copy reaches the relay, and the
// guard must not die of it before it writes the ledger.
const lateSignal = 250 * time.Millisecond

// subscribe calls handle with every relayed signal until unsubscribe. handle runs
// on the relay goroutine and must not block.
func subscribe(handle func(os.Signal)) (unsubscribe func()) {
	relay.once.Do(startRelay)
	sub := &subscriber{handle}
	relay.mu.Lock()
	relay.subs[sub] = true
	relay.mu.Unlock()
	return func() {
		relay.mu.Lock()
		delete(relay.subs, sub)
		relay.lastEnd = time.Now()
		relay.mu.Unlock()
	}
}

// Prepare starts listening to the relayed signals in the background, so that the
// first Run finds it done. A caller that is about to decide whether to run a
// command calls it first. Listening starts the runtime's signal-mask thread and,
// through that thread's LockOSThread, the template thread that startProc's
// LockOSThread would otherwise start: about 0.1 ms of a -c true, which on a second
// CPU overlaps the analysis instead of delaying the command. Listening early
// changes nothing that shows: with no Run in progress a relayed signal acts as if
// nobody listened (actAsDefault), save SIGPIPE, which the guard survives earlier.
func Prepare() { go relay.once.Do(startRelay) }

// subscribePTY is subscribe for a pty Run, which hears ptyRelayed too (and so do
// the Runs after it: listening is never undone, see above).
func subscribePTY(handle func(os.Signal)) (unsubscribe func()) {
	relay.once.Do(startRelay)
	relay.ptyOnce.Do(func() { listen(ptyRelayed) })
	return subscribe(handle)
}

// startRelay subscribes to the relayed signals and hands them to the subscribers.
func startRelay() {
	relay.subs = make(map[*subscriber]bool)
	relay.in = make(chan os.Signal, 32)
	listen(relayed)
	go func() {
		for sig := range relay.in {
			relay.mu.Lock()
			n, since := len(relay.subs), time.Since(relay.lastEnd)
			for sub := range relay.subs {
				sub.handle(sig)
			}
			relay.mu.Unlock()
			if n == 0 {
				actAsDefault(sig, since)
			}
		}
	}()
}

// listen has sigs delivered to the relay, except those the guard inherited as
// ignored: catching them would hand the command a default disposition where bash
// would have passed on SIG_IGN (`nohup guard-exec -c …`, or a background job of a
// script, which ignores SIGINT).
func listen(sigs []os.Signal) {
	for _, sig := range sigs {
		if !signal.Ignored(sig) {
			signal.Notify(relay.in, sig)
		}
	}
}

// actAsDefault gives a signal that arrived between Runs its default effect, unless
// it is a terminal's ^C or ^\ that came just after a Run.
func actAsDefault(sig os.Signal, sinceRun time.Duration) {
	switch sig {
	case syscall.SIGINT, syscall.SIGQUIT:
		if sinceRun < lateSignal {
			return
		}
		fallthrough
	case syscall.SIGTERM, syscall.SIGHUP, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGALRM:
		signal.Reset(sig)
		_ = syscall.Kill(os.Getpid(), sig.(syscall.Signal))
	}
}

// isForwarded reports whether sig is one a shell stand-in passes on to the command.
func isForwarded(sig os.Signal) bool {
	switch sig {
	case syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT,
		syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGALRM, syscall.SIGWINCH,
		syscall.SIGTSTP, syscall.SIGCONT:
		return true
	}
	return false
}
