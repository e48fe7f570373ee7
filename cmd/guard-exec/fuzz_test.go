package main

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/guard-exec/guard-exec/internal/corpus"
	"github.com/guard-exec/guard-exec/parse"
	"github.com/guard-exec/guard-exec/policy"
)

// FuzzCheck is the whole check path — analysis, every rule, the project and
// boundary context — on any input: it never panics, and a script and its
// canonical reprint (the loop brake's fingerprint, what the ledger records)
// get the same verdict, so spelling cannot move a command across a verdict.
// parse's FuzzAnalyze holds the facts to the same property; this holds the
// verdict. Seeded from the corpora.
func FuzzCheck(f *testing.F) {
	texts, _, err := corpus.Commands(filepath.Join("..", ".."))
	if err != nil {
		f.Fatal(err)
	}
	// A sample of the corpora: the fuzzing engine runs every seed once
	// before it fuzzes, and all 2,000 lines would take CI's whole budget.
	step := max(1, len(texts)/maxSeeds)
	for i := 0; i < len(texts); i += step {
		f.Add(texts[i])
	}
	g, dir := fuzzGuard(f)
	f.Fuzz(func(t *testing.T, src string) {
		start := time.Now()
		a := g.analyze(src, parse.Bash, nil, dir)
		d := g.policyEngine().Decide(a, g.decisionCtx(dir))
		if el := time.Since(start); el > slowCheck {
			// Not a timing assertion on a normal input: a check that takes
			// seconds is a hang for every agent command behind it.
			t.Fatalf("check took %v for %d bytes: %.200q", el, len(src), src)
		}
		if a.Err != nil {
			if a.Err.Kind == parse.ErrPanic {
				t.Fatalf("analysis panicked: %v", a.Err)
			}
			if d.Verdict < policy.Warn {
				t.Fatalf("%q does not parse (%v) and is allowed silently", src, a.Err)
			}
			return
		}
		if a.Canonical == src {
			return
		}
		again := g.decide(a.Canonical, dir)
		if again.Verdict != d.Verdict {
			t.Fatalf("verdict %s for %q, %s for its canonical form %q\nfirst: %s\nthen:  %s",
				d.Verdict, src, again.Verdict, a.Canonical, ruleIDs(d), ruleIDs(again))
		}
	})
}

const maxSeeds = 500

// slowCheck is far beyond any sane check (≤ 50 µs) and beyond the noise of a
// loaded machine.
const slowCheck = 5 * time.Second

func ruleIDs(d *policy.Decision) []string {
	var ids []string
	for _, h := range d.Hits {
		ids = append(ids, h.Rule.ID)
	}
	return ids
}

func fuzzGuard(f *testing.F) (*guard, string) {
	g, dir := newCheckGuard(f.TempDir())
	if g == nil {
		f.Fatal("cannot set up the check world")
	}
	return g, dir
}
