package main

import (
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/ledger"
)

// TestShellRecorderKeepsTheStory: the recorder of a sandboxed shell
// appends only what continues the story its hook tells (recorder.go):
// whatever a process in the shell sends, an approval is of a hold this
// shell recorded and carries that hold's command, a run follows such an
// approval, an exit ends such a run once, and no approval it writes has
// the MAC that would let a command elsewhere run.
func TestShellRecorderKeepsTheStory(t *testing.T) {
	led, err := ledger.Open(t.TempDir(), ledger.Options{Key: []byte("0123456789abcdef0123456789abcdef")})
	if err != nil {
		t.Fatal(err)
	}
	b := &shellBook{led: led, mine: map[string]bool{}, held: map[string]shellLine{},
		approvals: map[string]shellLine{}, open: map[string]bool{}}
	add := func(r ledger.Record) (string, error) { return b.append(&r, "write") }
	must := func(r ledger.Record) string {
		t.Helper()
		id, err := add(r)
		if err != nil {
			t.Fatalf("%s refused: %v", r.Kind, err)
		}
		return id
	}
	refused := func(what string, r ledger.Record) {
		t.Helper()
		if id, err := add(r); err == nil {
			t.Errorf("%s: recorded as %s", what, id)
		}
	}

	allowed := must(ledger.Record{Kind: ledger.KindDecision, Verdict: "allow", Command: "ls"})
	hold := must(ledger.Record{Kind: ledger.KindDecision, Verdict: "hold", Command: "git push --force", ID: "ev-9999", Ref: "ev-1"})
	if hold == "ev-9999" {
		t.Error("a decision kept the id its sender gave it")
	}
	refused("approval of an allowed line", ledger.Record{Kind: ledger.KindApproval, Ref: allowed, Command: "ls"})
	refused("approval of an unknown id", ledger.Record{Kind: ledger.KindApproval, Ref: "ev-4242"})
	refused("run without an approval", ledger.Record{Kind: ledger.KindExec, Ref: hold, Command: "git push --force"})
	appr := must(ledger.Record{Kind: ledger.KindApproval, Ref: hold, Command: "rm -rf ~", Auth: "forged", Expires: "2999-01-01T00:00:00Z", Mode: "tty"})
	refused("a second approval of the same hold", ledger.Record{Kind: ledger.KindApproval, Ref: hold})
	refused("exit of a run not started", ledger.Record{Kind: ledger.KindExit, ID: appr})
	run := must(ledger.Record{Kind: ledger.KindExec, Ref: appr, Command: "rm -rf ~"})
	refused("a second run of one approval", ledger.Record{Kind: ledger.KindExec, Ref: appr})
	code := 3
	must(ledger.Record{Kind: ledger.KindExit, ID: run, Exit: &code})
	refused("a second exit", ledger.Record{Kind: ledger.KindExit, ID: run, Exit: &code})
	refused("a header", ledger.Record{Kind: ledger.KindHeader})

	recs, _, err := led.Tail(20)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		switch {
		case r.Kind == ledger.KindApproval && (r.Auth != "" || r.Expires != ""):
			t.Errorf("the approval kept its sender's MAC or expiry: %+v", r)
		case (r.Kind == ledger.KindApproval || r.Kind == ledger.KindExec) && r.Command != "git push --force":
			t.Errorf("%s %s records %q, not the held line", r.Kind, r.ID, r.Command)
		case r.Kind == ledger.KindExec && r.Sandbox != "write":
			t.Errorf("the run does not say it ran sandboxed: %+v", r)
		case strings.Contains(r.Command, "rm -rf"):
			t.Errorf("a command the sender named was recorded: %+v", r)
		}
	}
	if rep, err := led.Verify(); err != nil || !rep.OK {
		t.Errorf("verify: %+v %v", rep, err)
	}
}
