package ledger

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"syscall"
)

// scanLimit bounds how far back an append looks for the end of the chain.
// It only matters for a ledger whose end is garbage: a healthy one ends in
// a valid record and the first 4 KiB read finds it.
const scanLimit = 64 << 20

// Append writes one record under an exclusive flock on dir/ledger.lock
// (held only for the append), allocating the next ID when r.ID == "" and
// r.Kind is exec/decision/approval, filling Time and Prev, redacting
// Command/Raw/Digest, repairing a torn last line (never truncating: it is
// isolated on its own line), rotating when the segment is over MaxBytes
// (the new segment's header carries prev so the chain continues). One
// record is one write(2). It returns the record's ID and leaves *r as it
// was.
func (l *Ledger) Append(r *Record) (string, error) {
	rec, err := l.prepare(r)
	if err != nil {
		return "", err
	}
	lk, err := l.lockExclusive()
	if err != nil {
		return "", err
	}
	defer lk.Close()

	f, size, err := l.openActive()
	if err != nil {
		return "", err
	}
	if size > l.opts.MaxBytes {
		f.Close()
		if err := l.rotate(); err != nil {
			return "", err
		}
		if f, size, err = l.openActive(); err != nil {
			return "", err
		}
	}
	defer f.Close()

	t, ok := l.knownTip(f, size)
	if !ok {
		a, aerr := l.readAnchor() // under the lock: no other append changes it now
		if t, ok = l.anchoredTip(f, size, a, aerr); !ok {
			if t, err = l.findTip(f, size); err != nil {
				return "", err
			}
			// Records missing at the end (deleted, truncated, a ledger
			// wiped and begun again) do not give their ids out again.
			if aerr == nil && a.last > t.last {
				t.last = a.last
			}
		}
	}
	buf, err := l.lines(rec, t)
	if err != nil {
		return "", err
	}
	if err := writeLine(f, buf); err != nil {
		l.remember(appendEnd{})
		return "", fmt.Errorf("ledger: append: %w", err)
	}
	end := l.endAfter(f, size, t, rec, buf)
	l.remember(end)
	l.writeAnchor(end.t.last, end.t.prev)
	if l.opts.Durable {
		if err := f.sync(); err != nil {
			return "", err
		}
		if size == 0 { // a new file: its name must survive a crash too
			if err := syncDir(l.dir); err != nil {
				return "", err
			}
		}
	}
	return rec.ID, nil
}

// lines renders what one append writes: a newline to close a torn line, a
// header when the segment has no record yet, and the record.
func (l *Ledger) lines(rec *Record, t tip) ([]byte, error) {
	if rec.Kind.allocates() && rec.ID == "" {
		if t.last == math.MaxInt64 {
			return nil, errors.New("ledger: no ids left")
		}
		rec.ID = FormatID(t.last + 1)
	}
	buf := make([]byte, 0, 1024)
	if t.torn {
		buf = append(buf, '\n')
	}
	prev := t.prev
	if !t.hasRecord {
		h := Record{Kind: KindHeader, Time: rec.Time, Schema: SchemaVersion, Prev: prev}
		if t.last > 0 {
			h.LastID = FormatID(t.last)
		}
		hl, err := encode(&h)
		if err != nil {
			return nil, err
		}
		buf = append(buf, hl...)
		prev = l.keys.linkOf(hl[:len(hl)-1])
	}
	rec.Prev = prev
	rl, err := encode(rec)
	if err != nil {
		return nil, err
	}
	return append(buf, rl...), nil
}

// writeLine is the single write of an append: with O_APPEND, one write(2)
// lands whole at the end of the file on a local filesystem. Tests replace it
// to simulate a crash in the middle of a write; nothing else does.
var writeLine = func(f rawFile, b []byte) error { return f.write(b) }

func (l *Ledger) openActive() (rawFile, int64, error) {
	f, err := openRaw(l.path(activeName), syscall.O_RDWR|syscall.O_CREAT|syscall.O_APPEND, 0o600)
	if err != nil {
		return f, 0, fmt.Errorf("ledger: open: %w", err)
	}
	size, dev, ino, err := f.stat()
	if err != nil {
		f.Close()
		return f, 0, fmt.Errorf("ledger: open: %w", err)
	}
	f.dev, f.ino = dev, ino
	return f, size, nil
}

// appendEnd is what an append left at the end of the active segment: the
// file (device and inode), its size after the write, and the tip there. The
// next append of the same Ledger — a command's exit record after its exec
// record — finds the file as it was left when nobody appended or rotated
// in between, and then knows the tip without reading and decoding the last
// records again. Anything else (another writer, a rotation, a repair) shows
// in the size or the inode, and the tip is looked for as always.
type appendEnd struct {
	dev, ino uint64
	size     int64 // 0: nothing known
	t        tip
}

// endAfter is the appendEnd after buf, which ends with rec's line, was
// written at the end of f (from openActive), which was size bytes long with
// tip t.
func (l *Ledger) endAfter(f rawFile, size int64, t tip, rec *Record, buf []byte) appendEnd {
	line := buf[:len(buf)-1]
	line = line[bytes.LastIndexByte(line, '\n')+1:]
	next := tip{prev: l.keys.linkOf(line), last: t.last, hasRecord: true}
	if n, ok := ParseID(rec.ID); ok && rec.Kind.allocates() && n > next.last {
		next.last = n
	}
	return appendEnd{dev: f.dev, ino: f.ino, size: size + int64(len(buf)), t: next}
}

func (l *Ledger) remember(e appendEnd) {
	l.mu.Lock()
	l.end = e
	l.mu.Unlock()
}

// knownTip returns the tip this Ledger's last append left, when f is still
// the file it wrote and holds nothing more. Called under the append lock.
func (l *Ledger) knownTip(f rawFile, size int64) (tip, bool) {
	l.mu.Lock()
	e := l.end
	l.mu.Unlock()
	if e.size == 0 || e.size != size || e.dev != f.dev || e.ino != f.ino {
		return tip{}, false
	}
	return e.t, true
}

// anchoredTip is the tip read from the anchor, when the anchor was written
// for the line the active segment ends with: its tag of the link is that
// line's link's, which only the append that wrote the line, holding the
// key, could have left. Then the anchor's last id is the one findTip
// would confirm, by reading back to the allocating record before it and
// checking links and ids on the way, and the line's link is the next
// prev. A line appended or changed since (by hand, by a guard whose
// anchor write failed), a torn end, a header or a missing anchor fall to
// findTip. a and aerr are readAnchor's. Called under the append lock.
func (l *Ledger) anchoredTip(f rawFile, size int64, a anchor, aerr error) (tip, bool) {
	if l.keys == nil || size == 0 || aerr != nil || a.last <= 0 {
		return tip{}, false
	}
	b := newBackScanner(f, size)
	defer b.release()
	ln, ok := b.next()
	if !ok || ln.long || ln.end == size { // the segment must end with a newline
		return tip{}, false
	}
	link := l.keys.linkOf(ln.data)
	if l.keys.tag(link) != a.tag {
		return tip{}, false
	}
	return tip{prev: link, last: a.last, hasRecord: true}, true
}

// tip is what an append needs to know about the end of the chain.
type tip struct {
	prev      string // hash of the last valid line; "" when there is none anywhere
	last      int64  // the last id allocated; 0 when none
	hasRecord bool   // the active segment holds a valid record (so no header is due)
	torn      bool   // the active segment does not end with a newline
}

// findTip reads backwards from the end of the active segment, then through
// the rotated ones if needed, for the last valid line (its link is the
// next prev) and the last allocated id: that of the last exec, decision or
// approval whose own prev is the link of the line before it and whose id
// follows the allocating record before it (or a header's last_id). A
// record that breaks either is stepped over: one forged line such as
// ev-9223372036854775807 cannot exhaust the ids, nor make them jump.
// Exits carry older ids, so they do not count.
func (l *Ledger) findTip(f rawFile, size int64) (tip, error) {
	s := tipSearch{keys: l.keys}
	if err := s.scan(f, size, true); err != nil {
		return s.t, err
	}
	for i := 1; i <= l.opts.Keep && !s.done() && s.read <= scanLimit; i++ {
		if err := s.scanFile(l.path(segmentName(i))); err != nil {
			return s.t, err
		}
	}
	if !s.done() && s.read > scanLimit {
		// Going on would restart ids or the chain: refuse instead.
		return s.t, fmt.Errorf("ledger: no valid record in the last %d MiB of %s: move the ledger files aside", scanLimit>>20, l.dir)
	}
	s.settle()
	return s.t, nil
}

type tipSearch struct {
	keys             *keyring
	t                tip
	gotPrev, gotLast bool
	read             int64
	// cand is the newest allocating record not yet confirmed: its link
	// is checked against the line read next (the one before it), its id
	// against the next allocating record or header.
	cand *tipCand
}

type tipCand struct {
	id      int64
	prev    string
	checked bool // the line before it was read
	linkOK  bool
}

func (s *tipSearch) done() bool { return s.gotPrev && s.gotLast }

// offer takes the id of an earlier allocating record (or a header's
// last_id, header set): it confirms or steps over the candidate.
func (s *tipSearch) offer(id int64, header bool, prev string) {
	if c := s.cand; c != nil {
		if c.linkOK && c.id == id+1 {
			s.t.last, s.gotLast = c.id, true
			return
		}
		s.cand = nil // stepped over
	}
	if header {
		s.t.last, s.gotLast = id, true
		return
	}
	s.cand = &tipCand{id: id, prev: prev}
}

// settle decides on a candidate left when the history ran out: the first
// record ever, confirmed by its link alone.
func (s *tipSearch) settle() {
	if c := s.cand; c != nil && !s.gotLast && (c.linkOK || !c.checked) {
		s.t.last, s.gotLast = c.id, true
	}
}

func (s *tipSearch) scanFile(path string) error {
	f, err := openRaw(path, syscall.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // a gap left by a crash during rotation
	}
	if err != nil {
		return fmt.Errorf("ledger: open: %w", err)
	}
	defer f.Close()
	size, err := f.size()
	if err != nil {
		return fmt.Errorf("ledger: open: %w", err)
	}
	return s.scan(f, size, false)
}

// scan reads one segment backwards until both facts are known.
func (s *tipSearch) scan(r io.ReaderAt, size int64, active bool) error {
	b := newBackScanner(r, size)
	defer func() { s.read += b.read; b.release() }()
	for first := true; !s.done() && s.read+b.read <= scanLimit; first = false {
		ln, ok := b.next()
		if !ok {
			return b.err
		}
		if active && first {
			s.t.torn = ln.end == size
		}
		if ln.long {
			continue
		}
		rec, err := decode(ln.data)
		if err != nil {
			continue
		}
		s.t.hasRecord = s.t.hasRecord || active
		if !s.gotPrev {
			s.t.prev, s.gotPrev = s.keys.linkOf(ln.data), true
		}
		if c := s.cand; c != nil && !c.checked {
			c.checked, c.linkOK = true, s.keys.follows(c.prev, ln.data, rec.Prev)
		}
		if s.gotLast {
			continue
		}
		if rec.Kind == KindHeader {
			n, _ := ParseID(rec.LastID)
			s.offer(n, true, "")
		} else if n, ok := ParseID(rec.ID); ok && rec.Kind.allocates() {
			s.offer(n, false, rec.Prev)
		}
	}
	return nil
}
