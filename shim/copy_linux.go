package shim

import (
	"errors"
	"time"

	"golang.org/x/sys/unix"
)

// The Linux copier: tee(2) to the observer, splice(2) to dst (see copier).

// readWriteRelay makes the Linux build forward by read and write, as it does on
// the systems without splice and tee (copy_rw.go); only tests set it, so that
// the portable path runs here too.
var readWriteRelay = false

// forward waits for output and moves one chunk of it to dst, letting the observer
// or the tail keeper see it on the way. It returns the bytes taken from the
// command's pipe.
func (c *copier) forward() (int64, error) {
	if readWriteRelay {
		return c.forwardRW()
	}
	if hashGivesWay && c.dig.hashedBytes() >= hashFloor {
		c.stopHash.Store(true)
	}
	if c.stopHash.Load() && c.observer != 2 {
		c.observer = 2
		c.closeObserverPipe() // the observer digests what it has, and stops
		_ = c.tail.start()    // without a pipe, the tail is not kept
	}
	var n int64
	var werr error
	fd := -1
	err := c.rc.Read(func(u uintptr) bool {
		fd = int(u)
		if c.observer == 0 && pendingFd(fd) > 0 {
			c.startObserver()
		}
		if c.observer == 1 {
			n, werr = c.tee(fd)
		} else {
			n, werr = available(fd)
		}
		return werr != unix.EAGAIN // EAGAIN: the pipe is empty, wait for it
	})
	if err != nil {
		return 0, err // a deadline
	}
	switch {
	case werr != nil:
		return 0, werr
	case n == 0:
		return 0, errEOF
	}
	if c.firstByte.IsZero() {
		c.firstByte = time.Now()
	}
	switch {
	case c.observer == 1:
		c.deliver(fd, n)
	case c.tail.on:
		c.deliverTail(fd, n)
	default: // nothing looks: count only
		c.tail.skip(c.deliver(fd, n))
	}
	c.grow(fd, n)
	return n, nil
}

// grow enlarges both pipes once the stream has shown it is a big one.
func (c *copier) grow(fd int, n int64) {
	if c.forwarded += n; c.grown || c.forwarded < growAt {
		return
	}
	c.grown = true
	_, _ = unix.FcntlInt(uintptr(fd), unix.F_SETPIPE_SZ, pipeSize)
	if c.obsW >= 0 {
		_, _ = unix.FcntlInt(uintptr(c.obsW), unix.F_SETPIPE_SZ, pipeSize)
	}
}

// tee duplicates what is in the command's pipe (up to maxChunk) into the
// observer's. When the observer's pipe is full it waits for room, and accounts the
// wait against hashBudget.
func (c *copier) tee(fd int) (int64, error) {
	for {
		n, err := unix.Tee(fd, c.obsW, maxChunk, unix.SPLICE_F_NONBLOCK)
		switch {
		case err == unix.EINTR:
			continue
		case err != unix.EAGAIN:
			return max(n, 0), err
		case pendingFd(fd) == 0:
			return 0, unix.EAGAIN // nothing to read yet
		}
		c.waitObserver()
	}
}

// waitObserver blocks until the observer's pipe has room again.
func (c *copier) waitObserver() {
	t := time.Now()
	waitWritable(c.obsW)
	c.waited += time.Since(t)
	if !c.stopHash.Load() && c.dig.hashedBytes() >= hashFloor &&
		c.waited.Seconds() > hashBudget*time.Since(c.firstByte).Seconds() {
		c.stopHash.Store(true)
	}
}

// available reports how much the command's pipe holds, up to maxChunk; 0 with no
// error at end of file, EAGAIN when it is empty but still has a writer.
func available(fd int) (int64, error) {
	if n := pendingFd(fd); n > 0 {
		return min(n, maxChunk), nil
	}
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	if _, err := unix.Poll(fds, 0); err == nil && fds[0].Revents&unix.POLLHUP != 0 && pendingFd(fd) == 0 {
		return 0, nil
	}
	return 0, unix.EAGAIN
}

// deliver moves n bytes, which are in the command's pipe (fd), to dst. When dst
// fails (the caller's reader went away: `guard-exec -c yes | head -c 4`) the read end
// is closed, so the command's next write fails with EPIPE and SIGPIPE, as it would
// have written straight into the closed pipe under bash. It returns what was
// delivered.
func (c *copier) deliver(fd int, n int64) int64 {
	var done int64
	for done < n {
		m, err := c.move(fd, n-done)
		if m > 0 {
			done += m
			c.delivered.Add(m)
			c.signalProgress()
		}
		if err != nil {
			c.broken = true
			c.r.Close()
			break
		}
	}
	return done
}

// move moves up to n bytes from fd to dst by splice, or through a buffer once dst
// has refused splice.
func (c *copier) move(fd int, n int64) (int64, error) {
	if c.dst == nil {
		return c.copyOut(fd, n)
	}
	for !c.copyMode {
		m, err := c.splice(fd, n)
		switch {
		case err == nil && m > 0:
			return m, nil
		case err == unix.EINVAL || err == unix.ENOSYS:
			c.copyMode = true // not spliceable (terminal, O_APPEND file): copy
		case err != nil:
			return 0, err
		default:
			return 0, errors.New("shim: splice moved nothing")
		}
	}
	return c.copyOut(fd, n)
}

// splice moves up to n bytes from fd to dst, waiting while dst is full: in the
// runtime's poller when Go opened dst non-blocking (os.Pipe), else with poll(2); a
// blocking dst makes splice itself wait.
func (c *copier) splice(fd int, n int64) (int64, error) {
	if c.dstRC == nil {
		if rc, err := c.dst.SyscallConn(); err == nil {
			c.dstRC = rc
		}
	}
	var m int64
	var serr error
	try := func(out uintptr) bool {
		for {
			m, serr = unix.Splice(fd, nil, int(out), nil, int(n), unix.SPLICE_F_MOVE)
			if serr != unix.EINTR {
				return serr != unix.EAGAIN
			}
		}
	}
	if c.dstRC != nil {
		if err := c.dstRC.Write(try); err == nil || serr != unix.EAGAIN {
			return max(m, 0), serr
		}
	}
	out := rawFd(c.dst)
	for !try(uintptr(out)) {
		waitWritable(out)
	}
	return max(m, 0), serr
}

// copyOut reads up to n bytes from fd and writes them to dst (when there is one).
func (c *copier) copyOut(fd int, n int64) (int64, error) {
	bp := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(bp)
	buf := (*bp)[:min(int64(len(*bp)), n)]
	m, err := readFull(fd, buf)
	if err != nil || m == 0 {
		return 0, errors.Join(err, errors.New("shim: the command's pipe lost data"))
	}
	if c.dst == nil {
		return int64(m), nil
	}
	w, err := c.dst.Write(buf[:m])
	return int64(w), err
}

// readFull reads len(b) bytes that are known to be in the pipe fd.
func readFull(fd int, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := unix.Read(fd, b[n:])
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return n, err
		case m == 0:
			return n, nil
		}
		n += m
	}
	return n, nil
}

// startObserver makes the observer's pipe and starts the observer, at the
// first chunk. Without a pipe (out of descriptors) the stream goes on
// unobserved but for its length.
func (c *copier) startObserver() {
	or, ow, err := newPipe()
	if err != nil {
		c.observer = 2
		c.stopHash.Store(true)
		return
	}
	c.obsR, c.obsW, c.observer = or, ow, 1
	c.wg.Add(1) // the forwarder's count is held: Add may race no Wait
	go func() { defer c.wg.Done(); c.observe() }()
}
