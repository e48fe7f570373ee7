package main

import (
	"testing"

	"github.com/guard-exec/guard-exec/parse"
)

// TestAnalysisKnowsSubcommands keeps the analysis's list of guard-exec's
// own words in step with the program's: `guard-exec WORD` is the
// subcommand, not a script named WORD to run.
func TestAnalysisKnowsSubcommands(t *testing.T) {
	for word := range subcommands {
		a := parse.Analyze("guard-exec "+word, parse.Options{Dir: "/tmp"})
		for _, d := range a.Dynamic {
			t.Errorf("guard-exec %s: analysed as running a script (%s)", word, d.Kind)
		}
		if len(a.Commands) != 1 {
			t.Errorf("guard-exec %s: %d commands, want the one", word, len(a.Commands))
		}
	}
}
