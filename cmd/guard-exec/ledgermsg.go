package main

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"time"

	"github.com/guard-exec/guard-exec/ledger"
	"github.com/guard-exec/guard-exec/shim"
)

// ledgerError is a ledger failure put for the person who must fix it: the
// ledger's directory, the file and what went wrong with it, and what to
// check. The ledger's own errors each begin "ledger: …"; wrapped in turn
// by the file system's, they read "ledger: open: open PATH: …".
type ledgerError struct {
	dir     string
	err     error
	reading bool // reading it for a person (log, show), not recording
}

func (e *ledgerError) Error() string {
	var b strings.Builder
	what := "cannot record"
	if e.reading {
		what = "cannot be read"
	}
	fmt.Fprintf(&b, "the ledger in %s %s", e.dir, what)
	var pe *fs.PathError
	if errors.As(e.err, &pe) {
		fmt.Fprintf(&b, ": %s %s: %v", pe.Op, pe.Path, pe.Err)
	} else {
		fmt.Fprintf(&b, ": %s", strings.TrimPrefix(e.err.Error(), "ledger: "))
	}
	switch {
	case errors.Is(e.err, syscall.EACCES), errors.Is(e.err, syscall.EPERM), errors.Is(e.err, syscall.EROFS):
		fmt.Fprintf(&b, "; check its permissions (ls -ld %s), or set GUARD_EXEC_LEDGER_DIR to a directory you can use", e.dir)
	case errors.Is(e.err, syscall.ELOOP):
		b.WriteString("; a ledger file is a symbolic link, which the ledger refuses to follow: move it aside")
	case errors.Is(e.err, syscall.ENOSPC), errors.Is(e.err, syscall.EDQUOT):
		b.WriteString("; the disk is full: free space, or set GUARD_EXEC_LEDGER_DIR elsewhere")
	case errors.Is(e.err, syscall.ENOTDIR):
		fmt.Fprintf(&b, "; a file stands where the directory should be: move it, or set GUARD_EXEC_LEDGER_DIR elsewhere")
	default:
		b.WriteString("; guard-exec doctor checks the ledger")
	}
	return b.String()
}

func (e *ledgerError) Unwrap() error { return e.err }

// ledgerFailure wraps a ledger error with the ledger's location.
func (g *guard) ledgerFailure(err error) error {
	var le *ledgerError
	if errors.As(err, &le) {
		return err
	}
	dir := "(no directory)"
	if g.led != nil {
		dir = g.led.Dir()
	} else if d := ledger.Location(g.projectRoot(), g.getenv); d != "" {
		dir = d
	}
	return &ledgerError{dir: dir, err: err}
}

// ledgerWarn reports a ledger failure that does not stop the command (its
// exit record, a decision record).
func (g *guard) ledgerWarn(err error) {
	fmt.Fprintf(g.st.err, "guard-exec: error: %v\n", g.ledgerFailure(err))
}

// notRun is the error for a command the guard did not run because the
// ledger could not record it: evidence is part of the contract.
func (g *guard) notRun(err error) error {
	return fmt.Errorf("%w; the command was not run", g.ledgerFailure(err))
}

// reportTimeout says that --timeout (or exec.timeout) killed the command:
// its status alone (143, 137) would read as a death by another's signal.
func (g *guard) reportTimeout(res *shim.Result) {
	if res == nil || !res.TimedOut {
		return
	}
	fmt.Fprintf(g.st.err, "guard-exec: error: killed the command after %s (--timeout, or exec.timeout in the configuration); exit status %d\n",
		fmtTimeout(g.timeout), res.ExitCode)
}

func fmtTimeout(d time.Duration) string {
	if d >= time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.String()
}

// recordID reads an id as people type it: ev-37, ev-0037 or 37 name the
// same record; it returns the ledger's spelling (ev-0037).
func recordID(s string) (string, bool) {
	if !strings.HasPrefix(s, "ev-") {
		s = "ev-" + s
	}
	n, ok := ledger.ParseID(s)
	if !ok {
		return "", false
	}
	return ledger.FormatID(n), true
}
