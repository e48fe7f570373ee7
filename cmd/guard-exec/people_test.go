package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/guard-exec/guard-exec/ledger"
)

func intp(n int) *int { return &n }

// TestComputeStats: holds, approvals (at a terminal, and by approve then
// retry), the loop brake, failing commands and the median.
func TestComputeStats(t *testing.T) {
	loop := []ledger.Hit{{ID: "loop-brake", Severity: "hold"}}
	push := []ledger.Hit{{ID: "git-force-push", Severity: "hold"}}
	recs := []ledger.Record{
		{Kind: ledger.KindExec, ID: "ev-0001", Command: "go test", Verdict: "allow"},
		{Kind: ledger.KindExit, ID: "ev-0001", Exit: intp(1), DurationMS: 100},
		{Kind: ledger.KindExec, ID: "ev-0002", Command: "go test", Verdict: "allow"},
		{Kind: ledger.KindExit, ID: "ev-0002", Exit: intp(1), DurationMS: 300},
		{Kind: ledger.KindDecision, ID: "ev-0003", Command: "go test", Verdict: "hold", Rules: loop},
		// held, then approved with guard-exec approve, then retried: one hold, approved
		{Kind: ledger.KindDecision, ID: "ev-0004", Command: "git push -f", Verdict: "hold", Rules: push},
		{Kind: ledger.KindApproval, ID: "ev-0005", Ref: "ev-0004", Command: "git push -f"},
		{Kind: ledger.KindExec, ID: "ev-0006", Command: "git push -f", Verdict: "hold", Rules: push, Ref: "ev-0005"},
		{Kind: ledger.KindExit, ID: "ev-0006", Exit: intp(0), DurationMS: 200},
		// approved at the terminal there and then: a hold, approved
		{Kind: ledger.KindApproval, ID: "ev-0007", Command: "git push -f", Mode: "tty"},
		{Kind: ledger.KindExec, ID: "ev-0008", Command: "git push -f", Verdict: "hold", Rules: push, Ref: "ev-0007"},
		{Kind: ledger.KindExit, ID: "ev-0008", Exit: intp(0), DurationMS: 400},
		{Kind: ledger.KindDecision, ID: "ev-0009", Command: "rm -rf /", Verdict: "deny"},
		{Kind: ledger.KindExec, ID: "ev-0010", Command: "sleep 100", Verdict: "warn"}, // interrupted
	}
	s := computeStats(recs)
	if s.Commands != 7 || s.Holds != 3 || s.Approved != 2 || s.LoopBrakes != 1 {
		t.Fatalf("commands %d holds %d approved %d loop %d", s.Commands, s.Holds, s.Approved, s.LoopBrakes)
	}
	if s.Precision == nil || *s.Precision < 0.33 || *s.Precision > 0.34 {
		t.Errorf("precision %v", s.Precision)
	}
	if s.ByVerdict["allow"] != 2 || s.ByVerdict["hold"] != 3 || s.ByVerdict["deny"] != 1 || s.ByVerdict["warn"] != 1 {
		t.Errorf("by verdict %v", s.ByVerdict)
	}
	if s.ByRule["git-force-push"] != 2 || s.ByRule["loop-brake"] != 1 {
		t.Errorf("by rule %v", s.ByRule)
	}
	if s.Ran != 4 || s.Failed != 2 || s.MedianMS == nil || *s.MedianMS != 250 {
		t.Errorf("ran %d failed %d median %v", s.Ran, s.Failed, s.MedianMS)
	}
	if len(s.Failing) != 1 || s.Failing[0] != (countedText{"go test", 2}) {
		t.Errorf("failing %v", s.Failing)
	}
	if e := computeStats(nil); e.Precision != nil || e.MedianMS != nil || e.Failing == nil {
		t.Errorf("empty: %+v", e)
	}
}

func TestRows(t *testing.T) {
	recs := []ledger.Record{
		{Kind: ledger.KindExit, ID: "ev-0001", Exit: intp(0)}, // its exec lies before the window
		{Kind: ledger.KindExec, ID: "ev-0002", Verdict: "allow"},
		{Kind: ledger.KindExit, ID: "ev-0002", Exit: intp(2), DurationMS: 1500},
		{Kind: ledger.KindExec, ID: "ev-0003", Verdict: "allow"},
		{Kind: ledger.KindDecision, ID: "ev-0004", Verdict: "deny"},
		{Kind: ledger.KindExec, ID: "ev-0005", Verdict: "allow"},
		{Kind: ledger.KindExit, ID: "ev-0005", Exit: intp(137), TimedOut: true},
	}
	got := rows(recs)
	want := []string{"2", "interrupted", "denied", "timeout"}
	if len(got) != len(want) {
		t.Fatalf("%d rows", len(got))
	}
	for i, w := range want {
		if got[i].outcome() != w {
			t.Errorf("row %s: %s, want %s", got[i].rec.ID, got[i].outcome(), w)
		}
	}
	if !got[0].failed() || got[1].failed() || !got[2].blocked() || got[0].duration() != "1.5s" {
		t.Errorf("flags: %v %v %v %s", got[0].failed(), got[1].failed(), got[2].blocked(), got[0].duration())
	}
}

func TestPlayCast(t *testing.T) {
	cast := `{"version":2,"width":80,"height":24}
[0.5,"o","a"]
[0.6,"i","typed"]
[3600.5,"o","b\r\n"]
not json
[3601.0,"r","100x40"]
[3601.5,"o","c"]
`
	var waits []time.Duration
	var out strings.Builder
	err := playCast(context.Background(), strings.NewReader(cast), &out, 2, func(_ context.Context, d time.Duration) error {
		waits = append(waits, d)
		return nil
	})
	if err != nil || out.String() != "ab\r\nc" {
		t.Fatalf("out %q err %v", out.String(), err)
	}
	want := []time.Duration{250 * time.Millisecond, maxIdle, 500 * time.Millisecond}
	if len(waits) != len(want) {
		t.Fatalf("waits %v", waits)
	}
	for i := range want {
		if waits[i] != want[i] {
			t.Errorf("wait %d: %v, want %v", i, waits[i], want[i])
		}
	}
	if err := playCast(context.Background(), strings.NewReader(`{"version":1}`), &out, 1, nil); err == nil {
		t.Error("asciicast v1 accepted")
	}
}

func TestOneLineAndDuration(t *testing.T) {
	for in, want := range map[string]string{
		"abc": "abc", "a\nb\tc": "a⏎b c", "héllo wörld": "héllo…", "\x1b[31mx": "�[31mx",
	} {
		if got := oneLine(in, 6); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
		}
	}
	for ms, want := range map[float64]string{0.4: "0ms", 12: "12ms", 1500: "1.5s", 125000: "2m05s", 7.2e6: "2h00m"} {
		if got := fmtDuration(ms); got != want {
			t.Errorf("fmtDuration(%v) = %q, want %q", ms, got, want)
		}
	}
	if got := printable("ok\x1b]0;title\x07\n\u009b2J"); got != `ok\x1b]0;title\x07`+"\n"+`\x9b2J` {
		t.Errorf("printable: %q", got)
	}
}
