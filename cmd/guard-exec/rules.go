package main

import (
	"context"

	"github.com/guard-exec/guard-exec/shim"
)

// ruleView is a rule as `guard-exec rules --json` lists it.
type ruleView struct {
	ID          string   `json:"id"`
	Family      string   `json:"family"`
	Severity    string   `json:"severity"`
	Message     string   `json:"message"`
	Hint        string   `json:"hint"`
	Examples    []string `json:"examples"`
	NotExamples []string `json:"not_examples"`
}

// runRules lists the rules in effect.
func runRules(_ context.Context, g *guard, args []string) error {
	fs := g.flags("rules")
	asJSON := fs.Bool("json", false, "list the rules as JSON Lines")
	if err := g.parseFlags(fs, args); err != nil {
		return err
	}
	e := g.policyEngine()
	if *asJSON {
		enc := newJSONEncoder(g.st.out)
		for _, r := range e.Rules() {
			v := ruleView{ID: r.ID, Family: r.Family, Severity: e.SeverityOf(r).String(), Message: r.Message,
				Hint: r.Hint, Examples: r.Examples, NotExamples: r.NotExamples}
			if err := enc.Encode(v); err != nil {
				return err
			}
		}
		return nil
	}
	// At a terminal (or with COLUMNS) the table fits its width, each
	// message cut to the room left; into a pipe the messages are whole.
	width := 1 << 20
	if shim.IsTerminal(g.st.out) || g.vars["COLUMNS"] != "" {
		width = g.termWidth()
	}
	t := newTable(g.st.out, width, "ID", "FAMILY", "SEVERITY", "MESSAGE")
	for _, r := range e.Rules() {
		t.add(r.ID, r.Family, e.SeverityOf(r).String(), r.Message)
	}
	t.flush()
	return nil
}
