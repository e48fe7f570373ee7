package main

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/guard-exec/guard-exec/internal/worktree"
	"github.com/guard-exec/guard-exec/ledger"
	"github.com/guard-exec/guard-exec/parse"
	"github.com/guard-exec/guard-exec/policy"
)

// loopLookback is how many of the session's latest commands the brake
// looks back over for earlier attempts. A loop repeats within a few
// commands; reading further would cost every command more.
const loopLookback = 24

// Clock margins for comparing file change times with record times.
// Records keep milliseconds, cut down, so an end time is pushed up by one.
// The kernel stamps files from a clock that lags by up to a tick (a few
// ms), so a file the command wrote just after it started may look older
// than its start: the start is pulled down by a margin.
const (
	endMargin   = time.Millisecond
	startMargin = 20 * time.Millisecond
)

// ledgerHistory is the loop brake's policy.History over the ledger and
// the project's files.
type ledgerHistory struct {
	led     *ledger.Ledger
	project string   // the tree whose changes lift the brake
	skip    []string // directories inside it that are not the project's own (the ledger, a temp dir)
	env     map[string]string
	// changed reports whether the project changed after since outside the
	// quiet intervals; a field so tests can stand in for the file clock.
	changed func(root string, since time.Time, quiet []worktree.Interval, skip []string) (bool, string)
}

func newLedgerHistory(led *ledger.Ledger, project string, skip []string, env map[string]string) *ledgerHistory {
	return &ledgerHistory{led: led, project: project, skip: skip, env: env, changed: filesChanged}
}

// outcome is how an attempt ended, as the brake counts it.
type outcome uint8

const (
	failed      outcome = iota
	succeeded           // exit status 0
	interrupted         // no exit record (killed guard, or still running), or stopped from outside
)

// stopSignal reports how a person or an agent's host stops a command; a run
// they ended did not fail on its own. A death by the guard's own timeout
// is a failure: a command that hangs every time is a loop too.
func stopSignal(sig string) bool {
	switch sig {
	case "SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGKILL":
		return true
	}
	return false
}

func outcomeOf(r *ledger.Run) outcome {
	switch {
	case !r.Ended():
		return interrupted
	case r.Exit == 0:
		return succeeded
	case stopSignal(r.Signal) && !r.TimedOut:
		return interrupted
	}
	return failed
}

// RepeatedFailures implements policy.History.
func (h *ledgerHistory) RepeatedFailures(session, command, cwd string, n int) ([]string, error) {
	fp := h.led.StoredCommand(command)
	var runs []ledger.Run
	fails := 0
	_, err := h.led.SessionRuns(session, func(r ledger.Run) bool {
		runs = append(runs, r)
		if r.Command == fp && r.Cwd == cwd {
			switch outcomeOf(&r) {
			case succeeded:
				return false
			case failed:
				if fails++; fails == n {
					return false
				}
			}
		}
		return len(runs) < loopLookback
	})
	if err != nil {
		return nil, err
	}
	s := judge(runs, fp, cwd, n)
	if len(s.fails) < n || h.lifted(s) != "" {
		return nil, nil
	}
	ids := make([]string, len(s.fails))
	for i, r := range s.fails {
		ids[i] = r.ID
	}
	return ids, nil
}

// streak is one fingerprint's run of failures in a session.
type streak struct {
	command, cwd string
	fails        []ledger.Run // consecutive failures, newest first, at most n
	others       []ledger.Run // the session's other commands since the oldest of fails, newest first
}

// judge finds the streak of fingerprint (fp, cwd) in runs (newest first):
// failures back to its last success, at most n, skipping interrupted
// attempts, which say nothing either way. Other commands do not break the
// streak — an agent that runs `go test`, reads a file, runs `go test`
// again is looping on `go test` — but they are kept, since one that may
// have changed something lifts the brake (see lifted).
func judge(runs []ledger.Run, fp, cwd string, n int) streak {
	s := streak{command: fp, cwd: cwd}
	var others []ledger.Run
	for _, r := range runs {
		if r.Command != fp || r.Cwd != cwd {
			others = append(others, r)
			continue
		}
		o := outcomeOf(&r)
		if o == succeeded {
			break
		}
		if o == failed {
			s.fails = append(s.fails, r)
			s.others = others
			if len(s.fails) == n {
				break
			}
		}
	}
	return s
}

// lifted says what, since the oldest failure of the streak, may make
// another attempt turn out differently; "" when nothing did and the brake
// holds. Only called with a full streak, so its cost (parsing a few
// commands, walking the project) is paid when a command is about to be
// held, never on the common path.
func (h *ledgerHistory) lifted(s streak) string {
	if len(s.fails) == 0 {
		return "no failure"
	}
	for _, o := range s.others {
		if outcomeOf(&o) == failed {
			continue // a command that failed changed little
		}
		a := parse.Analyze(o.Command, parse.Options{Env: h.env, Dir: o.Cwd})
		if !policy.Observes(a) {
			return fmt.Sprintf("%s ran since (%s)", o.ID, oneLine(o.Command, 60))
		}
	}
	oldest := s.fails[len(s.fails)-1]
	since := oldest.EndTime()
	if since.IsZero() {
		return "unreadable record times"
	}
	var quiet []worktree.Interval
	for _, f := range s.fails[:len(s.fails)-1] {
		from, to := f.StartTime(), f.EndTime()
		if from.IsZero() || to.IsZero() {
			return "unreadable record times"
		}
		quiet = append(quiet, worktree.Interval{From: from.Add(-startMargin), To: to.Add(endMargin)})
	}
	if changed, what := h.changed(h.project, since.Add(endMargin), quiet, h.skip); changed {
		return what
	}
	return ""
}

// filesChanged is the real change check. A walk that could not look at
// everything counts as a change: holding an agent that did edit the code
// would block work, while letting a loop run once more only costs one
// more attempt.
func filesChanged(root string, since time.Time, quiet []worktree.Interval, skip []string) (bool, string) {
	r := worktree.ChangedSince(root, since, worktree.Options{Quiet: quiet, Skip: skip})
	switch {
	case r.Changed:
		rel, err := filepath.Rel(root, r.Path)
		if err != nil || rel == "." {
			rel = r.Path
		}
		return true, "files changed since (" + rel + ")"
	case r.Incomplete:
		return true, fmt.Sprintf("the project is too large to check (over %d entries)", worktree.DefaultMaxEntries)
	}
	return false, ""
}

// oneLine renders text on one line of at most max runes: newlines and
// control characters shown as symbols, the rest cut with an ellipsis.
func oneLine(s string, max int) string {
	out := make([]rune, 0, min(len(s), max))
	n := 0
	for _, r := range s {
		if n == max {
			out[len(out)-1] = '…'
			break
		}
		switch {
		case r == '\n':
			r = '⏎'
		case r == '\t':
			r = ' '
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			r = '�'
		}
		out = append(out, r)
		n++
	}
	return string(out)
}
