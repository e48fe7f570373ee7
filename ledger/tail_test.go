package ledger

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

func TestTail(t *testing.T) {
	l := newLedger(t, Options{})
	if recs, probs, err := l.Tail(5); err != nil || len(recs)+len(probs) != 0 {
		t.Fatalf("Tail of an empty ledger: %v %v %v", recs, probs, err)
	}
	for i := 0; i < 4; i++ {
		pair(t, l, "make", 0)
	}
	recs, probs, err := l.Tail(3)
	if err != nil || len(probs) != 0 {
		t.Fatal(err, probs)
	}
	got := []string{}
	for _, r := range recs {
		got = append(got, string(r.Kind)+" "+r.ID)
	}
	if want := "exit ev-0003,exec ev-0004,exit ev-0004"; strings.Join(got, ",") != want {
		t.Errorf("Tail(3) = %v, want %s", got, want)
	}
	if recs, _, _ := l.Tail(100); len(recs) != 8 {
		t.Errorf("Tail(100) returned %d records, want all 8 (no header)", len(recs))
	}
}

func TestTailSkipsGarbage(t *testing.T) {
	l := newLedger(t, Options{})
	pair(t, l, "a", 0)
	f, _ := os.OpenFile(l.path(activeName), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("garbage\n\n")
	f.Close()
	pair(t, l, "b", 0)
	recs, probs, err := l.Tail(10)
	if err != nil || len(recs) != 4 || len(probs) != 2 {
		t.Fatalf("got %d records, problems %v, %v", len(recs), probs, err)
	}
	for _, p := range probs {
		if p.File != activeName || p.Offset == 0 || !p.Unreadable {
			t.Errorf("problem %+v", p)
		}
	}
}

// A 10 MB line without a newline (a runaway writer, or garbage) is never
// loaded whole: readers skip it with a problem, and appends go on.
func TestHugeLine(t *testing.T) {
	l := newLedger(t, Options{MaxBytes: 64 << 20})
	first := pair(t, l, "a", 0)
	f, _ := os.OpenFile(l.path(activeName), os.O_WRONLY|os.O_APPEND, 0)
	f.Write(bytes.Repeat([]byte("z"), 10<<20))
	f.Close()

	recs, probs, err := l.Tail(10)
	if err != nil || len(recs) != 2 || len(probs) != 1 || !strings.Contains(probs[0].Msg, "over the 1 MiB limit") {
		t.Fatalf("Tail: %d records, %v, %v", len(recs), probs, err)
	}
	next := pair(t, l, "b", 0)
	if first != "ev-0001" || next != "ev-0002" {
		t.Errorf("ids %s, %s", first, next)
	}
	recs, probs, _ = l.Tail(3)
	if len(recs) != 3 || recs[2].ID != next || len(probs) != 1 {
		t.Errorf("Tail after: %d records, %v", len(recs), probs)
	}
	rep := mustVerify(t, l)
	if rep.OK || !rep.ChainIntact() || len(rep.Problems) != 1 || rep.Records != 4 {
		t.Errorf("verify: %d records, %v", rep.Records, rep.Problems)
	}
}

func TestFind(t *testing.T) {
	l := newLedger(t, Options{})
	a := pair(t, l, "a", 1)
	d := mustAppend(t, l, &Record{Kind: KindDecision, Command: "git push -f", Verdict: "hold"})
	pair(t, l, "b", 0)
	mustAppend(t, l, &Record{Kind: KindApproval, Ref: d})
	pair(t, l, "c", 0)

	recs, err := l.Find(a)
	if err != nil || len(recs) != 2 || recs[0].Kind != KindExec || recs[1].Kind != KindExit {
		t.Errorf("Find(%s) = %v, %v", a, recs, err)
	}
	recs, err = l.Find(d)
	if err != nil || len(recs) != 2 || recs[0].Kind != KindDecision || recs[1].Kind != KindApproval {
		t.Errorf("Find(%s) = %v, %v", d, recs, err)
	}
	for _, id := range []string{"ev-0099", "ev-0000"} {
		if _, err := l.Find(id); err == nil {
			t.Errorf("Find(%s) found something", id)
		}
	}
	if _, err := l.Find("ev-0099"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Find of a missing id: %v, want ErrNotFound", err)
	}
}

// Runs finds the exec records an approval let run, however far after it,
// and nothing of other approvals or from before it.
func TestRuns(t *testing.T) {
	l := newLedger(t, Options{})
	d := mustAppend(t, l, &Record{Kind: KindDecision, Command: "git push -f", Verdict: "hold"})
	// A record older than the approval naming it (forged, ids are
	// predictable) is no run of it: runs come after their approval.
	before := mustAppend(t, l, &Record{Kind: KindExec, Command: "x", Ref: "ev-0003"})
	a := mustAppend(t, l, &Record{Kind: KindApproval, Ref: d})
	if a != "ev-0003" {
		t.Fatalf("the approval is %s, want ev-0003", a)
	}
	other := mustAppend(t, l, &Record{Kind: KindApproval, Ref: d})
	for i := 0; i < 100; i++ { // more than any fixed window
		pair(t, l, "filler", 0)
	}
	run := mustAppend(t, l, &Record{Kind: KindExec, Command: "git push -f", Ref: a})
	mustAppend(t, l, &Record{Kind: KindExec, Command: "y", Ref: other})
	runs, err := l.Runs(a)
	if err != nil || len(runs) != 1 || runs[0].ID != run {
		t.Fatalf("Runs(%s) = %v, %v; want just %s (not %s, before it)", a, runs, err, run, before)
	}
	if _, err := l.Runs("nonsense"); err == nil {
		t.Error("Runs of a malformed id: no error")
	}
}

// Find gives up after a bounded read and says so, rather than reading a
// huge ledger to its start.
func TestFindBounded(t *testing.T) {
	l := newLedger(t, Options{MaxBytes: 1 << 30})
	id := pair(t, l, "old", 0)
	f, _ := os.OpenFile(l.path(activeName), os.O_WRONLY|os.O_APPEND, 0)
	line := append(bytes.Repeat([]byte("z"), 4096), '\n')
	for i := 0; i < (findLimit+(1<<20))/len(line); i++ {
		f.Write(line)
	}
	f.Close()
	pair(t, l, "new", 0)
	_, err := l.Find(id)
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "not in the last 16 MiB") {
		t.Errorf("Find beyond the bound: %v", err)
	}
}
