package ledger

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Report is what Verify found.
type Report struct {
	Records  int       // valid records, headers not counted
	Segments int       // segment files read
	OK       bool      // no problem at all
	Problems []Problem // in file order
	Notes    []string  // facts worth knowing that are not problems
}

// ChainIntact reports whether every problem is an unreadable line: the hash
// chain over the valid records holds, and what is wrong is damage such as a
// write cut short by a crash, not an edit, insertion or deletion.
func (r *Report) ChainIntact() bool {
	for _, p := range r.Problems {
		if !p.Unreadable {
			return false
		}
	}
	return true
}

// Verify walks every segment from the oldest kept and checks each record's
// prev against the sha256 of the valid line before it, consecutive ids,
// and one exit per exec. It reports where the chain breaks (file:line) for
// an edited, inserted or deleted line. A rotated-away first segment is
// fine: the oldest kept header's prev cannot be checked, which is a note.
func (l *Ledger) Verify() (*Report, error) {
	rep := &Report{}
	lk, err := l.lockShared()
	if err != nil {
		return nil, err
	}
	defer lk.Close()
	v := verifier{rep: rep, ids: map[int64]idState{}}
	for i := l.opts.Keep; i >= 0; i-- {
		name := activeName
		if i > 0 {
			name = segmentName(i)
		}
		if err := v.file(l.path(name), name); err != nil {
			return nil, err
		}
	}
	v.finish()
	rep.OK = len(rep.Problems) == 0
	return rep, nil
}

// idState is what Verify knows of one id.
type idState uint8

const (
	execOpen idState = iota + 1 // exec seen, no exit yet
	execDone                    // exec and its exit seen
	noExit                      // a decision or approval: never has an exit
)

// verifier carries the walk's state across segments.
type verifier struct {
	rep      *Report
	started  bool              // a valid record was seen
	prev     string            // hash of the last valid line
	prevAt   string            // where that line is, for messages
	recent   map[string]string // hash → place, of the last few valid lines, to name insertions
	order    []string
	last     int64 // last allocated id; -1 while unknown (history rotated away)
	firstID  int64 // allocated ids at or below this lived in dropped segments
	ids      map[int64]idState
	segFirst bool // no valid record seen yet in this segment
}

func (v *verifier) file(path, name string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("ledger: verify: %w", err)
	}
	defer f.Close()
	v.rep.Segments++
	v.segFirst = true
	lr := newLineReader(f)
	for {
		ln, nl, err := lr.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("ledger: verify %s: %w", name, err)
		}
		rec, p, ok := readLine(name, ln)
		if !ok {
			if !nl {
				p.Msg = "last line cut short (an interrupted write): " + p.Msg
			}
			v.rep.Problems = append(v.rep.Problems, p)
			continue
		}
		v.record(name, ln, rec)
	}
}

func (v *verifier) problem(name string, ln line, format string, args ...any) {
	v.rep.Problems = append(v.rep.Problems, Problem{File: name, Line: ln.num, Offset: ln.start, Msg: fmt.Sprintf(format, args...)})
}

// record checks one valid record against everything before it.
func (v *verifier) record(name string, ln line, rec Record) {
	here := fmt.Sprintf("%s:%d", name, ln.num)
	v.chain(name, ln, rec)
	v.structure(name, ln, rec)
	v.id(name, ln, rec)
	h := hashLine(ln.data)
	v.prev, v.prevAt, v.started, v.segFirst = h, here, true, false
	v.remember(h, here)
	if rec.Kind != KindHeader {
		v.rep.Records++
	}
}

// chain checks prev. After a break it goes on from the line it is at, so
// one edit is reported once.
func (v *verifier) chain(name string, ln line, rec Record) {
	switch {
	case !v.started && rec.Prev == "":
		v.last = 0 // the very first header: the whole history is here
	case !v.started:
		v.last = -1
		v.rep.Notes = append(v.rep.Notes, fmt.Sprintf("%s:%d: the history before this line was rotated away; its prev cannot be checked", name, ln.num))
	case rec.Prev == v.prev:
	case v.recent[rec.Prev] != "":
		v.problem(name, ln, "chain broken: prev is the hash of %s, not of %s just before: the lines in between were inserted", v.recent[rec.Prev], v.prevAt)
	default:
		v.problem(name, ln, "chain broken: prev does not match %s: that line was changed, or lines between it and this one were deleted", v.prevAt)
	}
}

// structure checks that headers open segments and nothing else does.
func (v *verifier) structure(name string, ln line, rec Record) {
	switch {
	case rec.Kind == KindHeader && !v.segFirst:
		v.problem(name, ln, "header in the middle of a segment")
	case rec.Kind != KindHeader && v.segFirst:
		v.problem(name, ln, "segment does not start with a header")
	case rec.Kind == KindHeader && rec.Schema > SchemaVersion:
		v.rep.Notes = append(v.rep.Notes, fmt.Sprintf("%s:%d: written with schema %d, newer than %d", name, ln.num, rec.Schema, SchemaVersion))
	}
}

// id checks that allocated ids are consecutive and that exits pair with
// execs.
func (v *verifier) id(name string, ln line, rec Record) {
	n, ok := ParseID(rec.ID)
	switch {
	case rec.Kind == KindHeader:
		// Like an append, go on from what the header says, right or not.
		last, _ := ParseID(rec.LastID)
		if v.last < 0 {
			v.firstID = last
		} else if last != v.last {
			v.problem(name, ln, "header says the last id was %s, but it was %s", FormatID(last), FormatID(v.last))
		}
		v.last = last
	case rec.Kind.allocates() && !ok:
		v.problem(name, ln, "%s record with a bad id %q", rec.Kind, rec.ID)
	case rec.Kind.allocates():
		if v.last >= 0 && n != v.last+1 {
			v.problem(name, ln, "id %s follows %s: ids are not consecutive", rec.ID, FormatID(v.last))
		}
		v.last = n
		if rec.Kind == KindExec {
			v.ids[n] = execOpen
		} else {
			v.ids[n] = noExit
		}
	case rec.Kind == KindExit:
		v.exit(name, ln, rec, n, ok)
	default:
		v.rep.Notes = append(v.rep.Notes, fmt.Sprintf("%s:%d: record of unknown kind %q", name, ln.num, rec.Kind))
	}
}

func (v *verifier) exit(name string, ln line, rec Record, n int64, ok bool) {
	switch st := v.ids[n]; {
	case !ok:
		v.problem(name, ln, "exit record with a bad id %q", rec.ID)
	case st == execOpen:
		v.ids[n] = execDone
	case st == execDone:
		v.problem(name, ln, "second exit for %s", rec.ID)
	case st == noExit:
		v.problem(name, ln, "exit for %s, which is not a command that ran", rec.ID)
	case v.last < 0 || n <= v.firstID:
		// Its exec was in a segment rotation dropped.
	default:
		v.problem(name, ln, "exit for %s, which has no exec", rec.ID)
	}
}

// remember keeps the places of the last few valid lines by hash.
func (v *verifier) remember(h, here string) {
	const keep = 64
	if v.recent == nil {
		v.recent = map[string]string{}
	}
	v.recent[h] = here
	v.order = append(v.order, h)
	if len(v.order) > keep {
		delete(v.recent, v.order[0])
		v.order = v.order[1:]
	}
}

// finish adds the notes only the whole walk can give.
func (v *verifier) finish() {
	open := 0
	for _, st := range v.ids {
		if st == execOpen {
			open++
		}
	}
	if open > 0 {
		v.rep.Notes = append(v.rep.Notes, fmt.Sprintf("%d commands have no exit record: interrupted, or still running", open))
	}
}
