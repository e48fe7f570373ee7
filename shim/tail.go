package shim

import (
	"os"

	"golang.org/x/sys/unix"
)

// tailMode is how a stream is observed once hashing has given way to a fast reader:
// the observer stops, and of each chunk only its last bytes are looked at, through
// a small pipe of their own (tee, then read), so that the digest's tail is still
// the stream's last bytes without copying the rest. The bytes before them go
// straight to dst.
type tailMode struct {
	on     bool
	max    int
	r, w   int    // the peek pipe
	total  int64  // bytes delivered in tail mode
	window []byte // the last bytes seen, at most 2*max
	gap    bool   // some delivered bytes are not in window
	buf    []byte
}

func (t *tailMode) start() error {
	var p [2]int
	if err := pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return os.NewSyscallError("pipe2", err)
	}
	t.r, t.w, t.on = p[0], p[1], true
	t.buf = make([]byte, t.max)
	t.window = make([]byte, 0, 2*t.max)
	return nil
}

func (t *tailMode) close() {
	if t.on {
		unix.Close(t.r)
		unix.Close(t.w)
		t.on = false
	}
}

// skip notes n delivered bytes that were not looked at.
func (t *tailMode) skip(n int64) {
	if n > 0 {
		t.total += n
		t.window, t.gap = t.window[:0], true
	}
}

// keep notes delivered bytes that were looked at.
func (t *tailMode) keep(p []byte) {
	t.total += int64(len(p))
	if len(t.window)+len(p) > cap(t.window) {
		drop := len(t.window) + len(p) - t.max
		if drop >= len(t.window) {
			p = p[drop-len(t.window):]
			t.window = t.window[:0]
		} else {
			t.window = append(t.window[:0], t.window[drop:]...)
		}
		t.gap = true
	}
	t.window = append(t.window, p...)
}

// merge appends what tail mode saw to the digest, after everything the observer
// digested.
func (d *digest) merge(t *tailMode) {
	if t.total == 0 {
		return
	}
	if !t.gap {
		d.write(t.window, false)
		return
	}
	d.total += t.total
	d.tail = append(d.tail[:0], t.window...)
}
