package policy

import (
	"fmt"

	"github.com/guard-exec/guard-exec/parse"
)

// panicked is the decision when a rule panics: the command is held (in advise
// mode, warned about) by analysis-failed, as when the analysis itself panics.
// A bug in one rule must never crash the guard, and never let the command
// through unjudged.
func (e *Engine) panicked(a *parse.Analysis, r any) *Decision {
	msg := fmt.Sprintf("a rule panicked: %v", r)
	if len(msg) > 200 {
		msg = msg[:200]
	}
	d := &Decision{Mode: e.Mode, Severity: Hold}
	if a != nil {
		d.ParseError = a.Err
	}
	d.Hits = []Hit{e.hit(ruleAnalysisFailed, msg, parse.Pos{Line: 1, Col: 1})}
	d.Verdict = e.Mode.apply(Hold)
	return d
}
