package ledger

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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
	v := verifier{rep: rep, ids: map[int64]idState{}, keys: l.keys, stepFrom: -1}
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
	l.checkAnchor(&v)
	rep.OK = len(rep.Problems) == 0
	return rep, nil
}

// checkAnchor compares the end of the chain with the anchor.
func (l *Ledger) checkAnchor(v *verifier) {
	if l.keys == nil {
		if v.sawKeyed {
			v.rep.Notes = append(v.rep.Notes, "the ledger is authenticated, but the key is not available here: links were not checked")
		}
		return
	}
	a, err := l.readAnchor()
	switch {
	case errors.Is(err, errNoAnchor):
		if l.anchorPath != "" && v.started {
			v.rep.Notes = append(v.rep.Notes, fmt.Sprintf("no anchor at %s yet: records missing at the end could not be detected", l.anchorPath))
		}
		return
	case err != nil:
		v.rep.Problems = append(v.rep.Problems, Problem{File: l.anchorPath, Msg: "anchor: " + err.Error()})
		return
	}
	if !v.started {
		v.rep.Problems = append(v.rep.Problems, Problem{File: activeName, Msg: fmt.Sprintf("the ledger is empty, but its anchor %s says %s was recorded: the ledger was deleted or truncated", l.anchorPath, FormatID(a.last))})
		return
	}
	if a.tag == l.keys.tag(v.lastLink) {
		return
	}
	if after, ok := v.after(a.tag, l.keys); ok {
		msg := fmt.Sprintf("the anchor %s is %d lines behind the end of the ledger (it names %s)", l.anchorPath, after, v.recentAt[a.tag])
		if after <= 2 {
			v.rep.Notes = append(v.rep.Notes, msg+": an append was interrupted before the anchor was written")
		} else {
			v.rep.Problems = append(v.rep.Problems, Problem{File: v.lastFile, Line: v.lastLine, Msg: msg + ": records were appended without it"})
		}
		return
	}
	what := "the newest records were deleted or the last one changed"
	switch {
	case v.restarted:
		what = "the ledger was deleted and begun again"
	case a.last > v.last:
		what = fmt.Sprintf("records after %s were deleted (the ledger was truncated, or its newest records removed)", FormatID(v.last))
	}
	v.rep.Problems = append(v.rep.Problems, Problem{File: v.lastFile, Line: v.lastLine,
		Msg: fmt.Sprintf("the ledger ends here (last id %s), but its anchor %s says the last record was %s and ends differently: %s", FormatID(max(v.last, 0)), l.anchorPath, FormatID(a.last), what)})
}

// MissingReport is Verify for a ledger directory that does not exist: a
// problem when its anchor says records were written there.
func MissingReport(dir string, opts Options) *Report {
	l := &Ledger{dir: dir, opts: withDefaults(opts), keys: newKeyring(opts.Key)}
	l.absDir, _ = filepath.Abs(dir)
	l.anchorPath = AnchorFile(opts.AnchorDir, dir)
	rep := &Report{OK: true}
	if a, err := l.readAnchor(); err == nil && a.last > 0 {
		rep.Problems = append(rep.Problems, Problem{File: dir, Msg: fmt.Sprintf("the ledger directory is gone, but its anchor %s says %s was recorded: the ledger was deleted", l.anchorPath, FormatID(a.last))})
		rep.OK = false
	}
	return rep
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

	keys      *keyring
	stepFrom  int64  // the last id before a record that broke the sequence; -1 when none
	prevLine  []byte // the last valid line
	prevPrev  string // its prev
	lastLink  string // keyed link of the last valid line
	lastFile  string
	lastLine  int
	sawKeyed  bool // a record with a keyed prev was seen
	restarted bool // the first header has no prev but says ids came before it
	recentAt  map[string]string
	tags      []string // anchor tags of the last few lines, oldest first
}

// after reports how many valid lines follow the one whose anchor tag is
// tag, among the last few.
func (v *verifier) after(tag string, k *keyring) (int, bool) {
	for i := len(v.tags) - 1; i >= 0; i-- {
		if v.tags[i] == tag {
			return len(v.tags) - 1 - i, true
		}
	}
	return 0, false
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
	ok := v.chain(name, ln, rec)
	v.structure(name, ln, rec)
	v.id(name, ln, rec, ok)
	h := v.keys.linkOf(ln.data)
	v.prev, v.prevAt, v.started, v.segFirst = h, here, true, false
	v.prevLine, v.prevPrev = append(v.prevLine[:0], ln.data...), rec.Prev
	v.lastLink, v.lastFile, v.lastLine = h, name, ln.num
	v.remember(h, here)
	v.remember(hashLine(ln.data), here)
	if v.keys != nil {
		t := v.keys.tag(h)
		if v.recentAt == nil {
			v.recentAt = map[string]string{}
		}
		v.recentAt[t] = here
		v.tags = append(v.tags, t)
		if len(v.tags) > 64 {
			delete(v.recentAt, v.tags[0])
			v.tags = v.tags[1:]
		}
	}
	if rec.Kind != KindHeader {
		v.rep.Records++
	}
}

// chain checks prev, and reports whether it holds. After a break it goes
// on from the line it is at, so one edit is reported once.
func (v *verifier) chain(name string, ln line, rec Record) bool {
	if keyed(rec.Prev) {
		v.sawKeyed = true
	}
	switch {
	case !v.started && rec.Prev == "":
		v.last = 0 // the very first header: the whole history is here
		if n, _ := ParseID(rec.LastID); n > 0 && rec.Kind == KindHeader {
			v.restarted = true
			v.problem(name, ln, "the history before this line is missing: its header says %s came before, but it starts a new chain (the ledger was deleted or truncated and begun again)", rec.LastID)
		}
	case !v.started:
		v.last = -1
		v.rep.Notes = append(v.rep.Notes, fmt.Sprintf("%s:%d: the history before this line was rotated away; its prev cannot be checked", name, ln.num))
	case v.keys.follows(rec.Prev, v.prevLine, v.prevPrev):
	case v.keys != nil && !keyed(rec.Prev) && keyed(v.prevPrev):
		v.problem(name, ln, "not authenticated: a plain hash after authenticated records, which only a forger writes")
		return false
	case v.recent[rec.Prev] != "":
		v.problem(name, ln, "chain broken: prev is the link of %s, not of %s just before: the lines in between were inserted", v.recent[rec.Prev], v.prevAt)
		return false
	case v.keys != nil && keyed(rec.Prev):
		v.problem(name, ln, "chain broken: prev does not match %s: that line was changed, or lines between it and this one were deleted, or this record was forged", v.prevAt)
		return false
	default:
		v.problem(name, ln, "chain broken: prev does not match %s: that line was changed, or lines between it and this one were deleted", v.prevAt)
		return false
	}
	return true
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
func (v *verifier) id(name string, ln line, rec Record, chained bool) {
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
		step := v.stepFrom
		v.stepFrom = -1
		switch {
		case v.last < 0 || n == v.last+1:
		case step >= 0 && n == step+1:
			// The record before broke the sequence and this one goes
			// on from before it: that one was stepped over, as appends
			// step over it (one forged ev-9223372036854775807).
		case !chained:
			v.problem(name, ln, "id %s follows %s: a record outside the chain breaks the sequence", rec.ID, FormatID(v.last))
			v.stepFrom = v.last
		default:
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
