package ledger

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// File names inside the ledger directory.
const (
	activeName = "ledger.jsonl"
	lockName   = "ledger.lock"
	ignoreName = ".gitignore"
	castsDir   = "casts"
)

const (
	defaultMaxBytes    = 4 << 20
	defaultKeep        = 3
	defaultLockTimeout = 10 * time.Second

	// maxLine bounds every line a reader loads: a longer line is skipped
	// with a problem, never read whole. Append keeps its own records far
	// below it (see bound.go).
	maxLine = 1 << 20
)

// openFlags refuses a symlink in place of a ledger file: the directory can
// sit inside a repository, and a checked-out ledger.jsonl pointing at a
// shell start-up file must not receive our appends.
const openFlags = syscall.O_NOFOLLOW

// Options tune a Ledger. The zero value is the default.
type Options struct {
	MaxBytes int64            // rotate the active segment above this size (default 4 MiB)
	Keep     int              // rotated segments kept (default 3): ledger.1.jsonl (newest) … ledger.3.jsonl
	Durable  bool             // fsync after each append
	Secrets  []string         // literal secret values (e.g. values of env vars whose names say they are secrets) to redact verbatim
	Now      func() time.Time // for tests

	// LockTimeout bounds the wait for another process's append (default
	// 10 s). A process stopped while holding the lock must not hang every
	// command after it; the caller gets an error and decides.
	LockTimeout time.Duration

	// Key authenticates the chain (auth.go): nil writes plain sha256
	// links, which show damage but not a forger who recomputes them.
	Key []byte
	// AnchorDir holds the anchors of ledgers (anchor.go), outside any
	// ledger directory; "" keeps none. Anchors need a Key.
	AnchorDir string
}

// A Ledger is one evidence directory. It holds no open files between calls,
// so it is safe to use from several goroutines and processes at once.
type Ledger struct {
	dir  string
	opts Options

	mu  sync.Mutex // guards end: Appends of one Ledger may run on several goroutines
	end appendEnd  // where this Ledger's last append left the active segment

	keys       *keyring // nil: unkeyed
	absDir     string
	anchorPath string
}

// Open prepares dir (0700; files 0600; a .gitignore containing "*" so it
// never shows in git status). It is cheap: one stat when the directory is
// already prepared, and no reads.
func Open(dir string, opts Options) (*Ledger, error) {
	if dir == "" {
		return nil, errors.New("ledger: no directory given")
	}
	l := &Ledger{dir: dir, opts: withDefaults(opts), keys: newKeyring(opts.Key)}
	l.absDir, _ = filepath.Abs(dir)
	l.anchorPath = AnchorFile(opts.AnchorDir, dir)
	if _, err := os.Stat(l.path(ignoreName)); err == nil {
		return l, nil
	}
	if err := l.setup(); err != nil {
		return nil, err
	}
	return l, nil
}

func withDefaults(o Options) Options {
	if o.MaxBytes <= 0 {
		o.MaxBytes = defaultMaxBytes
	}
	if o.Keep <= 0 {
		o.Keep = defaultKeep
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = defaultLockTimeout
	}
	return o
}

// Dir returns the ledger directory. Problem.File names are relative to it.
func (l *Ledger) Dir() string { return l.dir }

func (l *Ledger) path(name string) string { return filepath.Join(l.dir, name) }

// segmentName returns the name of rotated segment i (1 is the newest).
func segmentName(i int) string { return "ledger." + strconv.Itoa(i) + ".jsonl" }

// setup creates the directory and its .gitignore. It runs on first use,
// and again if the directory disappears under a running guard.
func (l *Ledger) setup() error {
	if fi, err := os.Stat(l.dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("ledger: %s is not a directory", l.dir)
	}
	if err := os.MkdirAll(l.dir, 0o700); err != nil {
		return fmt.Errorf("ledger: create directory: %w", err)
	}
	// MkdirAll leaves an existing directory as it was; the ledger holds
	// commands and output, so tighten it. Not owning it is no reason to
	// refuse: the append will tell whether it is writable.
	_ = os.Chmod(l.dir, 0o700)
	f, err := os.OpenFile(l.path(ignoreName), os.O_WRONLY|os.O_CREATE|os.O_EXCL|openFlags, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("ledger: directory not writable: %w", err)
	}
	_, err = f.WriteString("*\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("ledger: write %s: %w", ignoreName, err)
	}
	return nil
}
