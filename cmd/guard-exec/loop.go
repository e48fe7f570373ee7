package main

import (
	"path/filepath"

	"github.com/guard-exec/guard-exec/internal/paths"
	"github.com/guard-exec/guard-exec/policy"
)

// withLoopBrake gives a decision what the loop brake needs: the session,
// the history and the threshold (SPEC §4.3). It does nothing when the brake
// is off, and for a nested guard — a shim started inside a guarded
// command: the commands a script runs, retries included, are the script's
// own business, and the command that started it is the one braked.
func (g *guard) withLoopBrake(x *policy.Ctx) {
	n := g.config().Loop.BlockAfter
	if n <= 0 || g.nested() {
		return
	}
	led, err := g.book()
	if err != nil {
		return // the run itself reports the ledger
	}
	x.Session, x.BlockAfter = g.session(), n
	x.History = newLedgerHistory(led, x.Project, g.loopSkip(led.Dir()), g.vars)
}

// loopSkip lists directories inside a project whose changes are not the
// project's: the ledger and its anchors (every command writes them) and
// the temp dir when
// it lives there.
func (g *guard) loopSkip(ledgerDir string) []string {
	skip := []string{ledgerDir}
	if a := paths.AnchorDir(g.getenv); a != "" {
		skip = append(skip, a) // every append writes its anchor
	}
	if t := g.vars["TMPDIR"]; filepath.IsAbs(t) {
		skip = append(skip, filepath.Clean(t))
	}
	return skip
}
