package main

import (
	"fmt"
	"syscall"

	"github.com/guard-exec/guard-exec/shim"
	"golang.org/x/sys/unix"
)

// Exit statuses guard-exec gives itself; every other status is the
// command's own. Bash gives 126 and 125 no meaning a caller relies on for
// `-c` scripts, which is why the guard takes them (see doc.go).
const (
	exitBlocked     = 126 // held or denied: the command did not run
	exitGuardFailed = 125 // guard-exec itself failed: usage, no shell, broken setup
	exitNotFound    = 127 // the script named is not found (bash's status for it)
	exitAttention   = 1   // doctor, shim status, config check, log --verify: a problem found
)

// statusError carries a status to main without printing anything: the
// command's own exit status, or a block already explained on stderr.
type statusError struct {
	code   int
	signal syscall.Signal // the command died by it: main ends the guard by it too
}

func (e statusError) Error() string { return fmt.Sprintf("exit status %d", e.code) }
func (e statusError) ExitCode() int { return e.code }

// commandStatus is the command's own outcome: its exit status, or its death
// by a signal, which the guard passes on as bash's caller would see it.
func commandStatus(res *shim.Result) error {
	if res.Signal != "" {
		if sig := unix.SignalNum(res.Signal); sig != 0 {
			return statusError{code: res.ExitCode, signal: sig}
		}
	}
	return status(res.ExitCode)
}

// status returns nil for 0, so success needs no error value.
func status(code int) error {
	if code == 0 {
		return nil
	}
	return statusError{code: code}
}

// usageError is bad usage of guard-exec itself: a message and a short
// usage line, status 125.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }
