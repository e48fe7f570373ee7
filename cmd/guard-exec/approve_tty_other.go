//go:build !linux

package main

import (
	"errors"
	"os"
	"time"
)

// Whose terminal approves (see approve_tty_linux.go) is told from the process
// table as Linux's /proc shows it: the environments of the terminal's session
// leader and of the processes holding its master, their owners and start
// times. This system offers no such view to golang.org/x/sys (the open files
// of other processes and their initial environments are not in sysctl
// kern.proc), so approve fails closed here: it refuses every terminal, with a
// message that says why, rather than let a terminal a held agent opened answer
// for a person. A held command is then run with `guard-exec approve` on a
// Linux machine, or rewritten.

// errNoPersonCheck is approve's refusal on this system.
var errNoPersonCheck = errors.New("cannot be told apart from a terminal a guarded command opened on this system " +
	"(the checks read Linux's /proc), so approve refuses it; approve works on Linux only so far")

// checkPersonsTerminal refuses: see errNoPersonCheck.
func checkPersonsTerminal(*os.File, time.Time, map[procKey]string) error { return errNoPersonCheck }

// markedChain cannot read another process's environment here and answers
// false; approve, its one user, refuses every terminal afterwards anyway
// (checkPersonsTerminal), so no decision rests on this answer.
func markedChain(int, map[procKey]string) bool { return false }
