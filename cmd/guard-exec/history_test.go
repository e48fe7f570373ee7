package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/guard-exec/guard-exec/internal/worktree"
	"github.com/guard-exec/guard-exec/ledger"
	"github.com/guard-exec/guard-exec/parse"
	"github.com/guard-exec/guard-exec/policy"
)

// brakeWorld is a project with a ledger in which steps are played as if
// guard-exec had run them, with real times, so the file-change check runs
// against the real file clock.
type brakeWorld struct {
	t       *testing.T
	project string
	led     *ledger.Ledger
}

func newBrakeWorld(t *testing.T) *brakeWorld {
	t.Helper()
	project := t.TempDir()
	for _, f := range []string{"go.mod", "main.go", "pkg/x.go", "sub/README"} {
		p := filepath.Join(project, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	led, err := ledger.Open(filepath.Join(project, ".guard-exec"), ledger.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &brakeWorld{t: t, project: project, led: led}
}

// A step is one thing that happened in the session.
type step struct {
	cmd      string // a command that ran (canonicalised as the guard does)
	exit     int    // its status; -1: no exit record (interrupted)
	session  string // default s1
	cwd      string // relative to the project; default the project
	signal   string
	timedOut bool
	parent   string // set: run by a nested guard
	writes   string // a file the command writes while it runs
	edit     string // instead of a command: a file edited after the last record
	held     bool   // instead of a command: a held decision
}

func (w *brakeWorld) dir(rel string) string { return filepath.Join(w.project, rel) }

func (w *brakeWorld) play(s step) {
	w.t.Helper()
	if s.edit != "" {
		w.editAfterLast(s.edit)
		return
	}
	sess := s.session
	if sess == "" {
		sess = "s1"
	}
	a := parse.Analyze(s.cmd, parse.Options{Dir: w.dir(s.cwd)})
	rec := &ledger.Record{Kind: ledger.KindExec, Session: sess, Cwd: w.dir(s.cwd), Command: a.Canonical,
		Raw: s.cmd, Verdict: "allow", Parent: s.parent}
	if s.held {
		rec.Kind, rec.Verdict = ledger.KindDecision, "hold"
	}
	id, err := w.led.Append(rec)
	if err != nil {
		w.t.Fatal(err)
	}
	if s.held || s.exit < 0 {
		return
	}
	if s.writes != "" {
		if err := os.WriteFile(w.dir(s.writes), []byte("report"), 0o644); err != nil {
			w.t.Fatal(err)
		}
	}
	code := s.exit
	if _, err := w.led.Append(&ledger.Record{Kind: ledger.KindExit, ID: id, Exit: &code, Signal: s.signal, TimedOut: s.timedOut}); err != nil {
		w.t.Fatal(err)
	}
}

// editAfterLast writes a file until its change time is past the newest
// record's time by the margin the brake allows, as an edit an agent makes
// after reading a failure would be, and lets the margin the brake gives a
// command's start pass before anything else happens: an agent takes
// seconds between an edit and its next command.
func (w *brakeWorld) editAfterLast(rel string) {
	w.t.Helper()
	recs, _, err := w.led.Tail(1)
	if err != nil || len(recs) == 0 {
		w.t.Fatalf("no record to edit after: %v", err)
	}
	last, _ := time.Parse(time.RFC3339Nano, recs[0].Time)
	p := w.dir(rel)
	for i := 0; i < 2000; i++ {
		if err := os.WriteFile(p, []byte(fmt.Sprint("edit ", i)), 0o644); err != nil {
			w.t.Fatal(err)
		}
		if r := worktree.ChangedSince(filepath.Dir(p), last.Add(endMargin), worktree.Options{}); r.Changed {
			time.Sleep(2 * startMargin)
			return
		}
		time.Sleep(time.Millisecond)
	}
	w.t.Fatal("the file clock does not advance")
}

// decide judges cmd as the next command of session s1 in the project.
func (w *brakeWorld) decide(cmd string, blockAfter int) *policy.Decision {
	a := parse.Analyze(cmd, parse.Options{Dir: w.project})
	x := &policy.Ctx{Cwd: w.project, Project: w.project, Session: "s1", BlockAfter: blockAfter,
		History: newLedgerHistory(w.led, w.project, []string{w.led.Dir()}, nil)}
	return policy.NewEngine(policy.Builtin()).Decide(a, x)
}

func fails(cmd string, n int) []step {
	out := make([]step, n)
	for i := range out {
		out[i] = step{cmd: cmd, exit: 1}
	}
	return out
}

func seq(parts ...[]step) []step {
	var out []step
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func one(s step) []step { return []step{s} }

func TestLoopBrakeStreaks(t *testing.T) {
	const gt = "go test ./..."
	cases := []struct {
		name  string
		steps []step
		next  string
		after int // block_after; default 3
		held  bool
	}{
		{"two failures hold the third", fails(gt, 2), gt, 0, true},
		{"one failure is not a loop", fails(gt, 1), gt, 0, false},
		{"a success resets", seq(fails(gt, 1), one(step{cmd: gt}), fails(gt, 1)), gt, 0, false},
		{"an edit resets", seq(fails(gt, 2), one(step{edit: "pkg/x.go"})), gt, 0, false},
		{"a new file resets", seq(fails(gt, 2), one(step{edit: "pkg/new_test.go"})), gt, 0, false},
		{"failures after an edit count again", seq(fails(gt, 1), one(step{edit: "main.go"}), fails(gt, 2)), gt, 0, true},
		{"an edit between the failures resets", seq(fails(gt, 1), one(step{edit: "main.go"}), fails(gt, 1)), gt, 0, false},
		{"the command's own writes are no change", seq(fails(gt, 1), one(step{cmd: gt, exit: 1, writes: "report.xml"})), gt, 0, true},
		{"another directory is another fingerprint", seq(fails(gt, 1), one(step{cmd: gt, exit: 1, cwd: "sub"})), gt, 0, false},
		{"another session is another streak", seq(one(step{cmd: gt, exit: 1, session: "s2"}), one(step{cmd: gt, exit: 1, session: "s2"})), gt, 0, false},
		{"whitespace and quoting do not matter", seq(one(step{cmd: "go  test ./...", exit: 1}), one(step{cmd: "go test './...'", exit: 1})), `go test "./..."`, 0, true},
		{"the words do", fails("go test ./pkg/...", 2), gt, 0, false},
		{"block_after 0 turns the brake off", fails(gt, 5), gt, -1, false},
		{"block_after 2 holds the second", fails(gt, 1), gt, 2, true},
		{"block_after 4 waits for three", fails(gt, 2), gt, 4, false},
		{"block_after 4 holds the fourth", fails(gt, 3), gt, 4, true},
		{"reading in between is no change", seq(fails(gt, 1), one(step{cmd: "cat main.go"}), one(step{cmd: "grep -n x pkg/x.go"}), fails(gt, 1)), gt, 0, true},
		{"an install in between resets", seq(fails(gt, 1), one(step{cmd: "go get example.com/m@v1"}), fails(gt, 1)), gt, 0, false},
		{"an install after the last failure resets", seq(fails(gt, 2), one(step{cmd: "sudo apt-get install -y jq"})), gt, 0, false},
		{"a failed install changes nothing", seq(fails(gt, 1), one(step{cmd: "npm install left-pad", exit: 1}), fails(gt, 1)), gt, 0, true},
		{"an interrupted attempt does not count", seq(fails(gt, 1), one(step{cmd: gt, exit: -1})), gt, 0, false},
		{"nor does it reset", seq(fails(gt, 1), one(step{cmd: gt, exit: -1}), fails(gt, 1)), gt, 0, true},
		{"a person's Ctrl-C is no failure", seq(fails(gt, 1), one(step{cmd: gt, exit: 130, signal: "SIGINT"})), gt, 0, false},
		{"a timeout is a failure", seq(fails(gt, 1), one(step{cmd: gt, exit: 137, signal: "SIGKILL", timedOut: true})), gt, 0, true},
		{"a nested guard's commands are not the session's", seq(one(step{cmd: gt, exit: 1, parent: "ev-0001"}), one(step{cmd: gt, exit: 1, parent: "ev-0001"})), gt, 0, false},
		{"holds in between change nothing", seq(fails(gt, 2), one(step{cmd: gt, held: true}), one(step{cmd: gt, held: true})), gt, 0, true},
		{"a failure beyond the lookback is forgotten", seq(fails(gt, 1), repeat(step{cmd: "ls"}, loopLookback), fails(gt, 1)), gt, 0, false},
		{"other sessions do not push a failure out", seq(fails(gt, 1), repeat(step{cmd: "ls", session: "s2"}, loopLookback), fails(gt, 1)), gt, 0, true},
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			w := newBrakeWorld(t)
			for _, s := range c.steps {
				w.play(s)
			}
			after := c.after
			if after == 0 {
				after = 3
			} else if after < 0 {
				after = 0
			}
			d := w.decide(c.next, after)
			held := false
			for _, h := range d.Hits {
				held = held || h.Rule.ID == "loop-brake"
			}
			if held != c.held {
				t.Fatalf("held=%v, want %v (verdict %s)", held, c.held, d.Verdict)
			}
			if held && d.Verdict != policy.Hold {
				t.Fatalf("verdict %s", d.Verdict)
			}
		})
	}
}

func repeat(s step, n int) []step {
	out := make([]step, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// TestLoopBrakeUnknownTree: when the change check cannot look at the whole
// project, the brake lets the command run.
func TestLoopBrakeUnknownTree(t *testing.T) {
	w := newBrakeWorld(t)
	for _, s := range fails("make", 2) {
		w.play(s)
	}
	h := newLedgerHistory(w.led, filepath.Join(w.project, "missing"), nil, nil)
	ids, err := h.RepeatedFailures("s1", "make", w.project, 2)
	if err != nil || ids != nil {
		t.Fatalf("ids %v err %v", ids, err)
	}
	h.project = w.project
	if ids, _ := h.RepeatedFailures("s1", "make", w.project, 2); len(ids) != 2 {
		t.Fatalf("ids %v", ids)
	}
}
