package main

import (
	"context"
	"fmt"
	"time"

	"github.com/guard-exec/guard-exec/internal/project"
	"github.com/guard-exec/guard-exec/ledger"
)

// maxStreak bounds the failures counted per command in `loops`.
const maxStreak = 1000

// runLoops shows the failing streaks of a session, so a person can see what
// the loop brake is about to hold and why a streak no longer counts.
func runLoops(_ context.Context, g *guard, args []string) error {
	fs := g.flags("loops")
	session := fs.String("session", "", "the session `S` (default: this one)")
	dir := fs.String("ledger", "", "read the ledger in `DIR`")
	if err := g.parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("loops takes no operands (got %q)", fs.Arg(0))
	}
	sess := *session
	if sess == "" {
		sess = g.session()
	}
	led, where, err := g.openForReading(*dir)
	if err != nil {
		return err
	}
	if led == nil {
		g.noLedger(where)
		return nil
	}
	var runs []ledger.Run
	cut, err := led.SessionRuns(sess, func(r ledger.Run) bool { runs = append(runs, r); return true })
	if err != nil {
		return err
	}
	n := g.config().Loop.BlockAfter
	streaks := findStreaks(runs)
	if n <= 0 {
		fmt.Fprintln(g.st.out, "the loop brake is off (loop.block_after = 0)")
	}
	if len(streaks) == 0 {
		fmt.Fprintf(g.st.out, "no failing commands in session %s\n", sess)
		return nil
	}
	fmt.Fprintf(g.st.out, "session %s: commands failing in a row (the brake holds attempt %d)\n", sess, max(n, 2))
	t := newTable(g.st.out, g.termWidth(), "FAILS", "LAST FAILURE", "STATE", "CWD", "COMMAND")
	now := time.Now()
	for _, s := range streaks {
		t.add(fmt.Sprint(len(s.fails)), shortTime(s.fails[0].End, now), g.streakState(led, runs, s, n), s.cwd, s.command)
	}
	t.flush()
	if cut {
		fmt.Fprintf(g.st.out, "(read back over the last %d KiB of the ledger)\n", ledger.RunWindow>>10)
	}
	return nil
}

// findStreaks finds, in runs (newest first), each command whose latest
// outcome is a failure, most recently failed first.
func findStreaks(runs []ledger.Run) []streak {
	type key struct{ cmd, cwd string }
	seen := map[key]bool{}
	var out []streak
	for _, r := range runs {
		k := key{r.Command, r.Cwd}
		if seen[k] {
			continue
		}
		seen[k] = true
		if s := judge(runs, r.Command, r.Cwd, maxStreak); len(s.fails) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// streakState says what the brake will do with the streak's next attempt,
// judging it exactly as the brake does: over its last n-1 failures.
func (g *guard) streakState(led *ledger.Ledger, runs []ledger.Run, s streak, n int) string {
	need := max(n-1, 1)
	cur := judge(runs, s.command, s.cwd, need)
	h := newLedgerHistory(led, project.Root(s.cwd), g.loopSkip(led.Dir()), g.vars)
	if why := h.lifted(cur); why != "" {
		return "lifted: " + why
	}
	switch {
	case n <= 0:
		return "brake off"
	case len(cur.fails) >= need:
		return "next attempt held"
	}
	return fmt.Sprintf("held after %d more", need-len(cur.fails))
}
