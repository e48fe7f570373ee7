package ledger

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"syscall"
)

// tailReader reads the kept segments backwards, newest first, in batches
// of whole lines, into a buffer filled from its end: a line that spans two
// reads is whole without copying, and lines given out stay valid. The
// buffer starts at the first chunk and grows (into a new one: what was
// given out is never overwritten) up to RunWindow.
//
// The first chunk is small because the usual question (the loop brake's,
// on every command) is answered by the session's latest run, a few lines
// from the end. Every byte read is copied into memory fresh from the
// kernel: a 64 KiB first read cost a command about 70 µs, mostly the copy
// and its page faults, where 8 KiB costs a few; a caller that reads the
// whole window pays three more reads.
type tailReader struct {
	l     *Ledger
	buf   []byte
	pos   int // buf[pos:] has been read
	done  int // buf[done:segEnd] was given out already
	chunk int
	seg   int     // 0 is the active segment, then ledger.1.jsonl, …
	f     rawFile // fd -1 when no segment is open
	off   int64   // the segment's bytes before off are not read yet
	total int     // bytes read, at most RunWindow
	cut   bool    // the window ran out before the history did
}

func newTailReader(l *Ledger) *tailReader {
	return &tailReader{l: l, chunk: firstTailChunk, f: rawFile{fd: -1}}
}

const (
	firstTailChunk = 8 << 10
	maxTailChunk   = 128 << 10
)

// next returns the next older batch: whole lines, oldest first; nil at the
// end of the history or of the window.
func (t *tailReader) next() ([]byte, error) {
	for {
		if t.f.fd < 0 {
			if t.seg > t.l.opts.Keep {
				return nil, nil
			}
			if err := t.open(); err != nil {
				return nil, err
			}
			continue
		}
		if t.off == 0 { // the segment is read: its first line is whole
			t.close()
			t.seg++
			b := t.buf[t.pos:t.done]
			t.done = t.pos
			if len(b) > 0 {
				return b, nil
			}
			continue
		}
		if t.total >= RunWindow {
			t.cut = true
			return nil, nil
		}
		c := int(min(int64(min(t.chunk, RunWindow-t.total)), t.off))
		t.room(c)
		// A segment that shrank under the reader (cut by hand: appends never
		// truncate) reads short; the rest of the chunk reads as unparsable
		// lines, passed over like a line being written.
		if _, err := t.f.ReadAt(t.buf[t.pos-c:t.pos], t.off-int64(c)); err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("ledger: read: %w", err)
		}
		t.pos -= c
		t.off -= int64(c)
		t.total += c
		t.chunk = min(2*t.chunk, maxTailChunk)
		if t.off == 0 {
			continue
		}
		// Lines from the first newline on are whole; what comes before it
		// may go on in bytes not read yet.
		i := bytes.IndexByte(t.buf[t.pos:t.done], '\n')
		if i < 0 {
			continue
		}
		start := t.pos + i + 1
		b := t.buf[start:t.done]
		t.done = start
		if len(b) > 0 {
			return b, nil
		}
	}
}

// room makes space for c more bytes before t.pos, moving what is not
// given out yet into a larger buffer.
func (t *tailReader) room(c int) {
	if t.pos >= c {
		return
	}
	keep := t.buf[t.pos:t.done]
	size := max(min(2*len(t.buf), RunWindow), len(keep)+c)
	buf := make([]byte, size)
	copy(buf[size-len(keep):], keep)
	t.buf, t.pos, t.done = buf, size-len(keep), size
}

// open opens segment t.seg, or moves past it when it does not exist. The
// file is a plain descriptor (file.go): os.File would register it with the
// poller on every command.
func (t *tailReader) open() error {
	name := activeName
	if t.seg > 0 {
		name = segmentName(t.seg)
	}
	f, err := openRaw(t.l.path(name), syscall.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		// No active segment: nothing was ever appended, or a rotation is
		// between its two steps (it starts the new segment at once). Older
		// segments are not worth the system calls either way.
		if t.seg == 0 {
			t.seg = t.l.opts.Keep + 1
		}
		t.seg++
		return nil
	}
	if err != nil {
		return fmt.Errorf("ledger: open: %w", err)
	}
	size, err := f.size()
	if err != nil {
		f.Close()
		return fmt.Errorf("ledger: open: %w", err)
	}
	t.f, t.off, t.done = f, size, t.pos
	return nil
}

func (t *tailReader) close() {
	if t.f.fd >= 0 {
		t.f.Close()
		t.f = rawFile{fd: -1}
	}
}
