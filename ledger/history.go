package ledger

import (
	"bytes"
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
		lines = appendLines(batch, lines[:0])
		for i := len(lines) - 1; i >= 0; i-- {
			r, ok := s.line(lines[i])
			if ok && !fn(r) {
				return false, nil
			}
		}
	}
}

// appendLines appends the lines of b (without their newlines) to out.
func appendLines(b []byte, out [][]byte) [][]byte {
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
