package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SchemaVersion is the format version written in every segment header.
const SchemaVersion = 1

// Kind says what a record is.
type Kind string

const (
	KindHeader   Kind = "header"   // first line of every segment: schema version, created time, prev (chain continues across rotation)
	KindExec     Kind = "exec"     // before a command starts
	KindExit     Kind = "exit"     // when it ends; same ID as its exec
	KindDecision Kind = "decision" // a blocked command (hold/deny), never ran
	KindApproval Kind = "approval" // a person approved Ref once
)

// allocates reports whether records of kind k take a new id of their own.
func (k Kind) allocates() bool { return k == KindExec || k == KindDecision || k == KindApproval }

// Hit is one rule that matched a command.
type Hit struct {
	ID       string `json:"id"`
	Severity string `json:"severity"`
	Message  string `json:"message,omitempty"`
	Span     string `json:"span,omitempty"`
	Pos      string `json:"pos,omitempty"`
}

// StreamInfo describes one output stream of a command. SHA256 is of the whole
// stream. When hashing gave way to a reader faster than it (see shim), SHA256 is
// empty and PrefixSHA256 is the hash of the first Hashed bytes; Bytes stays exact.
type StreamInfo struct {
	Bytes        int64  `json:"bytes"`
	SHA256       string `json:"sha256,omitempty"`
	PrefixSHA256 string `json:"sha256_prefix,omitempty"`
	Hashed       int64  `json:"hashed,omitempty"`
}

// Record is one line of the ledger. Which fields are set depends on Kind;
// see the package documentation.
type Record struct {
	Kind       Kind     `json:"kind"`
	ID         string   `json:"id,omitempty"`      // ev-0001… (at least 4 digits, widens by itself; parse numerically)
	Time       string   `json:"time"`              // RFC 3339 UTC with milliseconds; set by Append when empty
	Schema     int      `json:"schema,omitempty"`  // header only
	LastID     string   `json:"last_id,omitempty"` // header only: the last id allocated before this segment began
	Session    string   `json:"session,omitempty"`
	Cwd        string   `json:"cwd,omitempty"`
	Project    string   `json:"project,omitempty"`
	Mode       string   `json:"mode,omitempty"`    // invocation mode: shell|shim|script|argv|hook|check
	IO         string   `json:"io,omitempty"`      // pty|pipe
	Command    string   `json:"command,omitempty"` // canonical command (fingerprint text); redacted by Append
	Raw        string   `json:"raw,omitempty"`     // raw command as typed; redacted by Append
	Verdict    string   `json:"verdict,omitempty"` // allow|warn|hold|deny
	Enforce    string   `json:"enforce,omitempty"` // enforce|advise|audit
	Rules      []Hit    `json:"rules,omitempty"`
	EnvRemoved []string `json:"env_removed,omitempty"` // names only
	Parent     string   `json:"parent,omitempty"`      // id of the guarded command that started this guard (nested)
	PID        int      `json:"pid,omitempty"`
	Sandbox    string   `json:"sandbox,omitempty"`      // exec: the kernel sandbox in force: write, strict, "write (inherited)", "write (unavailable)"
	ABI        int      `json:"landlock_abi,omitempty"` // exec: the kernel's Landlock ABI when a sandbox was asked for
	Protect    string   `json:"protect,omitempty"`      // exit: what kept the protected paths: mount-namespace, journal, landlock

	Exit       *int        `json:"exit,omitempty"`
	Signal     string      `json:"signal,omitempty"`
	DurationMS float64     `json:"duration_ms,omitempty"`
	Stdout     *StreamInfo `json:"stdout,omitempty"`
	Stderr     *StreamInfo `json:"stderr,omitempty"`
	Digest     string      `json:"digest,omitempty"` // first and last 2 KiB of output, ANSI stripped, redacted by Append
	TimedOut   bool        `json:"timed_out,omitempty"`
	Incomplete bool        `json:"incomplete,omitempty"`
	Cast       string      `json:"cast,omitempty"` // relative path of the asciicast file

	Ref     string `json:"ref,omitempty"`     // approval: the id approved
	Expires string `json:"expires,omitempty"` // approval: RFC 3339
	Auth    string `json:"auth,omitempty"`    // approval: MAC of what it approves under the user's key (see ApprovalMAC)
	Stamp   string `json:"stamp,omitempty"`   // opaque worktree-state stamp the loop brake may store on failures

	Prev string `json:"prev"` // hex sha256 of the previous valid line (bytes without the newline); "" only for the very first header
}

// timeLayout is RFC 3339 with milliseconds; times are always UTC, so the
// zone is always "Z" and the strings sort as they compare.
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// FormatTime renders t the way records store it.
func FormatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// FormatID renders the n-th id: ev-0001, …, ev-9999, ev-10000, ….
func FormatID(n int64) string {
	d := strconv.FormatInt(n, 10)
	if len(d) < 4 {
		d = strings.Repeat("0", 4-len(d)) + d
	}
	return "ev-" + d
}

// ParseID returns the number of an id such as "ev-0042" (42). Ids compare
// by number, never as strings: ev-10000 comes after ev-9999.
func ParseID(id string) (int64, bool) {
	d, ok := strings.CutPrefix(id, "ev-")
	if !ok || d == "" || len(d) > 19 {
		return 0, false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(d, 10, 64)
	return n, err == nil && n > 0
}

// encode renders r as one line, newline included, in the form
// encoding/json gives it with HTML escaping off (so commands read as typed:
// a > b, not a \u003e b); see appendRecord.
func encode(r *Record) ([]byte, error) {
	b, err := appendRecord(make([]byte, 0, 512), r)
	if err != nil {
		return nil, fmt.Errorf("ledger: encode %s record: %w", r.Kind, err)
	}
	return append(b, '\n'), nil
}

var errNoKind = errors.New("no kind")

// decode parses one line (without its newline). This is the single
// definition of a valid record, shared by the writer, the readers and
// Verify, so that all of them agree on which lines the chain runs through:
// a line no longer than maxLine holding a JSON object that decodes into a
// Record with a kind.
func decode(line []byte) (Record, error) {
	var r Record
	if len(line) > maxLine {
		return r, fmt.Errorf("line of %d bytes is over the %d-byte limit", len(line), maxLine)
	}
	if len(line) == 0 || line[0] != '{' {
		return r, errors.New("not a JSON object")
	}
	if !decodeFast(line, &r) {
		r = Record{}
		if err := json.Unmarshal(line, &r); err != nil {
			return r, err
		}
	}
	if r.Kind == "" {
		return r, errNoKind
	}
	return r, nil
}

// hashLine is the chain link: the hex sha256 of a line without its newline.
func hashLine(line []byte) string {
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:])
}
