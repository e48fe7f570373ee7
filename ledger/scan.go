package ledger

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
)

// line is one line of a segment, without its newline.
type line struct {
	data  []byte // nil when long; valid until the scanner's next call
	start int64  // offset of the first byte
	end   int64  // offset just past the last byte; the newline, if any, is there
	long  bool   // over maxLine: skipped, never loaded
	num   int    // 1-based line number; 0 when reading backwards
}

const (
	firstChunk = 4 << 10 // the last line or two: what an append needs
	maxChunk   = 256 << 10
)

// backScanner reads a segment's lines from the last to the first. Reads
// start small and double, so the common case (an append looking at the last
// record) costs one 4 KiB read, and memory stays within about maxLine plus
// one chunk whatever the file holds.
type backScanner struct {
	r     io.ReaderAt
	size  int64
	mem   []byte // mem[lo:hi] holds bytes [off, off+hi-lo) not yet returned
	lo    int
	hi    int
	off   int64
	chunk int
	read  int64 // bytes read so far
	err   error
	done  bool

	long    bool  // dropping the bytes of an over-long line
	longEnd int64 // where that line ends
}

// scanBufs recycles the scanners' first buffer: every append and every tail
// read needs one, and a fresh 64 KiB each time is garbage for the collector
// of a process that lives a few milliseconds.
var scanBufs = sync.Pool{New: func() any { b := make([]byte, scanBufSize); return &b }}

const scanBufSize = 64 << 10

func newBackScanner(r io.ReaderAt, size int64) *backScanner {
	mem := *scanBufs.Get().(*[]byte)
	return &backScanner{r: r, size: size, off: size, chunk: firstChunk, mem: mem, lo: len(mem), hi: len(mem)}
}

// release returns the buffer; lines returned before are invalid after it.
func (b *backScanner) release() {
	if mem := b.mem; len(mem) == scanBufSize {
		scanBufs.Put(&mem)
	}
	b.mem, b.lo, b.hi = nil, 0, 0
}

// next returns the line before the one it returned last. It returns false
// at the start of the file or on a read error (then b.err is set).
func (b *backScanner) next() (line, bool) {
	for !b.done {
		held := b.mem[b.lo:b.hi]
		i := bytes.LastIndexByte(held, '\n')
		switch {
		case i >= 0 && b.long:
			b.long, b.hi = false, b.lo+i
			return line{start: b.off + int64(i) + 1, end: b.longEnd, long: true}, true
		case i >= 0:
			ln := line{data: held[i+1:], start: b.off + int64(i) + 1, end: b.off + int64(len(held))}
			b.hi = b.lo + i
			if ln.start == b.size { // the empty piece after the final newline is no line
				continue
			}
			if len(ln.data) > maxLine { // read whole only because it fit in one chunk
				ln.data, ln.long = nil, true
			}
			return ln, true
		case b.off == 0:
			b.done = true
			if b.long {
				return line{start: 0, end: b.longEnd, long: true}, true
			}
			if b.size == 0 {
				return line{}, false
			}
			if len(held) > maxLine {
				return line{start: 0, end: int64(len(held)), long: true}, true
			}
			return line{data: held, start: 0, end: int64(len(held))}, true
		}
		if !b.long && len(held) > maxLine {
			b.long, b.longEnd = true, b.off+int64(len(held))
		}
		if b.long { // keep nothing of it
			b.lo, b.hi = len(b.mem), len(b.mem)
		}
		if !b.fill() {
			return line{}, false
		}
	}
	return line{}, false
}

// fill reads the chunk before the held bytes.
func (b *backScanner) fill() bool {
	c := min(int64(b.chunk), b.off)
	if int64(b.lo) < c {
		n := b.hi - b.lo
		mem := make([]byte, max(2*len(b.mem), n+int(c)))
		copy(mem[len(mem)-n:], b.mem[b.lo:b.hi])
		b.mem, b.lo, b.hi = mem, len(mem)-n, len(mem)
	}
	b.lo -= int(c)
	b.off -= c
	if _, err := b.r.ReadAt(b.mem[b.lo:b.lo+int(c)], b.off); err != nil {
		b.err = fmt.Errorf("ledger: read: %w", err)
		b.done = true
		return false
	}
	b.read += c
	b.chunk = min(2*b.chunk, maxChunk)
	return true
}

// lineReader reads a segment's lines from the first to the last, with the
// same bound on line length.
type lineReader struct {
	r   *bufio.Reader
	off int64
	num int
	acc []byte
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line; nl reports whether it ended with a newline.
// It returns io.EOF after the last line.
func (lr *lineReader) next() (ln line, nl bool, err error) {
	ln = line{start: lr.off, num: lr.num + 1}
	lr.acc = lr.acc[:0]
	for {
		frag, err := lr.r.ReadSlice('\n')
		lr.off += int64(len(frag))
		switch {
		case ln.long:
		case len(lr.acc)+len(frag) > maxLine+1: // +1: the newline
			ln.long, lr.acc = true, lr.acc[:0]
		case err == nil && len(lr.acc) == 0:
			ln.data = frag // the whole line is in the buffer: no copy
		default:
			lr.acc = append(lr.acc, frag...)
			ln.data = lr.acc
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return ln, false, fmt.Errorf("ledger: read: %w", err)
		}
		if err != nil && lr.off == ln.start {
			return ln, false, io.EOF
		}
		lr.num++
		ln.end = lr.off
		if nl = err == nil; nl {
			ln.end--
			if !ln.long {
				ln.data = ln.data[:len(ln.data)-1]
			}
		}
		if ln.end-ln.start > maxLine {
			ln.long, ln.data = true, nil
		}
		return ln, nl, nil
	}
}
