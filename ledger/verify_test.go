package ledger

import (
	"os"
	"strings"
	"testing"
)

// sample writes a small valid ledger: header, then five exec/exit pairs
// (lines 2–11), all in ledger.jsonl.
func sample(t *testing.T) (*Ledger, []string) {
	t.Helper()
	l := newLedger(t, Options{})
	for i := 0; i < 5; i++ {
		pair(t, l, "make", i%2)
	}
	text := readFile(t, l.path(activeName))
	return l, strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

func rewrite(t *testing.T, l *Ledger, lines []string) {
	t.Helper()
	writeFile(t, l.path(activeName), strings.Join(lines, "\n")+"\n")
}

// wantBreak checks that Verify reports exactly the given places (file:line)
// and that each message says why.
func wantBreak(t *testing.T, l *Ledger, why string, places ...string) {
	t.Helper()
	rep := mustVerify(t, l)
	var got []string
	for _, p := range rep.Problems {
		got = append(got, p.String())
	}
	if rep.OK || rep.ChainIntact() || len(got) != len(places) {
		t.Fatalf("want problems at %v, got OK=%v %q", places, rep.OK, got)
	}
	for i, place := range places {
		if !strings.HasPrefix(got[i], place+": ") {
			t.Errorf("problem %d at %q, want %s", i, got[i], place)
		}
	}
	if !strings.Contains(got[0], why) {
		t.Errorf("problem %q does not say %q", got[0], why)
	}
}

func TestVerifyValid(t *testing.T) {
	l, _ := sample(t)
	rep := mustVerify(t, l)
	if !rep.OK || rep.Records != 10 || rep.Segments != 1 || len(rep.Notes) != 0 {
		t.Errorf("verify: %+v", rep)
	}
}

func TestVerifyEdited(t *testing.T) {
	l, lines := sample(t)
	lines[3] = strings.Replace(lines[3], `"command":"make"`, `"command":"true"`, 1) // line 4
	rewrite(t, l, lines)
	wantBreak(t, l, "ledger.jsonl:4: that line was changed", "ledger.jsonl:5")
}

func TestVerifyEditedExitStatus(t *testing.T) {
	l, lines := sample(t)
	lines[4] = strings.Replace(lines[4], `"exit":1`, `"exit":0`, 1) // line 5: a failure made a success
	rewrite(t, l, lines)
	wantBreak(t, l, "changed", "ledger.jsonl:6")
}

func TestVerifyDeleted(t *testing.T) {
	l, lines := sample(t)
	lines = append(lines[:5:5], lines[7:]...) // drop lines 6 and 7: ev-0003's exec and exit
	rewrite(t, l, lines)
	// Line 6 now holds ev-0004's exec: its prev names the deleted line and
	// its id skips ev-0003.
	wantBreak(t, l, "deleted", "ledger.jsonl:6", "ledger.jsonl:6")
}

func TestVerifyDeletedExit(t *testing.T) {
	l, lines := sample(t)
	lines = append(lines[:6:6], lines[7:]...) // drop line 7: ev-0003's exit
	rewrite(t, l, lines)
	wantBreak(t, l, "deleted", "ledger.jsonl:7")
}

func TestVerifyInserted(t *testing.T) {
	l, lines := sample(t)
	// A forged exec whose prev is right, slipped in after line 5, so only
	// the line after it can tell.
	forged := `{"kind":"exec","id":"ev-0003","time":"2026-03-14T15:09:26.006Z","command":"true","prev":"` + hashLine([]byte(lines[4])) + `"}`
	lines = append(lines[:5:5], append([]string{forged}, lines[5:]...)...)
	rewrite(t, l, lines)
	rep := mustVerify(t, l)
	var got []string
	for _, p := range rep.Problems {
		got = append(got, p.String())
	}
	if len(got) == 0 || !strings.HasPrefix(got[0], "ledger.jsonl:7: ") || !strings.Contains(got[0], "ledger.jsonl:5") || !strings.Contains(got[0], "inserted") {
		t.Errorf("want the insertion of line 6 reported at line 7, got %q", got)
	}
}

func TestVerifyDuplicateExit(t *testing.T) {
	l, lines := sample(t)
	dup := strings.Replace(lines[2], `"prev":"`+hashLine([]byte(lines[1])), `"prev":"`+hashLine([]byte(lines[2])), 1)
	lines = append(lines[:3:3], append([]string{dup}, lines[3:]...)...)
	rewrite(t, l, lines)
	rep := mustVerify(t, l)
	if rep.OK || len(rep.Problems) == 0 || rep.Problems[0].String() != "ledger.jsonl:4: second exit for ev-0001" {
		t.Errorf("got %v", rep.Problems)
	}
}

func TestVerifyGarbageLines(t *testing.T) {
	l, lines := sample(t)
	lines = append(lines[:3:3], append([]string{"", "not json", `{"kind":"exec"`}, lines[3:]...)...)
	rewrite(t, l, lines)
	rep := mustVerify(t, l)
	if rep.OK || !rep.ChainIntact() || len(rep.Problems) != 3 || rep.Records != 10 {
		t.Errorf("garbage lines: want 3 unreadable lines and an intact chain, got %d records, %v", rep.Records, rep.Problems)
	}
}

// Turning a valid line into garbage is not a crash: the line after it
// still names it.
func TestVerifyLineMadeGarbage(t *testing.T) {
	l, lines := sample(t)
	lines[4] = lines[4][:20]
	rewrite(t, l, lines)
	rep := mustVerify(t, l)
	if rep.ChainIntact() || len(rep.Problems) != 2 || rep.Problems[1].Line != 6 {
		t.Errorf("got %v", rep.Problems)
	}
}

func TestVerifyEmpty(t *testing.T) {
	l := newLedger(t, Options{})
	if rep := mustVerify(t, l); !rep.OK || rep.Records != 0 {
		t.Errorf("verify of an empty ledger: %+v", rep)
	}
}

// Removing the lock file hides nothing: readers go on without it.
func TestVerifyWithoutLockFile(t *testing.T) {
	l, lines := sample(t)
	lines[3] = strings.Replace(lines[3], `"command":"make"`, `"command":"true"`, 1)
	rewrite(t, l, lines)
	if err := os.Remove(l.path(lockName)); err != nil {
		t.Fatal(err)
	}
	wantBreak(t, l, "changed", "ledger.jsonl:5")
	if recs, _, err := l.Tail(3); err != nil || len(recs) != 3 {
		t.Errorf("Tail without a lock file: %d records, %v", len(recs), err)
	}
}
