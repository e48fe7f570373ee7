package main

import (
	"context"
	"fmt"
	"text/tabwriter"
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
	tw := tabwriter.NewWriter(g.st.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tFAMILY\tSEVERITY\tMESSAGE")
	for _, r := range e.Rules() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Family, e.SeverityOf(r), r.Message)
	}
	return tw.Flush()
}
