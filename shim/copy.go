package shim

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// copier moves one output stream from the pipe the command writes to, to the file
// the caller gave, feeding the digest on the way. The command never sees anything
// but a pipe, so its bytes reach dst unchanged and in order.
type copier struct {
	r   *os.File // read end; os.Pipe puts it in the poller, so read deadlines work
	dst *os.File // nil: the bytes are only observed
	dig *digest

	exited atomic.Bool // set by markExited
	grace  time.Duration
	done   chan struct{}
	broken bool // a write to dst failed
	cut    bool // stopped while a background process still held the pipe
}

var copyBuffers = sync.Pool{New: func() any { b := make([]byte, copyBufferSize); return &b }}

// copyBufferSize is larger than a default pipe (64 KiB) so that one read empties a
// pipe that the writer has grown, and so that small buffers are never the limit.
const copyBufferSize = 128 << 10

// newCopier returns a copier and the write end to give the command. Only the read
// end goes into the runtime's poller; the write end stays a plain blocking
// descriptor, as the command must see it (os.Pipe would register it too, and
// exec would have to take it out again: four system calls per stream for nothing).
func newCopier(dst *os.File, digestBytes int) (*copier, *os.File, error) {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	if err := unix.SetNonblock(p[0], true); err != nil {
		unix.Close(p[0])
		unix.Close(p[1])
		return nil, nil, os.NewSyscallError("fcntl", err)
	}
	r := os.NewFile(uintptr(p[0]), "|0") // non-blocking: NewFile puts it in the poller
	w := os.NewFile(uintptr(p[1]), "|1")
	return &copier{r: r, dst: dst, dig: newDigest(digestBytes), done: make(chan struct{})}, w, nil
}

func (c *copier) start() { go c.run() }

// run copies until EOF. Once the command has exited it first reads everything the
// command wrote before it exited (however slowly the caller's reader takes it: that
// output must not be lost), then gives background processes that still hold the
// pipe (`sleep 2 & echo hi`) grace more time before it gives up and marks the
// stream cut. Under bash alone those processes would go on writing to the caller's
// stdout; here their next write fails with EPIPE.
func (c *copier) run() {
	defer close(c.done)
	bp := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(bp)
	var read, owed int64 = 0, -1
	var stopAt time.Time
	for {
		if owed < 0 && c.exited.Load() {
			owed = read + pending(c.r)
		}
		if owed >= 0 && read >= owed && stopAt.IsZero() {
			stopAt = time.Now().Add(c.grace)
			_ = c.r.SetReadDeadline(stopAt)
		}
		n, err := c.r.Read(*bp)
		read += int64(n)
		if n > 0 && !c.deliver((*bp)[:n]) {
			return
		}
		if err == nil {
			continue
		}
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			return // EOF: every writer is gone
		}
		switch {
		case stopAt.IsZero(): // markExited's wake-up: note the exit, read on
			_ = c.r.SetReadDeadline(time.Time{})
		case time.Now().Before(stopAt): // the wake-up came late and replaced our deadline
			_ = c.r.SetReadDeadline(stopAt)
		default:
			c.cut = true
			return
		}
	}
}

// pending is how many bytes wait in the pipe.
func pending(f *os.File) int64 {
	n, err := unix.IoctlGetInt(rawFd(f), unix.TIOCINQ) // FIONREAD
	if err != nil || n < 0 {
		return 0
	}
	return int64(n)
}

// deliver writes p to dst and observes what was written. When dst fails (the
// caller's reader went away: `guard-exec -c yes | head -c 4`) the read end is
// closed, so the command's next write fails with EPIPE and SIGPIPE, as it would
// have written straight into the closed pipe under bash.
func (c *copier) deliver(p []byte) bool {
	if c.dst == nil {
		c.dig.Write(p)
		return true
	}
	n, err := c.dst.Write(p)
	c.dig.Write(p[:n])
	if err != nil {
		c.broken = true
		c.r.Close()
		return false
	}
	return true
}

// markExited tells the copier the command has exited, waking a Read that waits for
// data so the copier can take note.
func (c *copier) markExited(grace time.Duration) {
	c.grace = grace // read by run only after it sees exited
	c.exited.Store(true)
	_ = c.r.SetReadDeadline(time.Unix(1, 0))
}

// drain tells every copier the command has exited, waits for them, and closes the
// read ends. It reports whether anything was cut off: a background process held a
// pipe past the grace period, or a destination failed.
func drain(grace time.Duration, cs ...*copier) (incomplete bool) {
	for _, c := range cs {
		if c != nil {
			c.markExited(grace)
		}
	}
	for _, c := range cs {
		if c != nil {
			<-c.done
			c.r.Close()
			incomplete = incomplete || c.broken || c.cut
		}
	}
	return incomplete
}
