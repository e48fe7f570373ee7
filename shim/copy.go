package shim

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// copier moves one output stream from the pipe the command writes to, to the file
// the caller gave, and has it observed for the digest on the way. The command never
// sees anything but a pipe, so its bytes reach dst unchanged and in order.
//
// The bytes do not pass through the guard's memory on their way to dst: each chunk
// is duplicated with tee(2) into a second pipe, which an observer goroutine reads
// for the digest (length, SHA-256, head and tail), and then moved with splice(2)
// from the command's pipe to dst, page references only. When dst refuses splice (a
// terminal, a file opened with O_APPEND) the chunk is read and written instead. So
// hashing, the one costly step, runs beside the forwarding instead of in front of
// it; and when it cannot keep up with the caller's reader it gives way (see
// hashBudget), after which only the last bytes of each chunk are looked at, for the
// digest's tail (tail.go).
type copier struct {
	r     *os.File        // the command's pipe, read end; in the poller, so read deadlines work
	rc    syscall.RawConn // r's raw access, for tee and splice
	dst   *os.File        // nil: the bytes are only observed
	dstRC syscall.RawConn // dst's, for splice; nil until needed
	dig   *digest         // written by the observer, then merged with tail; read once done is closed

	obsR *os.File // the observer's pipe: read end (poller) …
	obsW int      // … and write end, a plain descriptor for tee; -1 when not open
	// observer: 0 until the first chunk (a command without output never
	// pays for the observer), then 1 while it runs, 2 once it was told to
	// stop or could not start.
	observer int
	wg       sync.WaitGroup // the forwarder and the observer

	exited    atomic.Bool // set by markExited
	grace     time.Duration
	done      chan struct{} // closed when forwarder and observer have both finished
	broken    bool          // a write to dst failed
	cut       bool          // stopped while a background process still held the pipe
	handedOff bool          // the rest of the stream went to a relay (relay.go)

	copyMode  bool         // dst refused splice: read and write through user space
	delivered atomic.Int64 // bytes that reached dst; the observer digests no further
	fwdDone   atomic.Bool  // the forwarder has stopped: delivered is final
	progress  chan struct{}
	stopHash  atomic.Bool // give up hashing: waiting for it cost more than hashBudget
	waited    time.Duration
	firstByte time.Time
	forwarded int64
	grown     bool
	tail      tailMode
}

var copyBuffers = sync.Pool{New: func() any { b := make([]byte, copyBufferSize); return &b }}

const (
	// maxChunk bounds what one tee takes, and so what one observer read gets.
	maxChunk = 256 << 10
	// copyBufferSize is for the read/write path: one chunk.
	copyBufferSize = maxChunk
	// Both pipes of a stream are grown to pipeSize (best effort: the kernel gives
	// less to a user over its pipe quota) once growAt bytes have passed. One
	// wake-up of the guard then moves up to a chunk; with 64 KiB pipes the context
	// switches of a third process in the path cost more than the bytes. Commands
	// with little output never take the quota.
	pipeSize = 1 << 20
	growAt   = 1 << 20
)

// Hashing never holds the output back by more than a small share of the time it
// takes: once hashFloor bytes are hashed, the hash is given up (the stream's
// SHA-256 then covers its first Stream.Hashed bytes) as soon as the forwarder has
// waited for the observer longer than hashBudget of the time since the first byte.
// A caller that reads slower than SHA-256 runs (an agent, a terminal, a log file
// being written by a build) never makes it wait, and gets the hash of every byte.
const hashBudget = 0.05

// hashFloor is a variable only for tests, which also set hashGivesWay: give up
// hashing at the floor, whatever the budget says.
var (
	hashFloor    int64 = 16 << 20
	hashGivesWay       = false
)

// newCopier returns a copier and the write end to give the command. Only read ends
// go into the runtime's poller; the command's write end stays a plain blocking
// descriptor, as the command must see it.
func newCopier(dst *os.File, digestBytes int) (*copier, *os.File, error) {
	r, w, err := newPipe()
	if err != nil {
		return nil, nil, err
	}
	c := &copier{r: r, dst: dst, dig: newDigest(digestBytes), obsW: -1,
		done: make(chan struct{}), progress: make(chan struct{}, 1)}
	c.tail.max = digestBytes
	if c.rc, err = r.SyscallConn(); err != nil {
		c.discard()
		unix.Close(w)
		return nil, nil, err
	}
	return c, os.NewFile(uintptr(w), "|1"), nil
}

// newPipe makes a pipe whose read end is non-blocking and in the poller, and whose
// write end is a plain blocking descriptor, both close-on-exec.
func newPipe() (r *os.File, w int, err error) {
	var p [2]int
	if err := pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return nil, -1, os.NewSyscallError("pipe2", err)
	}
	if err := unix.SetNonblock(p[0], true); err != nil {
		unix.Close(p[0])
		unix.Close(p[1])
		return nil, -1, os.NewSyscallError("fcntl", err)
	}
	return os.NewFile(uintptr(p[0]), "|0"), p[1], nil
}

// discard releases a copier that was never started.
func (c *copier) discard() {
	c.r.Close()
}

func (c *copier) start() {
	c.wg.Add(1)
	go func() { defer c.wg.Done(); c.run() }()
	go func() {
		c.wg.Wait()
		c.dig.merge(&c.tail)
		close(c.done)
	}()
}

// run forwards until EOF. Once the command has exited it first forwards everything
// the command wrote before it exited (however slowly the caller's reader takes it:
// that output must not be lost), then gives background processes that still hold
// the pipe (`sleep 2 & echo hi`) grace more time before it hands the rest of the
// stream to a relay that outlives the guard (relay.go). Only when no relay can be
// started is the stream cut, and their next write fails with EPIPE.
func (c *copier) run() {
	defer c.finishForwarding()
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
		n, err := c.forward()
		read += n
		if c.broken {
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
			c.handedOff = c.handOff()
			c.cut = !c.handedOff
			return
		}
	}
}

// errEOF ends forwarding: the pipe is empty and has no writer left.
var errEOF = errors.New("end of output")

func waitWritable(fd int) {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}
	for {
		if _, err := unix.Poll(fds, -1); err != unix.EINTR {
			return
		}
	}
}

func (c *copier) signalProgress() {
	select {
	case c.progress <- struct{}{}:
	default:
	}
}

func (c *copier) closeObserverPipe() {
	if c.obsW >= 0 {
		unix.Close(c.obsW)
		c.obsW = -1
	}
}

// finishForwarding marks the forwarder done and closes its ends of the observer's
// and the tail keeper's pipes, so the observer sees end of file after the last
// chunk.
func (c *copier) finishForwarding() {
	c.fwdDone.Store(true)
	c.signalProgress()
	c.closeObserverPipe()
	c.tail.close()
}

// pending is how many bytes wait in the pipe.
func pending(f *os.File) int64 { return pendingFd(rawFd(f)) }

func pendingFd(fd int) int64 {
	n, err := unix.IoctlGetInt(fd, fionread)
	if err != nil || n < 0 {
		return 0
	}
	return int64(n)
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
			incomplete = incomplete || c.broken || c.cut || c.handedOff
		}
	}
	return incomplete
}
