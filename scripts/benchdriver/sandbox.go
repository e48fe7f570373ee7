package main

import (
	"fmt"
	"time"
)

// sandboxCost measures what [sandbox] mode = "write" adds to a command
// (SPEC §8: ≤ 1 ms over off): guard-exec -c true with and without it,
// interleaved, and strict beside them. The difference is the ruleset, the
// locked thread, the mount namespace and its read-only binds.
func sandboxCost(w *world, s *summary) error {
	fmt.Printf("\n== kernel sandbox: -c true with --sandbox=off, write and strict, %d interleaved rounds\n", w.c.rounds)
	ss, err := interleave([]*variant{
		w.guardV("--sandbox=off", "-c", "true"),
		w.guardV("--sandbox=write", "-c", "true"),
		w.guardV("--sandbox=strict", "-c", "true"),
	}, 5, w.c.rounds)
	if err != nil {
		return err
	}
	printSeries(ss)
	wW, wC := printDiff("write − off", ss[1], ss[0])
	printDiff("strict − off", ss[2], ss[0])
	s.add("--sandbox=write added over off", both(wW, wC), "≤ 1.0 ms", wW <= time.Millisecond, cpuNote(wC <= time.Millisecond))
	return nil
}
