package policy

import (
	"testing"

	"github.com/guard-exec/guard-exec/parse"
)

// TestRulePanicHolds: a rule that panics holds the command with
// analysis-failed instead of crashing the guard.
func TestRulePanicHolds(t *testing.T) {
	boom := &Rule{ID: "boom", Family: "test", Severity: Warn, Programs: []string{"ls"},
		Command: func(*Ctx, *parse.Command) bool { panic("index out of range") }}
	e := NewEngine([]*Rule{boom, ruleAnalysisFailed})
	d := e.Decide(parse.Analyze("ls -l", parse.Options{}), &Ctx{})
	if d.Verdict != Hold || len(d.Hits) != 1 || d.Hits[0].Rule.ID != "analysis-failed" {
		t.Fatalf("verdict %s, hits %v", d.Verdict, d.Hits)
	}
	e.Mode = Advise
	if d := e.Decide(parse.Analyze("ls -l", parse.Options{}), &Ctx{}); d.Verdict != Warn || d.Severity != Hold {
		t.Fatalf("advise: verdict %s severity %s", d.Verdict, d.Severity)
	}
}
