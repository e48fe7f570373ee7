package policy

import (
	"testing"

	"github.com/guard-exec/guard-exec/parse"
)

// TestProgramTable runs every row's own examples: each Hold line must be
// held (or denied), each Allow line must not be, in the analysis
// corpus's world (/home/dev/proj, HOME=/home/dev).
func TestProgramTable(t *testing.T) {
	e := NewEngine(Builtin())
	n := 0
	for _, p := range parse.ProgramTable() {
		for _, line := range p.Hold {
			n++
			if d := corpusDecide(e, corpusCase{command: line, world: "dev"}); !d.Verdict.Blocks() {
				t.Errorf("%s: must hold, got %s %v: %q", p.Name, d.Verdict, hitIDs(d), line)
			}
		}
		for _, line := range p.Allow {
			n++
			if d := corpusDecide(e, corpusCase{command: line, world: "dev"}); d.Verdict.Blocks() {
				t.Errorf("%s: must run, got %s %v: %q", p.Name, d.Verdict, hitIDs(d), line)
			}
		}
	}
	if n < 100 {
		t.Errorf("the program table has %d examples; every row that runs code needs its own", n)
	}
}
