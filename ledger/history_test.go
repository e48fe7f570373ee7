package ledger

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// histLedger is a ledger whose clock advances one second per record.
func histLedger(t testing.TB) *Ledger {
	t.Helper()
	base := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	n := 0
	l, err := Open(t.TempDir(), Options{Now: func() time.Time {
		n++
		return base.Add(time.Duration(n) * time.Second)
	}})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// run appends one command that ran; exit < 0 leaves it without an exit
// record.
func run(t testing.TB, l *Ledger, session, cwd, cmd string, exit int, more func(exec, end *Record)) string {
	t.Helper()
	exec := &Record{Kind: KindExec, Session: session, Cwd: cwd, Command: cmd, Raw: cmd, Verdict: "allow"}
	end := &Record{Kind: KindExit, Digest: "FAIL\t\"ok\"\\ x \"session\":\"s1\" done"}
	if more != nil {
		more(exec, end)
	}
	id, err := l.Append(exec)
	if err != nil {
		t.Fatal(err)
	}
	if exit >= 0 {
		end.ID, end.Exit = id, &exit
		if _, err := l.Append(end); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

func sessionRuns(t *testing.T, l *Ledger, session string) []Run {
	t.Helper()
	var out []Run
	if _, err := l.SessionRuns(session, func(r Run) bool { out = append(out, r); return true }); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSessionRuns(t *testing.T) {
	l := histLedger(t)
	a := run(t, l, "s1", "/p", "go test ./...", 1, nil)
	run(t, l, "s2", "/p", "go test ./...", 1, nil)
	b := run(t, l, "s1", "/p/sub", `echo "a\"b" <x> & y`, 0, func(_, end *Record) { end.Signal = "" })
	run(t, l, "s1", "/p", "make", 2, func(exec, _ *Record) { exec.Parent = a }) // nested: not the session's own
	if _, err := l.Append(&Record{Kind: KindDecision, Session: "s1", Cwd: "/p", Command: "git push -f", Verdict: "hold"}); err != nil {
		t.Fatal(err)
	}
	c := run(t, l, "s1", "/p", "sleep 100", -1, nil)
	d := run(t, l, "s1", "/p", "go test -timeout 1s", 137, func(_, end *Record) { end.Signal, end.TimedOut = "SIGKILL", true })

	got := sessionRuns(t, l, "s1")
	want := []string{d, c, b, a}
	if len(got) != len(want) {
		t.Fatalf("got %d runs %+v, want %v", len(got), got, want)
	}
	for i, id := range want {
		if got[i].ID != id {
			t.Errorf("run %d is %s, want %s", i, got[i].ID, id)
		}
	}
	if r := got[0]; r.Exit != 137 || r.Signal != "SIGKILL" || !r.TimedOut || !r.Ended() {
		t.Errorf("timed-out run: %+v", r)
	}
	if r := got[1]; r.Ended() || r.Command != "sleep 100" {
		t.Errorf("run without exit: %+v", r)
	}
	if r := got[2]; r.Command != `echo "a\"b" <x> & y` || r.Cwd != "/p/sub" || r.Exit != 0 || !r.Ended() {
		t.Errorf("run with escapes: %+v", r)
	}
	if r := got[3]; r.Exit != 1 || r.Session != "s1" || r.StartTime().IsZero() || !r.EndTime().After(r.StartTime()) {
		t.Errorf("first run: %+v", r)
	}
	if n := len(sessionRuns(t, l, "s2")); n != 1 {
		t.Errorf("session s2 has %d runs, want 1", n)
	}
	if n := len(sessionRuns(t, l, "nobody")); n != 0 {
		t.Errorf("unknown session has %d runs", n)
	}
}

// TestSessionRunsStop: the walk ends when fn says so.
func TestSessionRunsStop(t *testing.T) {
	l := histLedger(t)
	for i := 0; i < 5; i++ {
		run(t, l, "s", "/p", fmt.Sprint("cmd ", i), 1, nil)
	}
	n := 0
	cut, err := l.SessionRuns("s", func(Run) bool { n++; return n < 2 })
	if err != nil || cut || n != 2 {
		t.Fatalf("n=%d cut=%v err=%v", n, cut, err)
	}
}

// TestSessionRunsWindow: the walk reads a bounded tail however large the
// ledger, and says when it was cut.
func TestSessionRunsWindow(t *testing.T) {
	l := histLedger(t)
	old := run(t, l, "s", "/p", "first", 1, nil)
	pad := strings.Repeat("x", 4000)
	for i := 0; i < RunWindow/4000+10; i++ {
		run(t, l, "other", "/p", "noise", 0, func(_, end *Record) { end.Digest = pad })
	}
	var ids []string
	cut, err := l.SessionRuns("s", func(r Run) bool { ids = append(ids, r.ID); return true })
	if err != nil || !cut || len(ids) != 0 {
		t.Fatalf("ids=%v (oldest %s) cut=%v err=%v", ids, old, cut, err)
	}
}

// TestSessionRunsOddLines: lines written otherwise than Append writes them
// (whitespace, keys in another order) are still read, through a full
// decode; garbage is passed over.
func TestSessionRunsOddLines(t *testing.T) {
	l := histLedger(t)
	run(t, l, "s", "/p", "go vet", 1, nil)
	f, err := os.OpenFile(filepath.Join(l.Dir(), activeName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, `{ "id": "ev-0100", "kind": "exec", "session": "s", "cwd": "/p", "command": "make", "time": "2030-01-02T03:05:00.000Z", "prev": "" }`)
	fmt.Fprintln(f, `{"id":"ev-0100","kind":"exit","exit":3,"time":"2030-01-02T03:05:01.000Z","prev":""}`)
	fmt.Fprintln(f, `{"kind":"exit","id":"ev-01`)
	f.Close()
	got := sessionRuns(t, l, "s")
	if len(got) != 2 || got[0].Command != "make" || got[0].Exit != 3 || got[1].Command != "go vet" {
		t.Fatalf("got %+v", got)
	}
}

// TestEachField holds the field reader to encoding/json on records with
// awkward text.
func TestEachField(t *testing.T) {
	texts := []string{
		"", `"`, `\`, `\"`, `\\"`, `a"b"c`, `{"session":"s"}`, "tab\tnl\nnul\x00", "é ✓ \u2028",
		`}]},[{"`, "\xff\xfe bad utf8", strings.Repeat(`\"`, 100),
	}
	for _, s := range texts {
		code := 7
		rec := &Record{Kind: KindExit, ID: "ev-0001", Time: "t", Exit: &code, Digest: s, Command: s,
			Stdout: &StreamInfo{Bytes: 3, SHA256: s}, Rules: []Hit{{ID: s, Severity: "hold"}}, Prev: s}
		line, err := encode(rec)
		if err != nil {
			t.Fatal(err)
		}
		line = line[:len(line)-1]
		var want map[string]json.RawMessage
		if err := json.Unmarshal(line, &want); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		if !eachField(line, func(k, v []byte) bool { got[string(k)] = string(v); return true }) {
			t.Fatalf("eachField refused %s", line)
		}
		if len(got) != len(want) {
			t.Fatalf("%q: keys %v, want %v", s, got, want)
		}
		for k, v := range want {
			if got[k] != string(v) {
				t.Errorf("%q: %s = %s, want %s", s, k, got[k], v)
			}
		}
		var dig string
		json.Unmarshal(want["digest"], &dig)
		if u := unquote([]byte(got["digest"])); u != dig {
			t.Errorf("unquote %q = %q, want %q", got["digest"], u, dig)
		}
	}
	for _, bad := range []string{``, `{`, `{"a"}`, `{"a":}`, `{"a":"x}`, `{"a":1,}`, `{"a":{"b":1}`, `[1]`, `{"a":1} `} {
		if eachField([]byte(bad), func(_, _ []byte) bool { return true }) {
			t.Errorf("eachField accepted %q", bad)
		}
	}
}

// TestStoredCommand: the loop brake compares a new command with stored
// ones, so it must be transformed exactly as Append stores it.
func TestStoredCommand(t *testing.T) {
	l, err := Open(t.TempDir(), Options{Secrets: []string{"hunter2-secret-value"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{
		"go test ./...",
		"curl -H 'Authorization: Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789' https://x",
		"echo hunter2-secret-value",
		strings.Repeat("long ", 10000),
	} {
		id, err := l.Append(&Record{Kind: KindExec, Session: "s", Command: cmd})
		if err != nil {
			t.Fatal(err)
		}
		recs, err := l.Find(id)
		if err != nil {
			t.Fatal(err)
		}
		if got := l.StoredCommand(cmd); got != recs[0].Command {
			t.Errorf("StoredCommand(%.40q) = %.60q, stored %.60q", cmd, got, recs[0].Command)
		}
	}
}

// FuzzEachField: the reader never panics, and on any compact JSON object
// (the form Append writes) it sees the keys and values encoding/json sees.
// It does not validate: a value it passes over may be malformed, which is
// why callers parse the few values they use.
func FuzzEachField(f *testing.F) {
	f.Add([]byte(`{"kind":"exit","id":"ev-0001","exit":1,"digest":"a\"b"}`))
	f.Add([]byte(`{"a":[{"b":"]"}],"c":true}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = lineKind(b)
		got := map[string]string{}
		ok := eachField(b, func(k, v []byte) bool { got[string(k)] = string(v); return true })
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) != nil || m == nil {
			return
		}
		var compact bytes.Buffer
		if json.Compact(&compact, b) != nil || !bytes.Equal(compact.Bytes(), b) {
			return
		}
		if !ok {
			t.Fatalf("eachField refused compact object %q", b)
		}
		for k, v := range m {
			if _, plain := got[k]; !plain {
				return // a key with escapes: eachField keeps keys raw
			}
			if got[k] != string(v) {
				t.Fatalf("%q: %s = %s, want %s", b, k, got[k], v)
			}
		}
	})
}

// TestSessionRunsSegmentTwice: SessionRuns takes no lock, so a rotation
// between two opens can show it one segment twice; each run is given once.
func TestSessionRunsSegmentTwice(t *testing.T) {
	l := histLedger(t)
	a := run(t, l, "s", "/p", "make", 1, nil)
	b := run(t, l, "s", "/p", "make", 2, nil)
	data, err := os.ReadFile(filepath.Join(l.Dir(), activeName))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(l.Dir(), segmentName(1)), data, 0o600); err != nil {
		t.Fatal(err)
	}
	got := sessionRuns(t, l, "s")
	if len(got) != 2 || got[0].ID != b || got[1].ID != a || got[0].Exit != 2 {
		t.Fatalf("got %+v", got)
	}
}

// TestSessionRunsLongLines: lines longer than a read, read across chunks
// and buffer growth, come out whole.
func TestSessionRunsLongLines(t *testing.T) {
	l := histLedger(t)
	long := strings.Repeat("y", 30<<10)
	var want []string
	for i := 0; i < 6; i++ {
		cmd := fmt.Sprint("echo ", i, " ", long)
		run(t, l, "s", "/p", cmd, i, func(exec, _ *Record) { exec.Raw = cmd + " raw" })
		want = append([]string{l.StoredCommand(cmd)}, want...)
	}
	got := sessionRuns(t, l, "s")
	if len(got) != 3 && len(got) != 4 { // 256 KiB holds the last three or four
		t.Fatalf("%d runs", len(got))
	}
	for i, r := range got {
		if r.Command != want[i] || r.Exit != 5-i {
			t.Errorf("run %d: exit %d, command %.20q…", i, r.Exit, r.Command)
		}
	}
}

// FuzzSessionRuns: whatever a segment holds, the reader neither panics nor
// gives out another session's runs.
func FuzzSessionRuns(f *testing.F) {
	f.Add([]byte(`{"kind":"exec","id":"ev-0001","time":"t","session":"s","cwd":"/p","command":"x","prev":""}` + "\n" +
		`{"kind":"exit","id":"ev-0001","time":"t","exit":1,"prev":""}` + "\n"))
	f.Add([]byte(`{"kind":"exec","id":"ev-0002","session":"s","parent":"ev-0001"}` + "\n" + `{"kind":"exit","id":"ev-`))
	f.Add([]byte("\n\n{\"kind\":\"exec\",\"session\":\"s\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		l, err := Open(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, activeName), data, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, segmentName(1)), data, 0o600); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		_, err = l.SessionRuns("s", func(r Run) bool {
			if r.Session != "s" || r.ID == "" || seen[r.ID] {
				t.Fatalf("bad run %+v", r)
			}
			seen[r.ID] = true
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
