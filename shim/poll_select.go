package shim

import (
	"time"

	"golang.org/x/sys/unix"
)

// pollSelect is poll(2) done with select(2), for macOS, whose poll does not work
// on terminal devices (it reports POLLNVAL for them) while the pty loops wait on
// the pty master and the person's terminal; the Linux tests run it too. Only
// POLLIN and POLLOUT are asked for here: a hung-up or failed descriptor is
// reported readable by select, and the read says what happened. One that
// select cannot watch (FD_SETSIZE and up) comes back at once as POLLNVAL. A
// negative Fd is skipped, as by poll.
func pollSelect(fds []unix.PollFd, timeoutMs int) (int, error) {
	var r, w unix.FdSet
	nfd := 0
	for i := range fds {
		fds[i].Revents = 0
		fd := int(fds[i].Fd)
		switch {
		case fd < 0:
			continue
		case fd >= unix.FD_SETSIZE:
			fds[i].Revents = unix.POLLNVAL
			continue
		}
		if fds[i].Events&unix.POLLIN != 0 {
			r.Set(fd)
		}
		if fds[i].Events&unix.POLLOUT != 0 {
			w.Set(fd)
		}
		nfd = max(nfd, fd+1)
	}
	for _, f := range fds {
		if f.Revents != 0 {
			return countReady(fds), nil
		}
	}
	var tv *unix.Timeval
	if timeoutMs >= 0 {
		t := unix.NsecToTimeval(int64(time.Duration(timeoutMs) * time.Millisecond))
		tv = &t
	}
	if _, err := unix.Select(nfd, &r, &w, nil, tv); err != nil {
		return 0, err
	}
	for i := range fds {
		fd := int(fds[i].Fd)
		if fd < 0 {
			continue
		}
		if r.IsSet(fd) {
			fds[i].Revents |= unix.POLLIN
		}
		if w.IsSet(fd) {
			fds[i].Revents |= unix.POLLOUT
		}
	}
	return countReady(fds), nil
}

func countReady(fds []unix.PollFd) int {
	n := 0
	for _, f := range fds {
		if f.Revents != 0 {
			n++
		}
	}
	return n
}
