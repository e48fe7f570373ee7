package shim

import (
	"context"
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// PTYMode chooses between a pseudo-terminal and plain pipes.
type PTYMode uint8

const (
	PTYAuto   PTYMode = iota // a pty when stdin and stdout are both terminals and the guard is in the foreground (AutoPTY)
	PTYAlways                // a pty whatever stdio is
	PTYNever                 // pipes whatever stdio is
)

// Defaults for the zero values of Spec's tuning fields.
const (
	DefaultDigestBytes = 2048
	DefaultCastLimit   = 1 << 20
	DefaultPipeGrace   = 50 * time.Millisecond
	DefaultPTYGrace    = 500 * time.Millisecond
	DefaultKillGrace   = 2 * time.Second
)

// Spec says what to run and with what.
type Spec struct {
	Path                  string        // the program to run (real bash, real sh, or a program for argv mode)
	Argv                  []string      // full argv including argv[0]; empty means {Path}
	Env                   []string      // nil: the guard's own environment
	Dir                   string        // "": the guard's working directory
	Stdin, Stdout, Stderr *os.File      // nil: /dev/null
	Closed                [3]bool       // the caller's descriptor 0, 1 or 2 is closed: the command's is closed too, whatever the file field says
	PTY                   PTYMode       // Auto: pty when stdin AND stdout are terminals
	Timeout               time.Duration // 0 = none; on expiry kill the process group, Result.TimedOut (the command then always has a group of its own, even at a terminal)
	DigestBytes           int           // bytes kept from the head and from the tail of each stream (default 2048)
	CastLimit             int           // max bytes of asciicast kept in pty mode (default 1 MiB); beyond: stop recording, mark Incomplete
	Started               func(pid int) // optional, called right after the child starts
	// Start, when set, is where the command starts: it calls fork (which
	// starts the command and returns its pid) where it must happen. The
	// kernel sandbox (internal/sandbox) forks it from a restricted thread.
	Start func(fork func() (int, error)) error
	// Slow, when set, is called once when the command still runs SlowAfter
	// after it started, and never for a command over sooner. On Linux the
	// goroutine that waits for the command calls it, having waited on the
	// command's pidfd for SlowAfter: no runtime timer, whose first use in a
	// process sets up the poller (epoll, an eventfd) and has a thread wake
	// to fire it, for the usual command that ends first. Elsewhere, and
	// without a pidfd, a timer calls it.
	Slow      func()
	SlowAfter time.Duration

	// OutputGrace is how long background processes that hold the command's stdout
	// or pty after it exited (`sleep 2 & echo hi`) are waited for: in pipe mode
	// once everything the command wrote is delivered, however slow the reader; in
	// pty mode while the pty stays empty (and for at most 10 OutputGraces of their
	// output). Then the guard stops reading (pipe mode) or kills the group (pty
	// mode) and marks the Result Incomplete. Default DefaultPipeGrace or
	// DefaultPTYGrace.
	OutputGrace time.Duration
	// KillGrace is how long a timed-out command has between SIGTERM and SIGKILL.
	// Default DefaultKillGrace.
	KillGrace time.Duration
}

// Stream is the evidence kept of one output stream.
type Stream struct {
	Bytes      int64
	SHA256     string // hex SHA-256 of the first Hashed bytes; "" when the stream was not observed
	Hashed     int64  // bytes SHA256 covers: Bytes, unless hashing gave way to a fast reader (copy.go)
	Head, Tail []byte // first / last DigestBytes (Tail empty when the stream fits in Head)
	Truncated  bool   // bytes between Head and Tail were not kept
}

// Result is what happened.
type Result struct {
	ExitCode       int    // like bash: the status, or 128+N for a death by signal N
	Signal         string // "SIGTERM" etc. when the child died by a signal
	Duration       time.Duration
	TimedOut       bool
	PTY            bool // ran under a pty
	Merged         bool // stdout and stderr were one stream (pty, or both fds were the same file)
	Stdout, Stderr Stream
	Cast           []byte // asciicast v2 transcript (pty mode), bounded
	Incomplete     bool   // output observation may be missing something (pty holder, cast cut)
}

// Run starts the program and waits. The error is non-nil only when it could not
// start (then exit 125/127 is the caller's choice). Run never writes to the
// process's own stdio, never exits, and leaves nothing running that reads or writes
// Spec's files after it returns.
//
// The first Run (or Prepare) starts listening, for the rest of the process's life,
// to SIGINT, SIGTERM, SIGHUP and SIGQUIT (forwarded to the command while one runs;
// between Runs they act as if nobody listened) and SIGPIPE, which is swallowed: a
// guard whose stdout was closed (`guard-exec … | head`) must live on to write its
// ledger. The first pty Run adds SIGWINCH and SIGCHLD.
func Run(ctx context.Context, s *Spec) (*Result, error) {
	if s.Path == "" {
		return nil, errors.New("shim: Spec.Path is empty")
	}
	spec := s.withDefaults()
	run := runPipe
	if spec.usePTY() {
		run = runPTY
	}
	return run(ctx, &spec)
}

func (s *Spec) withDefaults() Spec {
	c := *s
	if len(c.Argv) == 0 {
		c.Argv = []string{c.Path}
	}
	if c.DigestBytes <= 0 {
		c.DigestBytes = DefaultDigestBytes
	}
	if c.CastLimit <= 0 {
		c.CastLimit = DefaultCastLimit
	}
	if c.KillGrace <= 0 {
		c.KillGrace = DefaultKillGrace
	}
	if c.OutputGrace <= 0 {
		c.OutputGrace = DefaultPipeGrace
		if c.usePTY() {
			c.OutputGrace = DefaultPTYGrace
		}
	}
	return c
}

func (s *Spec) usePTY() bool {
	switch s.PTY {
	case PTYAlways:
		return true
	case PTYNever:
		return false
	}
	return AutoPTY(s.Stdin, s.Stdout)
}

// AutoPTY reports whether PTYAuto picks a pty: stdin and stdout are terminals and
// the guard's process group is stdin's terminal's foreground group. A guard started
// in the background (`guard-exec -c 'sleep 1; echo X' &`) runs the command on the
// caller's terminal directly, as bash would: raw mode from the background would
// stop it with SIGTTOU for good, and it must not read what is typed next.
func AutoPTY(stdin, stdout *os.File) bool {
	if !IsTerminal(stdin) || !IsTerminal(stdout) {
		return false
	}
	pgrp, err := unix.IoctlGetInt(rawFd(stdin), unix.TIOCGPGRP)
	return err != nil || pgrp == unix.Getpgrp() // not our controlling terminal: as before
}

func (s *Spec) limits() waitLimits {
	return waitLimits{timeout: s.Timeout, killGrace: s.KillGrace, slow: s.Slow, slowAfter: s.SlowAfter}
}

// command builds the launch of the command with the given descriptors 0, 1 and 2
// (nil: /dev/null, unless Closed says the caller's is closed). done releases the
// /dev/null it may have opened; call it once the child has started.
func (s *Spec) command(in, out, errf *os.File) (l *launch, done func(), err error) {
	l = &launch{path: s.Path, argv: s.Argv, env: s.Env, dir: s.Dir}
	var null *os.File
	done = func() {
		if null != nil {
			null.Close()
		}
	}
	for i, f := range []*os.File{in, out, errf} {
		switch {
		case s.Closed[i]:
			f = nil
		case f == nil:
			if null == nil {
				if null, err = os.OpenFile(os.DevNull, os.O_RDWR, 0); err != nil {
					return nil, done, err
				}
			}
			f = null
		}
		l.files = append(l.files, f)
	}
	return l, done, nil
}

// IsTerminal reports whether f is a terminal.
func IsTerminal(f *os.File) bool {
	fd := rawFd(f)
	if fd < 0 {
		return false
	}
	_, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	return err == nil
}

// rawFd returns f's descriptor without f.Fd()'s side effect of switching a pollable
// file to blocking mode; -1 for nil or closed files.
func rawFd(f *os.File) int {
	if f == nil {
		return -1
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return -1
	}
	fd := -1
	if rc.Control(func(u uintptr) { fd = int(u) }) != nil {
		return -1
	}
	return fd
}

// sameFile reports whether a and b are the same open file (stdout and stderr after
// 2>&1). It compares device and inode, so `>f 2>f` (two opens of f) also counts.
func sameFile(a, b *os.File) bool {
	fa, fb := rawFd(a), rawFd(b)
	if fa < 0 || fb < 0 {
		return false
	}
	var sa, sb unix.Stat_t
	return unix.Fstat(fa, &sa) == nil && unix.Fstat(fb, &sb) == nil && sa.Dev == sb.Dev && sa.Ino == sb.Ino
}
