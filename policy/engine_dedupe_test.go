package policy

import (
	"slices"
	"testing"
)

// TestDedupeRules: one rule per id, in the order ids first appear, the
// last rule of an id in its place, whether or not a prefix is declared
// distinct.
func TestDedupeRules(t *testing.T) {
	r := func(id string, sev Severity) *Rule { return &Rule{ID: id, Severity: sev} }
	a1, b1, c1 := r("a", Warn), r("b", Warn), r("c", Warn)
	a2, c2, d2, a3 := r("a", Hold), r("c", Deny), r("d", Warn), r("a", Deny)
	for _, tc := range []struct {
		rules  []*Rule
		unique int
		want   []*Rule
	}{
		{[]*Rule{a1, b1, c1}, 3, []*Rule{a1, b1, c1}},
		{[]*Rule{a1, b1, c1}, 0, []*Rule{a1, b1, c1}},
		{[]*Rule{a1, b1, c1, c2, d2, a2}, 3, []*Rule{a2, b1, c2, d2}},
		{[]*Rule{a1, b1, c1, c2, d2, a2}, 0, []*Rule{a2, b1, c2, d2}},
		{[]*Rule{a1, b1, c1, a2, a3}, 3, []*Rule{a3, b1, c1}},
		{[]*Rule{d2, a2, a3}, 0, []*Rule{d2, a3}},
	} {
		if got := dedupeRules(tc.rules, tc.unique); !slices.Equal(got, tc.want) {
			t.Errorf("dedupeRules(%v, %d) = %v, want %v", ids(tc.rules), tc.unique, ids(got), ids(tc.want))
		}
	}
}

// TestEngineConfiguredSeverity: a configured severity applies to the rule
// it names, an unknown id changes nothing, and the rest keep their own.
func TestEngineConfiguredSeverity(t *testing.T) {
	cfg := DefaultConfig()
	b := Builtin()
	first, second := b[0], b[1]
	want := Warn
	if first.Severity == Warn {
		want = Deny
	}
	cfg.Severity = map[string]Severity{first.ID: want, "no-such-rule": Deny}
	e := NewEngineFromConfig(cfg)
	if got := e.SeverityOf(first); got != want {
		t.Errorf("SeverityOf(%s) = %v, want %v", first.ID, got, want)
	}
	if got := e.SeverityOf(second); got != second.Severity {
		t.Errorf("SeverityOf(%s) = %v, want its own %v", second.ID, got, second.Severity)
	}
	if e.has("no-such-rule") {
		t.Error("an unknown id joined the set")
	}
	if len(e.Rules()) != len(b) {
		t.Errorf("%d rules, want the %d built-ins", len(e.Rules()), len(b))
	}
}

func ids(rs []*Rule) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ID + "/" + r.Severity.String()
	}
	return out
}
