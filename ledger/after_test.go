package ledger

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

// collect reads every record after m; the marks come with them.
func collect(t *testing.T, l *Ledger, m Mark) ([]Entry, AfterResult) {
	t.Helper()
	var got []Entry
	res, err := l.After(m, func(e Entry) bool {
		e.Line = append([]byte(nil), e.Line...)
		got = append(got, e)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return got, res
}

func TestAfterResumesAcrossRotation(t *testing.T) {
	l := newLedger(t, Options{MaxBytes: 1024, Keep: 3})
	for i := 0; i < 6; i++ {
		pair(t, l, fmt.Sprintf("command %d", i), 0)
	}
	all, res := collect(t, l, "")
	if len(all) != 12 || !res.Found {
		t.Fatalf("got %d records (found %v), want 12", len(all), res.Found)
	}
	mark := all[7].Mark
	for i := 6; i < 14; i++ { // rotates, but keeps the marked line
		pair(t, l, fmt.Sprintf("command %d", i), 0)
	}
	if _, err := os.Stat(l.path(segmentName(2))); err != nil {
		t.Fatalf("no second rotated segment: %v", err)
	}
	rest, res := collect(t, l, mark)
	if !res.Found {
		t.Fatal("mark not found in a kept segment")
	}
	if len(rest) != 28-8 {
		t.Fatalf("got %d records after the 8th, want %d", len(rest), 28-8)
	}
	if rest[0].Record.ID != all[8].Record.ID || rest[0].Record.Kind != all[8].Record.Kind {
		t.Errorf("resumed at %s %s, want %s %s", rest[0].Record.Kind, rest[0].Record.ID, all[8].Record.Kind, all[8].Record.ID)
	}
	for _, e := range rest {
		if e.Record.Kind == KindHeader {
			t.Fatal("a header was passed as a record")
		}
		if string(e.Mark) != hashLine(e.Line) {
			t.Fatalf("mark of %s is not the hash of its line", e.Record.ID)
		}
	}
}

func TestAfterLostMarkDeliversAllKept(t *testing.T) {
	l := newLedger(t, Options{MaxBytes: 1024, Keep: 1})
	pair(t, l, "first", 0)
	first, _ := collect(t, l, "")
	for i := 0; i < 40; i++ { // the first segment is deleted
		pair(t, l, fmt.Sprintf("command %d", i), 0)
	}
	got, res := collect(t, l, first[0].Mark)
	if res.Found {
		t.Fatal("found a mark whose segment rotation deleted")
	}
	every, _ := collect(t, l, "")
	if len(got) != len(every) || len(got) == 0 {
		t.Fatalf("a lost mark gave %d records, want all %d kept", len(got), len(every))
	}
}

func TestAfterStopsAndSkipsTornTail(t *testing.T) {
	l := newLedger(t, Options{})
	for i := 0; i < 5; i++ {
		pair(t, l, fmt.Sprintf("command %d", i), 0)
	}
	// An append in progress (or cut short): no newline yet.
	f, err := os.OpenFile(l.path(activeName), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"kind":"exec","id":"ev-0006","time":"2026-01-01T00:00:00.000Z","prev":""}`)
	f.Close()
	got, res := collect(t, l, "")
	if len(got) != 10 || len(res.Problems) != 0 {
		t.Fatalf("got %d records and %v; want the 10 complete ones, the unterminated line left for later", len(got), res.Problems)
	}
	n := 0
	res, err = l.After("", func(Entry) bool { n++; return n < 3 })
	if err != nil || !res.Stopped || n != 3 {
		t.Fatalf("stop after 3: n=%d stopped=%v err=%v", n, res.Stopped, err)
	}
}

func TestAfterReportsGarbage(t *testing.T) {
	l := newLedger(t, Options{})
	pair(t, l, "one", 0)
	f, _ := os.OpenFile(l.path(activeName), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("garbage\n")
	f.Close()
	pair(t, l, "two", 0)
	got, res := collect(t, l, "")
	if len(got) != 4 || len(res.Problems) != 1 {
		t.Fatalf("got %d records, %d problems; want 4 and 1", len(got), len(res.Problems))
	}
}

func TestIdentity(t *testing.T) {
	l := newLedger(t, Options{})
	var wg sync.WaitGroup
	ids := make([]string, 8)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id, err := l.Identity()
			if err != nil {
				t.Error(err)
			}
			ids[i] = id
		}()
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] || len(id) != 32 {
			t.Fatalf("identities differ or are malformed: %q", ids)
		}
	}
	entries, _ := os.ReadDir(l.Dir())
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".ledger.id") {
			t.Errorf("temporary %s left behind", e.Name())
		}
	}
	os.WriteFile(l.path(idName), []byte("not an id\n"), 0o600)
	if _, err := l.Identity(); err == nil {
		t.Error("a damaged ledger.id was accepted")
	}
	other := newLedger(t, Options{})
	if id, _ := other.Identity(); id == ids[0] {
		t.Error("two ledgers share an identity")
	}
}
