package shim

import (
	"errors"
	"io"
	"time"

	"golang.org/x/sys/unix"
)

// forwardRW moves one chunk from the command's pipe to dst through a buffer
// (read, write), then digests what reached dst. It is how the copier forwards
// where the kernel has no splice and tee (macOS, the BSDs); Linux uses it only
// in tests (readWriteRelay). It keeps the splice path's promises: the bytes
// reach dst unchanged and in order; when dst fails (its reader went away, the
// disk is full) the read end is closed, so the command's next write fails with
// EPIPE and SIGPIPE, as under bash; end of file comes when the last writer has
// closed the pipe. Hashing runs in line, under the observer's budget: once
// hashFloor bytes are hashed it is given up as soon as it has taken more than
// hashBudget of the time since the first byte; the length, head and tail stay
// exact.
func (c *copier) forwardRW() (int64, error) {
	bp := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(bp)
	n, err := c.r.Read(*bp)
	switch {
	case n == 0 && (err == nil || errors.Is(err, io.EOF)):
		return 0, errEOF
	case n == 0:
		return 0, err // a deadline, or the pipe is gone
	}
	p := (*bp)[:n]
	if c.firstByte.IsZero() {
		c.firstByte = time.Now()
	}
	w := n
	if c.dst != nil {
		if w, err = c.writeDst(p); err != nil {
			c.broken = true
			c.r.Close()
		}
	}
	c.delivered.Add(int64(w))
	c.digestRW(p[:w])
	return int64(n), nil
}

// writeDst writes all of p to dst with write(2) itself, not os.File.Write: the
// Go runtime ends the process by SIGPIPE when a write of its own to descriptor 1
// or 2 fails with EPIPE, and the guard must instead pass the failure on to the
// command. It waits for room in the runtime's poller when Go opened dst
// non-blocking, else with poll(2); a blocking dst makes write itself wait.
func (c *copier) writeDst(p []byte) (int, error) {
	if c.dstRC == nil {
		if rc, err := c.dst.SyscallConn(); err == nil {
			c.dstRC = rc
		}
	}
	done := 0
	var werr error
	try := func(fd uintptr) bool {
		for done < len(p) {
			m, err := unix.Write(int(fd), p[done:])
			switch {
			case err == unix.EINTR:
				continue
			case err != nil:
				werr = err
				return err != unix.EAGAIN
			case m == 0:
				werr = io.ErrShortWrite
				return true
			}
			done += m
		}
		werr = nil
		return true
	}
	if c.dstRC != nil {
		err := c.dstRC.Write(try)
		if werr != unix.EAGAIN {
			if werr == nil && done < len(p) {
				werr = errors.Join(err, io.ErrShortWrite)
			}
			return done, werr
		}
	}
	out := rawFd(c.dst)
	if out < 0 {
		return done, errors.Join(werr, errors.New("shim: the destination is closed"))
	}
	for !try(uintptr(out)) {
		waitWritable(out)
	}
	return done, werr
}

// digestRW digests p, which reached dst, hashing it while the budget allows.
func (c *copier) digestRW(p []byte) {
	if hashGivesWay && c.dig.hashedBytes() >= hashFloor {
		c.stopHash.Store(true)
	}
	if c.stopHash.Load() {
		c.dig.write(p, false)
		return
	}
	t := time.Now()
	c.dig.write(p, true)
	c.waited += time.Since(t)
	if c.dig.hashedBytes() >= hashFloor && c.waited.Seconds() > hashBudget*time.Since(c.firstByte).Seconds() {
		c.stopHash.Store(true)
	}
}
