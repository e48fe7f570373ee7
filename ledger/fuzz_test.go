package ledger

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzLedgerRead feeds arbitrary bytes to the readers as the active
// segment. Tail, Find and Verify never panic or fail, and Verify never calls
// a broken chain OK: whatever it accepts is, line for line, a prefix of one
// of the valid ledgers the corpus was seeded with (only its last line may
// differ, which no chain can see), and an independent check agrees. An
// append onto the bytes always chains: Verify finds nothing wrong from the
// appended lines on.
func FuzzLedgerRead(f *testing.F) {
	seeds := seedLedgers(f)
	var valid [][][]byte // each seed's valid lines: what an OK result may be a prefix of
	for _, s := range seeds {
		f.Add(s)
		var lines [][]byte
		for _, ln := range splitLines(s) {
			if _, err := decode(ln); err == nil {
				lines = append(lines, ln)
			}
		}
		valid = append(valid, lines)
	}
	f.Add([]byte("garbage\n{\"kind\":\"exec\"\n\n"))
	f.Add([]byte{})

	// One directory for the whole run: creating files costs far more than
	// the reads under test, and each input overwrites the segment anyway.
	l, err := Open(filepath.Join(f.TempDir(), "ledger"), Options{Now: clock()})
	if err != nil {
		f.Fatal(err)
	}
	writeFile(f, l.path(lockName), "")
	f.Fuzz(func(t *testing.T, data []byte) {
		writeFile(t, l.path(activeName), string(data))

		for _, n := range []int{1, 3, 1000} {
			recs, probs, err := l.Tail(n)
			if err != nil || len(recs) > n {
				t.Fatalf("Tail(%d): %d records, %v", n, len(recs), err)
			}
			for _, p := range probs {
				if !p.Unreadable || p.File != activeName {
					t.Fatalf("Tail problem %+v", p)
				}
			}
		}
		for _, id := range []string{"ev-0001", "ev-0003", "ev-9999"} {
			l.Find(id) // must not panic; not found is fine
		}
		rep := mustVerify(t, l)
		if rep.OK {
			if !chainOK(data) {
				t.Fatalf("Verify OK, but the independent check finds a broken chain in %q", data)
			}
			if !prefixOfSeed(splitLines(data), valid) {
				t.Fatalf("Verify OK for bytes that are no seed's prefix: %q", data)
			}
		}

		// Append onto whatever is there: the new lines always chain.
		before := len(splitLines(readFileBytes(t, l.path(activeName))))
		id, err := l.Append(&Record{Kind: KindExec, Command: "true"})
		if err != nil {
			if strings.Contains(err.Error(), "no ids left") {
				return
			}
			t.Fatal(err)
		}
		code := 0
		mustAppend(t, l, &Record{Kind: KindExit, ID: id, Exit: &code})
		rep = mustVerify(t, l)
		for _, p := range rep.Problems {
			if p.Line > before+1 { // +1: a torn last line gains its newline, not a line
				t.Fatalf("problem in the appended lines: %v\nall: %v\ndata %q", p, rep.Problems, data)
			}
		}
		recs, _, err := l.Tail(2)
		if err != nil || len(recs) != 2 || recs[0].ID != id || recs[1].Kind != KindExit {
			t.Fatalf("Tail after append: %+v, %v", recs, err)
		}
	})
}

// seedLedgers builds valid ledgers, and a few damaged ones, to start from.
func seedLedgers(f *testing.F) [][]byte {
	var out [][]byte
	build := func(opts Options, do func(l *Ledger)) {
		opts.Now = clock()
		l, err := Open(filepath.Join(f.TempDir(), "ledger"), opts)
		if err != nil {
			f.Fatal(err)
		}
		do(l)
		names, _ := filepath.Glob(filepath.Join(l.Dir(), "ledger*.jsonl"))
		for _, name := range names {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			out = append(out, b)
		}
	}
	some := func(l *Ledger) {
		for i := 0; i < 3; i++ {
			pair(f, l, "go test ./...", i%2)
		}
		d := mustAppend(f, l, &Record{Kind: KindDecision, Command: "git push --force", Verdict: "hold",
			Rules: []Hit{{ID: "git-force-push", Severity: "hold", Pos: "1:1"}}})
		mustAppend(f, l, &Record{Kind: KindApproval, Ref: d})
		pair(f, l, "git push --force", 0)
	}
	build(Options{}, some)
	build(Options{MaxBytes: 700, Keep: 2}, some) // rotated segments: headers with prev and last_id
	build(Options{}, func(l *Ledger) {
		some(l)
		fh, _ := os.OpenFile(l.path(activeName), os.O_WRONLY|os.O_APPEND, 0)
		fh.WriteString(`{"kind":"exec","id":"ev-0008","ti`)
		fh.Close()
		pair(f, l, "make", 2)
	})
	return out
}

func readFileBytes(t testing.TB, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// splitLines splits a segment into lines without their newlines.
func splitLines(b []byte) [][]byte {
	if len(b) == 0 {
		return nil
	}
	return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
}

// chainOK is an independent, deliberately plain check: every line is a
// JSON record with a kind, the first is a header, and each later line's
// prev is the sha256 of the line before it.
func chainOK(data []byte) bool {
	lines := splitLines(data)
	for i, ln := range lines {
		var r struct {
			Kind string `json:"kind"`
			Prev string `json:"prev"`
		}
		if len(ln) > maxLine || json.Unmarshal(ln, &r) != nil || r.Kind == "" {
			return false
		}
		if i == 0 && r.Kind != "header" {
			return false
		}
		if i > 0 && r.Prev != hashLine(lines[i-1]) {
			return false
		}
	}
	return true
}

// prefixOfSeed reports whether all lines but the last are a prefix of one
// seed's valid lines.
func prefixOfSeed(lines [][]byte, seeds [][][]byte) bool {
	if len(lines) <= 1 {
		return true
	}
	head := lines[:len(lines)-1]
	for _, s := range seeds {
		if len(head) > len(s) {
			continue
		}
		ok := true
		for i := range head {
			if !bytes.Equal(head[i], s[i]) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// FuzzDecodeFast holds the fast decoder to encoding/json: whenever it
// accepts a line, encoding/json accepts it too and makes the same record.
func FuzzDecodeFast(f *testing.F) {
	for _, s := range seedLedgers(f) {
		for _, ln := range splitLines(s) {
			f.Add(ln)
		}
	}
	f.Add([]byte(`{"kind":"exit","id":"ev-1","exit":-0,"duration_ms":1.5e3,"stdout":{"bytes":12,"sha256":"x"},"stderr":{},"timed_out":true,"prev":""}`))
	f.Add([]byte(`{"kind":"exec","command":"a\"b\\c\/d\n\t\r\b\f é","rules":[{"id":"r","pos":"1:1"},{}],"env_removed":["A","B"],"prev":""}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var fast Record
		if !decodeFast(line, &fast) {
			return
		}
		var std Record
		if err := json.Unmarshal(line, &std); err != nil {
			t.Fatalf("fast decoder accepted what encoding/json refuses (%v): %q", err, line)
		}
		if !reflect.DeepEqual(fast, std) {
			t.Fatalf("decoders differ on %q:\nfast %+v\n std %+v", line, fast, std)
		}
	})
}
