package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/guard-exec/guard-exec/internal/paths"
	"github.com/guard-exec/guard-exec/internal/project"
	"github.com/guard-exec/guard-exec/internal/redact"
	"github.com/guard-exec/guard-exec/ledger"
)

// The sandboxed interactive shell's recorder. The person's shell runs in
// the kernel sandbox, and so does the hook its DEBUG trap starts for each
// line (interactive.go): there the ledger is read-only and its key
// unreadable, by design (SPEC §4.6), so the hook can judge a line but not
// record it. So where the sandbox is Landlock the guard does not replace
// itself with the shell: it starts the shell sandboxed as its child and
// stays outside, as the shell's recorder. It listens on a Unix socket in
// the state directory, which sandboxed commands cannot change; the hook
// hands it its records there (--recorder), and the guard appends them to
// the ledger with the key.
//
// Every process in the shell can reach the socket, so the recorder
// believes only what a guard-exec hook of its own shell sends (the peer's
// credentials: same user, same executable, a descendant of the shell),
// and only a consistent story: an approval is of a hold this shell
// recorded, and carries that hold's command, not one the sender names; a
// run follows such an approval; an exit ends such a run, once. An
// approval recorded this way has no MAC, so it never lets a command
// elsewhere run (approvedOnce): it is the record of a yes the person gave
// at this shell's terminal for the line that ran right after.

// maxRecorderMessage bounds a request or reply: a record's command is at
// most 1 MiB, and JSON escaping can double it.
const maxRecorderMessage = 4 << 20

// recorderTimeout bounds one exchange, so that a process in the shell
// that connects and says nothing holds nothing up for long.
const recorderTimeout = 10 * time.Second

// recorderRequest is what a hook asks: append a record, or find the
// records of an id it appended. Dir is the hook's working directory, which
// says whose ledger (the project's, or the user's outside one).
type recorderRequest struct {
	Op     string         `json:"op"` // append | find
	Dir    string         `json:"dir"`
	Record *ledger.Record `json:"record,omitempty"`
	ID     string         `json:"id,omitempty"`
}

type recorderReply struct {
	ID      string          `json:"id,omitempty"`
	Records []ledger.Record `json:"records,omitempty"`
	Error   string          `json:"error,omitempty"`
}

// recordBook is what a hook records in: the ledger itself, or the
// recorder of the sandboxed shell it judges for.
type recordBook interface {
	Append(r *ledger.Record) (string, error)
	Find(id string) ([]ledger.Record, error)
}

// hookBook is the book this hook records in.
func (g *guard) hookBook() (recordBook, error) {
	if g.recorder != "" {
		return &remoteBook{path: g.recorder, dir: g.workdir(), secrets: g.secretValues()}, nil
	}
	led, err := g.book()
	if err != nil {
		return nil, err
	}
	return led, nil
}

// remoteBook is the hook's side of the recorder.
type remoteBook struct {
	path    string
	dir     string
	secrets []string // this process's: the recorder may not know those set in the shell since
}

func (b *remoteBook) Append(r *ledger.Record) (string, error) {
	rec := *r
	rec.Command = redact.String(rec.Command, b.secrets)
	rec.Raw = redact.String(rec.Raw, b.secrets)
	rec.Rules = append([]ledger.Hit(nil), rec.Rules...)
	for i := range rec.Rules {
		rec.Rules[i].Span = redact.String(rec.Rules[i].Span, b.secrets)
		rec.Rules[i].Message = redact.String(rec.Rules[i].Message, b.secrets)
	}
	rep, err := b.call(&recorderRequest{Op: "append", Record: &rec})
	if err != nil {
		return "", err
	}
	return rep.ID, nil
}

func (b *remoteBook) Find(id string) ([]ledger.Record, error) {
	rep, err := b.call(&recorderRequest{Op: "find", ID: id})
	if err != nil {
		return nil, err
	}
	return rep.Records, nil
}

func (b *remoteBook) call(req *recorderRequest) (*recorderReply, error) {
	req.Dir = b.dir
	addr, done, err := socketAddr(b.path)
	if err != nil {
		return nil, fmt.Errorf("the shell's recorder: %w", err)
	}
	c, err := net.DialTimeout("unix", addr, recorderTimeout)
	done()
	if err != nil {
		return nil, fmt.Errorf("the shell's recorder: %w", err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(recorderTimeout))
	if err := json.NewEncoder(c).Encode(req); err != nil {
		return nil, fmt.Errorf("the shell's recorder: %w", err)
	}
	var rep recorderReply
	if err := json.NewDecoder(io.LimitReader(c, maxRecorderMessage)).Decode(&rep); err != nil {
		return nil, fmt.Errorf("the shell's recorder: no answer: %w", err)
	}
	if rep.Error != "" {
		return nil, errors.New("the shell's recorder: " + rep.Error)
	}
	return &rep, nil
}

// shellRecorder is the guard's side: it appends what the hooks of one
// shell send.
type shellRecorder struct {
	g       *guard
	ln      *net.UnixListener
	path    string
	sandbox string // what the runs' exec records say ran them

	mu    sync.Mutex
	shell int // the shell's pid, once started
	books map[string]*shellBook
}

// shellBook is one ledger the shell's lines went to, and the story so far.
type shellBook struct {
	led       *ledger.Ledger
	mine      map[string]bool      // every id appended here
	held      map[string]shellLine // holds not yet approved
	approvals map[string]shellLine // approvals no run has used yet
	open      map[string]bool      // runs whose exit is not recorded yet
}

// shellLine is a held line as its decision recorded it.
type shellLine struct{ command, raw string }

// recorderSocket is where the recorder of the guard with this pid listens:
// in the state directory, which the sandbox protects.
func recorderSocket(getenv func(string) string) string {
	return filepath.Join(paths.StateDir(getenv), "shells", strconv.Itoa(os.Getpid())+".sock")
}

// maxSocketPath is what a Unix socket's address holds on every system
// guard-exec runs on (104 bytes on macOS, 108 on Linux, with the NUL).
const maxSocketPath = 100

// socketAddr is the address to bind or connect to for the socket at p.
// A path longer than an address can hold (a deep home directory) is
// reached through a descriptor of its directory: /proc/self/fd/N/NAME,
// which the kernel resolves like the path itself. done closes that
// descriptor once the bind or connect is over.
func socketAddr(p string) (addr string, done func(), err error) {
	if len(p) <= maxSocketPath {
		return p, func() {}, nil
	}
	d, err := os.Open(filepath.Dir(p))
	if err != nil {
		return "", nil, err
	}
	addr = "/proc/self/fd/" + strconv.Itoa(int(d.Fd())) + "/" + filepath.Base(p)
	if len(addr) > maxSocketPath {
		d.Close()
		return "", nil, errors.New("the socket's name is too long for an address")
	}
	return addr, func() { d.Close() }, nil
}

// listenRecorder opens the recorder's socket. The directory is the user's
// alone; a socket left by a guard that was killed with the same pid is
// replaced.
func (g *guard) listenRecorder(sb *sandboxRun) (*shellRecorder, error) {
	p := recorderSocket(g.getenv)
	if !filepath.IsAbs(p) {
		return nil, errors.New("no state directory (HOME is not set)")
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, err
	}
	_ = os.Remove(p)
	addr, done, err := socketAddr(p)
	if err != nil {
		return nil, err
	}
	defer done()
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: addr, Net: "unix"})
	if err != nil {
		return nil, err
	}
	// Closing removes the socket by its path, not by an address that
	// names a descriptor closed by then.
	ln.SetUnlinkOnClose(false)
	return &shellRecorder{g: g, ln: ln, path: p, sandbox: sb.recordName(), books: map[string]*shellBook{}}, nil
}

func (s *shellRecorder) close() {
	s.ln.Close()
	_ = os.Remove(s.path)
}

// maxRecorderCalls bounds the exchanges served at once: a process in the
// shell that opens connections and says nothing fills these for
// recorderTimeout at most, and the rest wait in the listen queue.
const maxRecorderCalls = 8

// serve answers hooks until the listener is closed.
func (s *shellRecorder) serve() {
	busy := make(chan struct{}, maxRecorderCalls)
	for {
		c, err := s.ln.AcceptUnix()
		if err != nil {
			return
		}
		busy <- struct{}{}
		go func() {
			defer func() { <-busy }()
			s.answer(c)
		}()
	}
}

func (s *shellRecorder) answer(c *net.UnixConn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(recorderTimeout))
	rep := s.reply(c)
	_ = json.NewEncoder(c).Encode(rep)
}

func (s *shellRecorder) reply(c *net.UnixConn) *recorderReply {
	// The request is read whatever the sender, so that the answer reaches
	// it: closing on unread data would reset the connection instead.
	var req recorderRequest
	jerr := json.NewDecoder(io.LimitReader(c, maxRecorderMessage)).Decode(&req)
	s.mu.Lock()
	shell := s.shell
	s.mu.Unlock()
	if !peerIsHook(c, shell) { // recorder_linux.go
		return &recorderReply{Error: "only the hook of this shell's guard records here"}
	}
	if jerr != nil {
		return &recorderReply{Error: "the request is not JSON"}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := s.bookFor(req.Dir)
	if err != nil {
		return &recorderReply{Error: err.Error()}
	}
	switch req.Op {
	case "append":
		if req.Record == nil {
			return &recorderReply{Error: "append needs a record"}
		}
		id, err := b.append(req.Record, s.sandbox)
		if err != nil {
			return &recorderReply{Error: err.Error()}
		}
		return &recorderReply{ID: id}
	case "find":
		if !b.mine[req.ID] {
			return &recorderReply{Error: fmt.Sprintf("%v: %s", ledger.ErrNotFound, req.ID)}
		}
		recs, err := b.led.Find(req.ID)
		if err != nil {
			return &recorderReply{Error: err.Error()}
		}
		return &recorderReply{Records: recs}
	}
	return &recorderReply{Error: fmt.Sprintf("unknown request %q", req.Op)}
}

// bookFor is the ledger of a hook's working directory, as the hook itself
// would open it outside the sandbox (evidence.go), with the user's key.
func (s *shellRecorder) bookFor(dir string) (*shellBook, error) {
	if !filepath.IsAbs(dir) {
		return nil, errors.New("the request names no working directory")
	}
	where := ledger.Location(repoRoot(project.Root(filepath.Clean(dir))), s.g.getenv)
	if b := s.books[where]; b != nil {
		return b, nil
	}
	led, err := ledger.Open(where, s.g.ledgerOptions())
	if err != nil {
		return nil, err
	}
	b := &shellBook{led: led, mine: map[string]bool{}, held: map[string]shellLine{},
		approvals: map[string]shellLine{}, open: map[string]bool{}}
	s.books[where] = b
	return b, nil
}

// append records r if it continues the shell's story (see above). What
// the ledger fills in itself (time, chain, ids of new records) and what
// only guard-exec approve may write (an approval's MAC and expiry) is
// never taken from the sender.
func (b *shellBook) append(r *ledger.Record, sandbox string) (string, error) {
	rec := *r
	rec.Time, rec.Prev, rec.Auth, rec.Expires, rec.Schema, rec.LastID = "", "", "", "", 0, ""
	switch rec.Kind {
	case ledger.KindDecision:
		rec.ID, rec.Ref = "", ""
	case ledger.KindApproval:
		line, ok := b.held[rec.Ref]
		if !ok {
			return "", fmt.Errorf("%s is not a hold of this shell waiting for an answer", rec.Ref)
		}
		rec.ID, rec.Command, rec.Raw = "", line.command, line.raw
	case ledger.KindExec:
		line, ok := b.approvals[rec.Ref]
		if !ok {
			return "", fmt.Errorf("%s is not an approval of this shell that no line has used", rec.Ref)
		}
		rec.ID, rec.Command, rec.Raw, rec.Sandbox = "", line.command, line.raw, sandbox
	case ledger.KindExit:
		if !b.open[rec.ID] {
			return "", fmt.Errorf("%s is not a run of this shell still waiting for its exit", rec.ID)
		}
		rec.Ref = ""
	default:
		return "", fmt.Errorf("a shell's hook records no %q records", rec.Kind)
	}
	id, err := b.led.Append(&rec)
	if err != nil {
		return "", err
	}
	b.mine[id] = true
	switch rec.Kind {
	case ledger.KindDecision:
		if rec.Verdict == "hold" {
			if recs, err := b.led.Find(id); err == nil {
				for _, x := range recs {
					if x.ID == id && x.Kind == ledger.KindDecision {
						b.held[id] = shellLine{command: x.Command, raw: x.Raw} // as stored: redacted
					}
				}
			}
		}
	case ledger.KindApproval:
		b.approvals[id] = b.held[rec.Ref]
		delete(b.held, rec.Ref)
	case ledger.KindExec:
		delete(b.approvals, rec.Ref)
		b.open[id] = true
	case ledger.KindExit:
		delete(b.open, id)
	}
	return id, nil
}
