package ledger

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"time"

	"github.com/guard-exec/guard-exec/internal/redact"
)

// Run is one command of a session that ran: its exec record and, once it
// ended, its exit record. The loop brake reads runs on every command, and
// `guard-exec loops` shows them.
type Run struct {
	ID      string
	Session string
	Cwd     string
	Command string // the canonical command as stored: redacted and bounded (see StoredCommand)
	Start   string // time of the exec record, written just before the command started
	End     string // time of the exit record, written once it ended; "" when there is none
	Exit    int
	Signal  string
	// TimedOut is set when the guard's own timeout stopped the command.
	TimedOut bool
}

// Ended reports whether the run has an exit record. One without is
// interrupted (its guard was killed) or still running.
func (r *Run) Ended() bool { return r.End != "" }

// StartTime and EndTime parse the record times; the zero time when absent
// or unreadable.
func (r *Run) StartTime() time.Time { return parseTime(r.Start) }
func (r *Run) EndTime() time.Time   { return parseTime(r.End) }

func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// RunWindow bounds how much SessionRuns reads: at most this many bytes
// back from the end of the ledger, whatever it holds. Callers stop sooner
// (the loop brake after the session's last few dozen commands), so the
// usual read is the last few tens of KiB.
const RunWindow = 256 << 10

// StoredCommand returns command the way Append stores it — redacted with
// the ledger's secrets, then bounded — so it can be compared with
// Run.Command.
func (l *Ledger) StoredCommand(command string) string {
	return bound(redact.String(command, l.opts.Secrets), maxText)
}

// SessionRuns calls fn with the commands of session that ran, newest
// first, until fn returns false, reading back at most RunWindow bytes from
// the end of the ledger; cut reports that the window ended first. Only the
// commands a person or agent ran are given: records of nested guards (a
// shim started inside a guarded command, which has a parent) belong to the
// command that started them, and decisions never ran.
//
// It is built to be asked on every command. The ledger is read backwards
// in chunks that start at 64 KiB and double, so a caller that stops early
// reads little; the lines of other sessions are passed over with a byte
// search, and of the session's own only the few fields a Run needs are
// read, without decoding the whole record (the digest and the raw command
// are the bulk of a line).
//
// Unlike the other readers it takes no lock, which would cost three system
// calls per command: what a concurrent append or rotation can do to it is
// harmless here. A line being written reads as unparsable and is passed
// over (so a run may look unfinished for that moment), and a segment
// renamed between two opens is read twice, which the ids sort out.
func (l *Ledger) SessionRuns(session string, fn func(Run) bool) (cut bool, err error) {
	if session == "" {
		return false, nil
	}
	t := newTailReader(l)
	defer t.close()
	// The quoted value, not the key with it, so a line written with other
	// spacing still passes; quotes inside other strings are escaped, so
	// the search finds few strangers.
	s := runScan{session: bound(session, maxField), exits: map[int64][]byte{}, seen: map[int64]bool{}}
	s.needle = jsonString(s.session)
	var lines [][]byte
	for {
		batch, err := t.next()
		if err != nil {
			return false, err
		}
		if batch == nil {
			return t.cut, nil
		}
		lines = splitLines(batch, lines[:0])
		for i := len(lines) - 1; i >= 0; i-- {
			r, ok := s.line(lines[i])
			if ok && !fn(r) {
				return false, nil
			}
		}
	}
}

// splitLines appends the lines of b (without their newlines) to out.
func splitLines(b []byte, out [][]byte) [][]byte {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return append(out, b)
		}
		out = append(out, b[:i])
		b = b[i+1:]
	}
	return out
}

// tailReader reads the kept segments backwards, newest first, in batches
// of whole lines, into a buffer filled from its end: a line that spans two
// reads is whole without copying, and lines given out stay valid. The
// buffer starts at the first chunk and grows (into a new one: what was
// given out is never overwritten) up to RunWindow.
type tailReader struct {
	l     *Ledger
	buf   []byte
	pos   int // buf[pos:] has been read
	done  int // buf[done:segEnd] was given out already
	chunk int
	seg   int // 0 is the active segment, then ledger.1.jsonl, …
	f     *os.File
	off   int64 // the segment's bytes before off are not read yet
	total int   // bytes read, at most RunWindow
	cut   bool  // the window ran out before the history did
}

func newTailReader(l *Ledger) *tailReader { return &tailReader{l: l, chunk: 64 << 10} }

const maxTailChunk = 128 << 10

// next returns the next older batch: whole lines, oldest first; nil at the
// end of the history or of the window.
func (t *tailReader) next() ([]byte, error) {
	for {
		if t.f == nil {
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
		if _, err := t.f.ReadAt(t.buf[t.pos-c:t.pos], t.off-int64(c)); err != nil && !errors.Is(err, io.EOF) {
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

// open opens segment t.seg, or moves past it when it does not exist.
func (t *tailReader) open() error {
	name := activeName
	if t.seg > 0 {
		name = segmentName(t.seg)
	}
	f, err := os.OpenFile(t.l.path(name), os.O_RDONLY|openFlags, 0)
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
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("ledger: open: %w", err)
	}
	t.f, t.off, t.done = f, fi.Size(), t.pos
	return nil
}

func (t *tailReader) close() {
	if t.f != nil {
		t.f.Close()
		t.f = nil
	}
}

type runScan struct {
	session string
	needle  []byte
	exits   map[int64][]byte // exit lines by id number, for the execs further back
	seen    map[int64]bool   // execs given out (a segment read twice gives them again)
}

// line handles one line, newest first; it returns the session's runs.
func (s *runScan) line(b []byte) (Run, bool) {
	switch lineKind(b) {
	case KindExit:
		if n, ok := exitNum(b); ok {
			s.exits[n] = b
		}
	case KindExec:
		if !bytes.Contains(b, s.needle) {
			return Run{}, false
		}
		r, ok := s.exec(b)
		if !ok {
			return r, false
		}
		n, _ := ParseID(r.ID)
		if s.seen[n] {
			return r, false
		}
		s.seen[n] = true
		if e := s.exits[n]; e != nil {
			readExit(e, &r)
		}
		return r, true
	}
	return Run{}, false
}

// exitNum reads the id number of an exit line, from where Append puts it.
func exitNum(b []byte) (int64, bool) {
	const prefix = `{"kind":"exit","id":"ev-`
	if bytes.HasPrefix(b, []byte(prefix)) {
		var n int64
		for _, c := range b[len(prefix):] {
			switch {
			case c >= '0' && c <= '9' && n < 1e17:
				n = n*10 + int64(c-'0')
			case c == '"' && n > 0:
				return n, true
			default:
				return 0, false
			}
		}
		return 0, false
	}
	var id string
	if !eachField(b, func(k, v []byte) bool {
		if string(k) == "id" {
			id = unquote(v)
			return false
		}
		return true
	}) {
		if rec, err := decode(b); err == nil {
			id = rec.ID
		}
	}
	return ParseID(id)
}

// readExit fills in what a run takes from its exit line.
func readExit(b []byte, r *Run) {
	var end string
	var code int
	var sig string
	var timedOut bool
	if !eachField(b, func(k, v []byte) bool {
		switch string(k) {
		case "time":
			end = unquote(v)
		case "exit":
			code, _ = strconv.Atoi(string(v))
		case "signal":
			sig = unquote(v)
		case "timed_out":
			timedOut = string(v) == "true"
		}
		return true
	}) {
		rec, err := decode(b)
		if err != nil {
			return
		}
		end, sig, timedOut = rec.Time, rec.Signal, rec.TimedOut
		if rec.Exit != nil {
			code = *rec.Exit
		}
	}
	r.End, r.Exit, r.Signal, r.TimedOut = end, code, sig, timedOut
}

// exec reads a candidate exec line; ok is false for another session's
// (the byte search only pre-filters), a nested guard's, or a bad line.
func (s *runScan) exec(b []byte) (Run, bool) {
	var r Run
	var parent string
	if !eachField(b, func(k, v []byte) bool {
		switch string(k) {
		case "id":
			r.ID = unquote(v)
		case "time":
			r.Start = unquote(v)
		case "session":
			r.Session = unquote(v)
		case "cwd":
			r.Cwd = unquote(v)
		case "command":
			r.Command = unquote(v)
		case "parent":
			parent = unquote(v)
		}
		return true
	}) {
		rec, err := decode(b)
		if err != nil {
			return r, false
		}
		r = Run{ID: rec.ID, Start: rec.Time, Session: rec.Session, Cwd: rec.Cwd, Command: rec.Command}
		parent = rec.Parent
	}
	return r, r.Session == s.session && parent == "" && r.ID != ""
}

// lineKind reads the kind of a line: the first key, as Append writes it,
// or found among the keys (or by a full decode) of a line written
// otherwise.
func lineKind(b []byte) Kind {
	const prefix = `{"kind":"`
	if bytes.HasPrefix(b, []byte(prefix)) {
		if i := bytes.IndexByte(b[len(prefix):], '"'); i >= 0 {
			return Kind(b[len(prefix) : len(prefix)+i])
		}
	}
	var k Kind
	if eachField(b, func(key, v []byte) bool {
		if string(key) == "kind" {
			k = Kind(unquote(v))
			return false
		}
		return true
	}) {
		return k
	}
	rec, err := decode(b)
	if err != nil {
		return ""
	}
	return rec.Kind
}

// eachField calls fn with each top-level key of the JSON object in b and
// its raw value, in order, until fn returns false. It reads the compact
// form Append writes (no whitespace) and reports false for anything it
// cannot follow, so the caller falls back to a full decode. Strings are
// skipped with a byte search for their closing quote, so a long digest
// costs little.
func eachField(b []byte, fn func(key, val []byte) bool) bool {
	if len(b) < 2 || b[0] != '{' {
		return false
	}
	i := 1
	if b[i] == '}' {
		return i == len(b)-1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		end := skipString(b, i)
		if end < 0 || end >= len(b) || b[end] != ':' {
			return false
		}
		key := b[i+1 : end-1]
		vstart := end + 1
		vend := skipValue(b, vstart)
		if vend < 0 || vend >= len(b) {
			return false
		}
		if !fn(key, b[vstart:vend]) {
			return true
		}
		switch b[vend] {
		case ',':
			i = vend + 1
		case '}':
			return vend == len(b)-1
		default:
			return false
		}
	}
}

// skipString returns the index just past the string starting at b[i] (a
// quote), or -1.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
	return -1
}

// skipValue returns the index just past the JSON value starting at b[i],
// or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e := skipString(b, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// unquote decodes a raw JSON string value; "" for anything else.
func unquote(v []byte) string {
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return string(v[1 : len(v)-1])
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return ""
	}
	return s
}

// jsonString encodes s exactly as Append's encoder does (no HTML
// escaping), so it can be searched for in stored lines.
func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(s) != nil {
		return nil
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
