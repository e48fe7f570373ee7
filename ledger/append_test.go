package ledger

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestAppendFormat(t *testing.T) {
	l := newLedger(t, Options{})
	id := mustAppend(t, l, &Record{Kind: KindExec, Command: "echo a > b", Cwd: "/src", Verdict: "allow"})
	if id != "ev-0001" {
		t.Fatalf("first id = %q, want ev-0001", id)
	}
	code := 3
	mustAppend(t, l, &Record{Kind: KindExit, ID: id, Exit: &code, DurationMS: 12.5})
	lines := strings.Split(strings.TrimSuffix(readFile(t, l.path(activeName)), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d lines, want header, exec, exit:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	want := []string{
		`{"kind":"header","time":"2026-03-14T15:09:26.001Z","schema":1,"prev":""}`,
		`{"kind":"exec","id":"ev-0001","time":"2026-03-14T15:09:26.001Z","cwd":"/src","command":"echo a > b","verdict":"allow","prev":"` + hashLine([]byte(lines[0])) + `"}`,
		`{"kind":"exit","id":"ev-0001","time":"2026-03-14T15:09:26.002Z","exit":3,"duration_ms":12.5,"prev":"` + hashLine([]byte(lines[1])) + `"}`,
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, lines[i], want[i])
		}
	}
}

func TestAppendIDs(t *testing.T) {
	l := newLedger(t, Options{})
	a := pair(t, l, "a", 0)
	d := mustAppend(t, l, &Record{Kind: KindDecision, Command: "rm -rf /", Verdict: "deny"})
	ap := mustAppend(t, l, &Record{Kind: KindApproval, Ref: d})
	b := pair(t, l, "b", 1)
	got := []string{a, d, ap, b}
	want := []string{"ev-0001", "ev-0002", "ev-0003", "ev-0004"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("id %d = %s, want %s", i, got[i], want[i])
		}
	}
	// An exit appended after later execs (a long command) keeps its id and
	// does not move the sequence back.
	long := mustAppend(t, l, &Record{Kind: KindExec, Command: "sleep 60"})
	next := pair(t, l, "c", 0)
	mustAppend(t, l, &Record{Kind: KindExit, ID: long})
	if after := pair(t, l, "d", 0); long != "ev-0005" || next != "ev-0006" || after != "ev-0007" {
		t.Errorf("ids %s %s %s, want ev-0005 ev-0006 ev-0007", long, next, after)
	}
	if rep := mustVerify(t, l); !rep.OK {
		t.Errorf("verify: %v", rep.Problems)
	}
}

func TestIDsWiden(t *testing.T) {
	if got := FormatID(10000); got != "ev-10000" {
		t.Errorf("FormatID(10000) = %s", got)
	}
	for id, want := range map[string]int64{"ev-0001": 1, "ev-9999": 9999, "ev-10000": 10000, "ev-1": 1} {
		if n, ok := ParseID(id); !ok || n != want {
			t.Errorf("ParseID(%q) = %d, %v", id, n, ok)
		}
	}
	for _, bad := range []string{"", "ev-", "ev-0000", "ev-12a", "EV-0001", "ev--1", "ev-99999999999999999999"} {
		if _, ok := ParseID(bad); ok {
			t.Errorf("ParseID(%q) accepted", bad)
		}
	}
	l := newLedger(t, Options{})
	// A header that continues from ev-9999, as after a rotation.
	writeFile(t, l.path(lockName), "")
	writeFile(t, l.path(activeName), `{"kind":"header","time":"t","schema":1,"last_id":"ev-9999","prev":"x"}`+"\n")
	if id := mustAppend(t, l, &Record{Kind: KindExec}); id != "ev-10000" {
		t.Errorf("id after ev-9999 = %s", id)
	}
	if id := mustAppend(t, l, &Record{Kind: KindExec}); id != "ev-10001" {
		t.Errorf("id after ev-10000 = %s", id)
	}
}

func TestAppendRedacts(t *testing.T) {
	secret := "s3cr3t-" + "v4lue-xyz"
	l := newLedger(t, Options{Secrets: []string{secret}})
	r := &Record{
		Kind:    KindExec,
		Command: "PGPASSWORD=hunter2a psql -c 'select 1'",
		Raw:     "curl -H 'Authorization: Bearer abc.def-123456' https://x",
		Rules:   []Hit{{ID: "r", Severity: "warn", Span: "echo " + secret}},
	}
	orig := *r
	id := mustAppend(t, l, r)
	if r.Command != orig.Command || r.ID != "" || r.Prev != "" {
		t.Error("Append changed the caller's record")
	}
	mustAppend(t, l, &Record{Kind: KindExit, ID: id, Digest: "token is " + secret + "\n"})
	text := readFile(t, l.path(activeName))
	for _, leak := range []string{"hunter2a", "abc.def-123456", secret} {
		if strings.Contains(text, leak) {
			t.Errorf("ledger holds %q:\n%s", leak, text)
		}
	}
	for _, marker := range []string{"PGPASSWORD=[REDACTED:password]", "Bearer [REDACTED:authorization]", "echo [REDACTED:env]", "token is [REDACTED:env]"} {
		if !strings.Contains(text, marker) {
			t.Errorf("ledger lacks %q:\n%s", marker, text)
		}
	}
}

func TestAppendBounds(t *testing.T) {
	l := newLedger(t, Options{})
	big := strings.Repeat("x", 1<<20) // an agent writing a file through a heredoc
	id1 := mustAppend(t, l, &Record{Kind: KindExec, Command: big + "a", Raw: big + "a"})
	id2 := mustAppend(t, l, &Record{Kind: KindExec, Command: big + "b", Raw: big + "b"})
	recs, probs, err := l.Tail(2)
	if err != nil || len(probs) > 0 || len(recs) != 2 {
		t.Fatalf("Tail: %v %v %d records", err, probs, len(recs))
	}
	for _, r := range recs {
		if len(r.Command) > maxText+100 || !strings.Contains(r.Command, "…[truncated ") {
			t.Errorf("%s: command of %d bytes not bounded", r.ID, len(r.Command))
		}
	}
	if recs[0].Command == recs[1].Command {
		t.Errorf("%s and %s: long commands that differ at the end stored alike", id1, id2)
	}
	// The worst case for escaping: control bytes turn into \u00XX.
	ctl := strings.Repeat("\x01", 1<<20)
	hits := make([]Hit, 100)
	for i := range hits {
		hits[i] = Hit{ID: "r", Severity: "hold", Message: ctl, Span: ctl}
	}
	mustAppend(t, l, &Record{Kind: KindExec, Command: ctl, Raw: ctl, Digest: ctl, Cwd: ctl, Rules: hits})
	if rep := mustVerify(t, l); !rep.OK || rep.Records != 3 {
		t.Errorf("verify after bounded records: %+v", rep)
	}
}

func TestAppendRejects(t *testing.T) {
	l := newLedger(t, Options{})
	for _, r := range []*Record{
		{Kind: KindExit},
		{Kind: KindHeader},
		{Kind: "bogus"},
		{Kind: KindExec, ID: "42"},
	} {
		if _, err := l.Append(r); err == nil {
			t.Errorf("Append(%+v) accepted", *r)
		}
	}
}

// A file ending in half a record, from a writer that died: the next append
// isolates it on its own line, never truncates it, and continues the ids
// and the chain over the valid records.
func TestAppendIsolatesTornLine(t *testing.T) {
	l := newLedger(t, Options{})
	pair(t, l, "a", 0)
	torn := `{"kind":"exec","id":"ev-0002","time":"2026-03-14T15:09:26.003Z","comm`
	f, err := os.OpenFile(l.path(activeName), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(torn)
	f.Close()

	if id := mustAppend(t, l, &Record{Kind: KindExec, Command: "b"}); id != "ev-0002" {
		t.Errorf("id after torn line = %s, want ev-0002", id)
	}
	lines := strings.Split(readFile(t, l.path(activeName)), "\n")
	if lines[3] != torn {
		t.Errorf("torn line not kept on its own line: %q", lines[3])
	}
	var rec Record
	if err := json.Unmarshal([]byte(lines[4]), &rec); err != nil || rec.Prev != hashLine([]byte(lines[2])) {
		t.Errorf("record after torn line: prev %q, want hash of line 3 (%v)", rec.Prev, err)
	}
	rep := mustVerify(t, l)
	if rep.OK || !rep.ChainIntact() || len(rep.Problems) != 1 || rep.Problems[0].Line != 4 {
		t.Errorf("verify: want one unreadable line at 4, got %+v", rep.Problems)
	}
}

// A complete record whose newline was never written is a record: the next
// append adds the newline and chains onto it.
func TestAppendAfterMissingNewline(t *testing.T) {
	l := newLedger(t, Options{})
	pair(t, l, "a", 0)
	text := readFile(t, l.path(activeName))
	writeFile(t, l.path(activeName), strings.TrimSuffix(text, "\n"))
	pair(t, l, "b", 0)
	if rep := mustVerify(t, l); !rep.OK {
		t.Errorf("verify: %v", rep.Problems)
	}
}

func TestAppendDurable(t *testing.T) {
	l := newLedger(t, Options{Durable: true, MaxBytes: 300})
	for i := 0; i < 5; i++ {
		pair(t, l, "x", 0)
	}
	if rep := mustVerify(t, l); !rep.OK {
		t.Errorf("verify: %v", rep.Problems)
	}
}

// TestAppendAfterOtherWriters: a Ledger remembers where its last append
// left the segment, so the exit record after an exec record need not read
// the tip again; an append of another process in between (here another
// Ledger on the same directory), and a rotation by it, must still be found:
// ids go on after the other writer's and the chain runs through its lines.
func TestAppendAfterOtherWriters(t *testing.T) {
	for _, c := range []struct {
		name string
		opts Options
	}{
		{"append", Options{}},
		{"rotation", Options{MaxBytes: 1, Keep: 10}}, // every append rotates first
	} {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Now = clock()
			l := newLedger(t, c.opts)
			other, err := Open(l.dir, l.opts)
			if err != nil {
				t.Fatal(err)
			}
			code := 0
			var got []string
			a := mustAppend(t, l, &Record{Kind: KindExec, Command: "a"})
			got = append(got, a, mustAppend(t, other, &Record{Kind: KindExec, Command: "b"}))
			mustAppend(t, l, &Record{Kind: KindExit, ID: a, Exit: &code})
			got = append(got, mustAppend(t, other, &Record{Kind: KindExec, Command: "c"}))
			got = append(got, mustAppend(t, l, &Record{Kind: KindExec, Command: "d"}))
			want := []string{"ev-0001", "ev-0002", "ev-0003", "ev-0004"}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("ids %v, want %v", got, want)
			}
			if rep := mustVerify(t, l); !rep.OK || rep.Records != 5 {
				t.Errorf("verify: %+v", rep)
			}
		})
	}
}
