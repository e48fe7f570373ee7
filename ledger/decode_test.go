package ledger

import (
	"encoding/json"
	"reflect"
	"testing"
)

// Every record Append writes takes the fast path; the fallback is for
// lines written by someone else.
func TestDecodeFastTakesOwnRecords(t *testing.T) {
	code := 2
	recs := []*Record{
		{Kind: KindHeader, Time: "2026-03-14T15:09:26.000Z", Schema: 1, LastID: "ev-0009", Prev: "p"},
		{Kind: KindExec, ID: "ev-0010", Time: "t", Session: "s", Cwd: "/c", Project: "/p", Mode: "shell", IO: "pty",
			Command: "a > b && c \"d\" \\ é\t\n", Raw: "r", Verdict: "warn", Enforce: "advise",
			Rules: []Hit{{ID: "x", Severity: "warn", Message: "m", Span: "s", Pos: "1:2"}}, EnvRemoved: []string{"BASH_ENV"},
			Parent: "ev-0003", PID: 77, Prev: "p"},
		{Kind: KindExit, ID: "ev-0010", Time: "t", Exit: &code, Signal: "SIGKILL", DurationMS: 0.25,
			Stdout: &StreamInfo{Bytes: 9, SHA256: "h"}, Stderr: &StreamInfo{}, Digest: "d", TimedOut: true, Incomplete: true,
			Cast: "casts/ev-0010.cast", Stamp: "st", Prev: "p"},
		{Kind: KindApproval, ID: "ev-0011", Time: "t", Ref: "ev-0010", Expires: "e", Prev: "p"},
	}
	for _, r := range recs {
		ln, err := encode(r)
		if err != nil {
			t.Fatal(err)
		}
		ln = ln[:len(ln)-1]
		var fast, std Record
		if !decodeFast(ln, &fast) {
			t.Errorf("fast decoder refused its own %s record: %s", r.Kind, ln)
			continue
		}
		if err := json.Unmarshal(ln, &std); err != nil || !reflect.DeepEqual(fast, std) || !reflect.DeepEqual(fast, *r) {
			t.Errorf("%s record decoded differently: %v\nfast %+v\n std %+v", r.Kind, err, fast, std)
		}
	}
}
