package ledger

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// A Mark is a place in the ledger: the hex sha256 of one stored record line
// (without its newline), the same hash the next line's prev names. Lines
// are never rewritten, and rotation renames files without changing a byte,
// so a Mark stays valid until rotation deletes the segment holding its
// line. "" is the place before the first record.
type Mark string

// Entry is one record read by After.
type Entry struct {
	Record Record
	Line   []byte // the line as stored, without its newline; valid only during the call
	Mark   Mark   // this record's own place: After(Mark) resumes after it
}

// AfterResult says how After went.
type AfterResult struct {
	Found    bool      // the mark's line was found (always true for "")
	Stopped  bool      // fn returned false before the end
	Problems []Problem // unreadable lines skipped, in file order
}

// maxSegments bounds the rotated segments After looks for, whatever the
// configuration kept (the loader allows at most 100).
const maxSegments = 100

// After calls fn for every record after the one at mark, oldest first,
// across the kept segments, until fn returns false. Headers are not
// records and are passed over. When no line has mark's hash (rotation has
// deleted it, or the ledger was started again), every kept record is
// after it, and Found is false.
//
// It holds the shared lock for the whole walk, so appends wait: fn must do
// no more than copy what it needs (a caller that sends records somewhere
// does that after After returns, and resumes from the last Mark it sent).
// A last line that does not end in a newline is not passed: it may be an
// append in progress, or the fragment of one cut short, and either way it
// is not yet a record that can be counted as read.
func (l *Ledger) After(mark Mark, fn func(Entry) bool) (AfterResult, error) {
	res := AfterResult{Found: mark == ""}
	lk, err := l.lockShared()
	if err != nil {
		return res, err
	}
	defer lk.Close()
	names, err := l.segmentsOldestFirst()
	if err != nil {
		return res, err
	}
	// Whether the mark is there at all is known only at the end of a walk,
	// so a mark is first looked for; both passes run under the one lock,
	// so no append falls between them.
	if !res.Found {
		found, err := l.findMark(names, mark)
		if err != nil {
			return res, err
		}
		if !found {
			mark = ""
		}
		res.Found = found
	}
	w := afterWalk{mark: mark, on: mark == "", fn: fn, res: &res}
	for _, name := range names {
		if err := w.file(l.path(name), name); err != nil {
			return res, err
		}
		if res.Stopped {
			break
		}
	}
	return res, nil
}

// findMark reports whether a record line of the kept segments has mark's hash.
func (l *Ledger) findMark(names []string, mark Mark) (bool, error) {
	found := false
	w := afterWalk{mark: mark, fn: func(Entry) bool { found = true; return false }, res: &AfterResult{}, quiet: true}
	for _, name := range names {
		if err := w.file(l.path(name), name); err != nil {
			return false, err
		}
		if found {
			return true, nil
		}
	}
	return false, nil
}

// segmentsOldestFirst names the segment files there are, the oldest
// rotated one first and the active one last.
func (l *Ledger) segmentsOldestFirst() ([]string, error) {
	var rotated []string
	for i := 1; i <= maxSegments; i++ {
		name := segmentName(i)
		if _, err := os.Lstat(l.path(name)); errors.Is(err, fs.ErrNotExist) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("ledger: %w", err)
		}
		rotated = append(rotated, name)
	}
	reverse(rotated)
	return append(rotated, activeName), nil
}

// afterWalk is one pass of After over the segments.
type afterWalk struct {
	mark  Mark
	on    bool // past the mark: deliver
	fn    func(Entry) bool
	res   *AfterResult
	quiet bool // the search pass: problems are reported by the delivering one
}

func (w *afterWalk) file(path, name string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("ledger: read %s: %w", name, err)
	}
	defer f.Close()
	lr := newLineReader(f)
	for {
		ln, nl, err := lr.next()
		if errors.Is(err, io.EOF) || err == nil && !nl {
			return nil
		}
		if err != nil {
			return fmt.Errorf("ledger: read %s: %w", name, err)
		}
		if !w.line(name, ln) {
			w.res.Stopped = true
			return nil
		}
	}
}

// line handles one complete line; false stops the walk.
func (w *afterWalk) line(name string, ln line) bool {
	rec, p, ok := readLine(name, ln)
	if !ok {
		if w.on && !w.quiet {
			w.res.Problems = append(w.res.Problems, p)
		}
		return true
	}
	if rec.Kind == KindHeader {
		return true
	}
	m := Mark(hashLine(ln.data))
	if !w.on {
		if m == w.mark {
			w.on = true
			if w.quiet {
				return w.fn(Entry{})
			}
		}
		return true
	}
	return w.fn(Entry{Record: rec, Line: ln.data, Mark: m})
}
