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

// TestWrittenThenRun: a script the line writes and then runs is judged by
// what it holds; parse follows it (written.go), so every rule sees its
// commands.
func TestWrittenThenRun(t *testing.T) {
	e := NewEngine(Builtin())
	for _, tc := range []struct {
		line string
		hold bool
	}{
		{"echo 'rm -rf /' > x.sh && bash x.sh", true},
		{"cat > run.sh <<'EOF'\ngit push --force\nEOF\nchmod +x run.sh && ./run.sh", true},
		{"printf 'mkfs.ext4 /dev/sda' > a; sh a", true},
		{"tee /tmp/c.sh <<< 'kill -9 -1' >/dev/null; source /tmp/c.sh", true},
		{"echo 'echo hi' > x.sh && bash x.sh", false},
		{"cat > x.sh <<'EOF'\nrm -rf /\nEOF", false},
		{"echo 'rm -rf /' > x.sh && cat x.sh", false},
	} {
		d := corpusDecide(e, corpusCase{command: tc.line, world: "dev"})
		if d.Verdict.Blocks() != tc.hold {
			t.Errorf("%q: got %s %v, want hold=%v", tc.line, d.Verdict, hitIDs(d), tc.hold)
		}
	}
}

// TestRunParts: run-parts DIR runs files the line does not name, code
// that cannot be known: a warning; listing them is not.
func TestRunParts(t *testing.T) {
	e := NewEngine(Builtin())
	for line, want := range map[string]Severity{
		`run-parts /tmp/d`:                  Warn,
		`run-parts --arg=x ./hooks`:         Warn,
		`run-parts --test /etc/cron.daily`:  Allow,
		`run-parts --list /etc/cron.hourly`: Allow,
	} {
		if d := corpusDecide(e, corpusCase{command: line, world: "dev"}); d.Verdict != want {
			t.Errorf("%q: got %s %v, want %s", line, d.Verdict, hitIDs(d), want)
		}
	}
}
