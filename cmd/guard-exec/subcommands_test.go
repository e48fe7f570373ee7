package main

import (
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/parse"
)

// TestAnalysisKnowsSubcommands keeps the analysis's list of guard-exec's
// own words in step with the program's: `guard-exec WORD` is the
// subcommand, not a script named WORD to run.
func TestAnalysisKnowsSubcommands(t *testing.T) {
	for _, c := range commands {
		word := c.name
		a := parse.Analyze("guard-exec "+word, parse.Options{Dir: "/tmp"})
		for _, d := range a.Dynamic {
			t.Errorf("guard-exec %s: analysed as running a script (%s)", word, d.Kind)
		}
		if len(a.Commands) != 1 {
			t.Errorf("guard-exec %s: %d commands, want the one", word, len(a.Commands))
		}
	}
}

// TestEveryCommandHasHelp keeps each entry of the command table complete:
// a synopsis, a description and examples that call the command itself.
func TestEveryCommandHasHelp(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range commands {
		if seen[c.name] {
			t.Errorf("%s: listed twice", c.name)
		}
		seen[c.name] = true
		if c.summary == "" || len(c.usage) == 0 || strings.TrimSpace(c.doc) == "" || c.run == nil {
			t.Errorf("%s: the entry lacks a summary, usage, doc or run", c.name)
		}
		if !strings.Contains(c.examples, "guard-exec "+c.name) && !strings.Contains(c.examples, "guard-exec --"+c.name) {
			t.Errorf("%s: no example runs guard-exec %s", c.name, c.name)
		}
		for _, u := range c.usage {
			if !strings.HasPrefix(u, c.name) {
				t.Errorf("%s: usage line %q does not start with the command", c.name, u)
			}
		}
	}
}
