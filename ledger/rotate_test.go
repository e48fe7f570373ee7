package ledger

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRotation(t *testing.T) {
	l := newLedger(t, Options{MaxBytes: 1024, Keep: 2})
	var ids []string
	for i := 0; i < 40; i++ {
		ids = append(ids, pair(t, l, fmt.Sprintf("command %d", i), i%3))
	}
	for i, id := range ids {
		if want := FormatID(int64(i + 1)); id != want {
			t.Fatalf("id %d = %s, want %s: ids must continue across rotation", i, id, want)
		}
	}
	for _, name := range []string{activeName, segmentName(1), segmentName(2)} {
		fi, err := os.Stat(l.path(name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > 1024+400 { // rotation happens before the append that crosses the bound
			t.Errorf("%s is %d bytes", name, fi.Size())
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v", name, fi.Mode().Perm())
		}
		if first := strings.SplitN(readFile(t, l.path(name)), "\n", 2)[0]; !strings.HasPrefix(first, `{"kind":"header"`) {
			t.Errorf("%s does not start with a header: %s", name, first)
		}
	}
	if _, err := os.Stat(l.path(segmentName(3))); !os.IsNotExist(err) {
		t.Errorf("ledger.3.jsonl kept with Keep=2: %v", err)
	}
	rep := mustVerify(t, l)
	if !rep.OK || rep.Segments != 3 || len(rep.Notes) == 0 || !strings.Contains(rep.Notes[0], "rotated away") {
		t.Errorf("verify after rotation: %+v", rep)
	}
	// Tail reaches back across segments, oldest first.
	recs, probs, err := l.Tail(12)
	if err != nil || len(probs) != 0 || len(recs) != 12 {
		t.Fatalf("Tail(12): %d records, %v, %v", len(recs), probs, err)
	}
	if recs[0].ID != "ev-0035" || recs[11].ID != "ev-0040" || recs[11].Kind != KindExit {
		t.Errorf("Tail(12) runs %s..%s %s", recs[0].ID, recs[11].ID, recs[11].Kind)
	}
}

// A crash between rotation's renames leaves no active segment: the next
// append starts one whose header continues from ledger.1.jsonl.
func TestRotationInterrupted(t *testing.T) {
	l := newLedger(t, Options{MaxBytes: 1 << 20})
	pair(t, l, "a", 0)
	if err := os.Rename(l.path(activeName), l.path(segmentName(1))); err != nil {
		t.Fatal(err)
	}
	if id := pair(t, l, "b", 0); id != "ev-0002" {
		t.Errorf("id = %s, want ev-0002", id)
	}
	if rep := mustVerify(t, l); !rep.OK || rep.Segments != 2 {
		t.Errorf("verify: %+v", rep)
	}
}

func TestRotationPrunesCasts(t *testing.T) {
	l := newLedger(t, Options{MaxBytes: 600, Keep: 1})
	var casts []string
	for i := 0; i < 12; i++ {
		id := pair(t, l, "vim", 0)
		rel, err := l.WriteCast(id, []byte(`{"version":2,"width":80,"height":24}`+"\n"+`[0.1,"o","hi"]`+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		casts = append(casts, rel)
	}
	// Casts of ids up to the oldest kept header's last_id belong to
	// dropped segments and are gone; the others stay.
	upTo, ok := l.oldestKeptLastID()
	if !ok || upTo < 2 {
		t.Fatalf("no rotation happened (last_id %d, %v)", upTo, ok)
	}
	for _, rel := range casts {
		n, _ := ParseID(strings.TrimSuffix(filepath.Base(rel), ".cast"))
		_, err := os.Stat(l.path(rel))
		if exists := err == nil; exists != (n > upTo) {
			t.Errorf("%s: exists=%v, oldest kept segment starts after ev-%d", rel, exists, upTo)
		}
	}
}
