package shim

import (
	"errors"

	"golang.org/x/sys/unix"
)

// The pty master from creack/pty is a blocking file: read deadlines are ignored and
// Close does not wake a blocked Read (creack/pty#162, #174). The pty loops therefore
// read and write raw descriptors with poll(2), together with a stopper, so that they
// can always be told to finish and never outlive the descriptors they use.

var (
	errStopped = errors.New("stopped")
	errWoken   = errors.New("woken")
	errIdle    = errors.New("idle")
)

// stopper is a pipe whose closed write end wakes every poll that watches its read end.
type stopper struct{ r, w int }

func newStopper() (*stopper, error) {
	var p [2]int
	if err := pipe2(p[:], unix.O_CLOEXEC|unix.O_NONBLOCK); err != nil {
		return nil, err
	}
	return &stopper{r: p[0], w: p[1]}, nil
}

// stop is idempotent.
func (s *stopper) stop() {
	if s.w >= 0 {
		unix.Close(s.w)
		s.w = -1
	}
}

// close releases both ends; call it only when no loop polls s any more.
func (s *stopper) close() {
	s.stop()
	unix.Close(s.r)
}

// waitFor polls fd for events, the stopper and, when not nil, wake (a second
// stopper that only interrupts the wait: errWoken). With idleMs >= 0 it gives up
// after that many milliseconds without any of them (errIdle).
func (s *stopper) waitFor(fd int, events int16, wake *stopper, idleMs int) error {
	fds := []unix.PollFd{{Fd: int32(fd), Events: events}, {Fd: int32(s.r), Events: unix.POLLIN}, {Fd: -1}}
	if wake != nil {
		fds[2] = unix.PollFd{Fd: int32(wake.r), Events: unix.POLLIN}
	}
	for {
		n, err := poll(fds, idleMs)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return err
		case n == 0:
			return errIdle
		case fds[1].Revents != 0:
			return errStopped
		case fds[0].Revents != 0:
			return nil // ready, or hung up / in error: the read or write will say
		case fds[2].Revents != 0:
			return errWoken
		}
	}
}

// read reads from fd once it is readable; 0, nil is end of file. fd is polled
// first, so a blocking descriptor (the caller's terminal) works too.
func (s *stopper) read(fd int, p []byte, wake *stopper) (int, error) {
	for {
		if err := s.waitFor(fd, unix.POLLIN, wake, -1); err != nil {
			return 0, err
		}
		if n, err, again := readOnce(fd, p); !again {
			return n, err
		}
	}
}

// readNonblock reads from fd, which must be non-blocking, and polls only when it is
// empty: under a stream of output that halves the system calls per read (the pty
// master returns at most a few KiB per read). idleMs is as for waitFor.
func (s *stopper) readNonblock(fd int, p []byte, wake *stopper, idleMs int) (int, error) {
	for {
		if n, err, again := readOnce(fd, p); !again {
			return n, err
		}
		if err := s.waitFor(fd, unix.POLLIN, wake, idleMs); err != nil {
			return 0, err
		}
	}
}

func readOnce(fd int, p []byte) (n int, err error, again bool) {
	n, err = unix.Read(fd, p)
	if err == unix.EAGAIN || err == unix.EINTR {
		return 0, nil, true
	}
	return max(n, 0), err, false
}

// writeAll writes all of p to fd, waiting for room as needed.
func (s *stopper) writeAll(fd int, p []byte) error {
	for len(p) > 0 {
		if err := s.waitFor(fd, unix.POLLOUT, nil, -1); err != nil {
			return err
		}
		n, err := unix.Write(fd, p)
		if err == unix.EAGAIN || err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		p = p[n:]
	}
	return nil
}
