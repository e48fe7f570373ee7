package ledger

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
)

// Read bounds: how many bytes Tail and Find read back from the end at most,
// whatever the ledger holds. With the default segments the whole kept
// history is 16 MiB, so Tail's bound is rarely reached.
const (
	tailLimit = 16 << 20
	findLimit = 16 << 20
)

// ErrNotFound is returned by Find for an id it did not find.
var ErrNotFound = errors.New("ledger: not found")

// Problem is a line a reader could not use or, from Verify, a place where
// the ledger is not what it should be.
type Problem struct {
	File string // segment name, relative to the ledger directory
	Line int    // 1-based; 0 when read backwards (Tail), then Offset says where
	Msg  string

	Offset int64 // byte offset of the line in File
	// Unreadable marks a line that is not a record at all: a write cut
	// short by a crash, or garbage. The chain skips such lines, so one on
	// its own is damage, not tampering; an edit or a deletion shows as a
	// break of the chain instead.
	Unreadable bool
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return fmt.Sprintf("%s@%d: %s", p.File, p.Offset, p.Msg)
}

// Tail returns up to n most recent valid records, oldest first, reading a
// bounded amount from the end (across segments if needed). Segment headers
// are not returned. Unparsable lines are skipped and reported in problems.
func (l *Ledger) Tail(n int) ([]Record, []Problem, error) {
	if n <= 0 {
		return nil, nil, nil
	}
	recs := make([]Record, 0, min(n, 256))
	var probs []Problem
	_, err := l.walkBack(tailLimit, func(name string, ln line) bool {
		rec, p, ok := readLine(name, ln)
		if !ok {
			probs = append(probs, p)
			return true
		}
		if rec.Kind != KindHeader {
			recs = append(recs, rec)
		}
		return len(recs) < n
	})
	reverse(recs)
	reverse(probs)
	return recs, probs, err
}

// Find returns the exec/decision/exit/approval records of one id, oldest
// first: those whose ID is id and approvals whose Ref is id. It searches
// back from the end, stopping at the first record with a smaller allocated
// id (ids grow along the file, so nothing of id lies before it) or after
// findLimit bytes; the error says which when nothing was found.
func (l *Ledger) Find(id string) ([]Record, error) {
	want, ok := ParseID(id)
	if !ok {
		return nil, fmt.Errorf("ledger: %q is not an id (ev-N)", id)
	}
	var recs []Record
	cut, err := l.walkBack(findLimit, func(name string, ln line) bool {
		rec, _, ok := readLine(name, ln)
		if !ok {
			return true
		}
		if rec.ID == id || (rec.Kind == KindApproval && rec.Ref == id) {
			recs = append(recs, rec)
		}
		n, ok := ParseID(rec.ID)
		return !(ok && rec.Kind.allocates() && n < want)
	})
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		if cut {
			return nil, fmt.Errorf("%w: %s is not in the last %d MiB of the ledger", ErrNotFound, id, findLimit>>20)
		}
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	reverse(recs)
	return recs, nil
}

// Runs returns the exec records that approval id let run (whose Ref is
// id), oldest first, in one search back from the end to id, bounded as
// Find's.
func (l *Ledger) Runs(id string) ([]Record, error) {
	want, ok := ParseID(id)
	if !ok {
		return nil, fmt.Errorf("ledger: %q is not an id (ev-N)", id)
	}
	var recs []Record
	_, err := l.walkBack(findLimit, func(name string, ln line) bool {
		rec, _, ok := readLine(name, ln)
		if !ok {
			return true
		}
		if rec.Kind == KindExec && rec.Ref == id {
			recs = append(recs, rec)
		}
		n, ok := ParseID(rec.ID)
		return !(ok && rec.Kind.allocates() && n <= want)
	})
	reverse(recs)
	return recs, err
}

// readLine decodes a line, or says why it is no record.
func readLine(name string, ln line) (Record, Problem, bool) {
	p := Problem{File: name, Line: ln.num, Offset: ln.start, Unreadable: true}
	if ln.long {
		p.Msg = fmt.Sprintf("line of %d bytes skipped: over the %d MiB limit", ln.end-ln.start, maxLine>>20)
		return Record{}, p, false
	}
	rec, err := decode(ln.data)
	if err != nil {
		p.Msg = "unreadable line skipped (a write cut short, or not a record): " + err.Error()
		return Record{}, p, false
	}
	return rec, p, true
}

// walkBack calls fn for each line from the newest to the oldest, across the
// active and the kept segments, under the shared lock, until fn returns
// false or limit bytes have been read (then cut is true).
func (l *Ledger) walkBack(limit int64, fn func(name string, ln line) bool) (cut bool, err error) {
	lk, err := l.lockShared()
	if err != nil {
		return false, err
	}
	defer lk.Close()
	var read int64
	for i := 0; i <= l.opts.Keep; i++ {
		name := activeName
		if i > 0 {
			name = segmentName(i)
		}
		more, n, err := l.walkFile(name, limit-read, fn)
		read += n
		if err != nil || !more {
			return false, err
		}
		if read >= limit {
			return true, nil
		}
	}
	return false, nil
}

// walkFile is walkBack over one segment; more reports whether fn wants to
// go on into older segments.
func (l *Ledger) walkFile(name string, limit int64, fn func(string, line) bool) (more bool, read int64, err error) {
	f, err := openRaw(l.path(name), syscall.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return true, 0, nil
	}
	if err != nil {
		return false, 0, fmt.Errorf("ledger: open: %w", err)
	}
	defer f.Close()
	size, err := f.size()
	if err != nil {
		return false, 0, fmt.Errorf("ledger: open: %w", err)
	}
	b := newBackScanner(f, size)
	defer b.release()
	for b.read < limit {
		ln, ok := b.next()
		if !ok {
			return b.err == nil, b.read, b.err
		}
		if !fn(name, ln) {
			return false, b.read, nil
		}
	}
	return true, b.read, nil
}

func reverse[T any](s []T) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}
