package policy

import (
	"fmt"
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// History is the loop brake's view of what ran before. The command layer
// implements it over the ledger and the project's files; policy reads
// neither.
type History interface {
	// RepeatedFailures returns the ids of the last n attempts of a command
	// line (canonical text) in cwd in the session, newest first, when all
	// n failed and nothing has happened since the first of them that could
	// make another attempt turn out differently: no success of it, no
	// change to the project's files, no other command that may have
	// changed what it depends on. Otherwise it returns nil. It reads a
	// bounded amount whatever the history holds.
	RepeatedFailures(session, command, cwd string, n int) ([]string, error)
}

// ruleLoopBrake holds the Nth attempt of a command that failed N-1 times
// in a row (SPEC §4.3). It has no pattern: Decide consults Ctx.History.
var ruleLoopBrake = &Rule{
	ID: "loop-brake", Family: "loop", Severity: Hold,
	Message: "the same command keeps failing here and nothing in the project changed since: change the approach or gather new information",
	Hint: "read the error of the last failure (guard-exec show ID), change the code or the command, or run a diagnostic first; " +
		"an edit in the project or a success of the command lifts the brake",
}

// loopRules are listed by `guard-exec rules` with the rest.
var loopRules = []*Rule{ruleLoopBrake}

// loopBrake adds the brake's hit to the hits of a command line. It costs
// nothing when the brake is off or when the line is already blocked for
// another reason (it adds nothing a person needs then), and one bounded
// history lookup otherwise. A history that fails to answer lets the
// command through: the brake saves effort, it is not a safety rule, and
// the ledger that failed will refuse to record the command anyway.
//
// block_after = 1 would hold every command before it ever ran; it acts
// as 2.
func (e *Engine) loopBrake(a *parse.Analysis, x *Ctx, hits []Hit) []Hit {
	if x.History == nil || x.BlockAfter <= 0 || x.Session == "" {
		return hits
	}
	if !e.hasLoopBrake { // exempted
		return hits
	}
	for _, h := range hits {
		if h.Severity.Blocks() {
			return hits
		}
	}
	n := max(x.BlockAfter-1, 1)
	ids, err := x.History.RepeatedFailures(x.Session, a.Canonical, x.Cwd, n)
	if err != nil || len(ids) < n {
		return hits
	}
	r := e.Rule(ruleLoopBrake.ID)
	if r == nil {
		r = ruleLoopBrake
	}
	order := make([]string, len(ids))
	for i, id := range ids {
		order[len(ids)-1-i] = id
	}
	span := fmt.Sprintf("failed %d times in a row (%s): %s", len(ids), strings.Join(order, ", "), a.Canonical)
	return append(hits, e.hit(r, span, parse.Pos{Line: 1, Col: 1}))
}
