package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var testKey = []byte("0123456789abcdef0123456789abcdef")

// keyedSample is sample with the chain authenticated and anchored.
func keyedSample(t *testing.T) (*Ledger, []string) {
	t.Helper()
	l := newLedger(t, Options{Key: testKey, AnchorDir: filepath.Join(t.TempDir(), "anchors")})
	for i := 0; i < 5; i++ {
		pair(t, l, "make", i%2)
	}
	text := readFile(t, l.path(activeName))
	return l, strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// reopen is the same ledger as another process sees it (nothing cached).
func reopen(t *testing.T, l *Ledger) *Ledger {
	t.Helper()
	l2, err := Open(l.dir, l.opts)
	if err != nil {
		t.Fatal(err)
	}
	return l2
}

func problems(rep *Report) []string {
	var out []string
	for _, p := range rep.Problems {
		out = append(out, p.String())
	}
	return out
}

func wantProblem(t *testing.T, l *Ledger, place, why string) {
	t.Helper()
	rep := mustVerify(t, l)
	got := problems(rep)
	for _, g := range got {
		if strings.HasPrefix(g, place) && strings.Contains(g, why) {
			return
		}
	}
	t.Errorf("want a problem at %s saying %q, got OK=%v %q", place, why, rep.OK, got)
}

func TestKeyedValid(t *testing.T) {
	l, lines := keyedSample(t)
	rep := mustVerify(t, l)
	if !rep.OK || rep.Records != 10 || len(rep.Notes) != 0 {
		t.Errorf("verify: %+v", rep)
	}
	for _, ln := range lines[1:] {
		if !strings.Contains(ln, `"prev":"m1:`) {
			t.Errorf("not keyed: %s", ln)
		}
	}
}

func TestKeyedEdited(t *testing.T) {
	l, lines := keyedSample(t)
	lines[3] = strings.Replace(lines[3], `"command":"make"`, `"command":"true"`, 1)
	rewrite(t, l, lines)
	wantProblem(t, l, "ledger.jsonl:5", "ledger.jsonl:4")
}

// A forged record whose prev is copied from the record after the line it
// follows, appended at the end: the old chain accepted it.
func TestKeyedForgedValidPrev(t *testing.T) {
	l, lines := keyedSample(t)
	last := lines[len(lines)-1]
	// The forger computes the plain hash, as the old chain wanted.
	sum := sha256.Sum256([]byte(last))
	forged := `{"kind":"approval","id":"ev-0006","time":"2026-03-14T15:09:26.000Z","ref":"ev-0005","prev":"` + hex.EncodeToString(sum[:]) + `"}`
	rewrite(t, l, append(lines, forged))
	wantProblem(t, l, "ledger.jsonl:12", "not authenticated")
	// With a keyed-looking prev copied from elsewhere.
	l2, lines2 := keyedSample(t)
	prevOf10 := lines2[9][strings.Index(lines2[9], `"prev":"`)+8:]
	prevOf10 = prevOf10[:strings.IndexByte(prevOf10, '"')]
	forged2 := `{"kind":"approval","id":"ev-0006","time":"2026-03-14T15:09:26.000Z","ref":"ev-0005","prev":"` + prevOf10 + `"}`
	rewrite(t, l2, append(lines2, forged2))
	wantProblem(t, l2, "ledger.jsonl:12", "")
}

func TestKeyedDeletedNewest(t *testing.T) {
	l, lines := keyedSample(t)
	rewrite(t, l, lines[:len(lines)-2]) // the last exec and its exit
	wantProblem(t, l, "ledger.jsonl:9", "the ledger ends here (last id ev-0004)")
	wantProblem(t, l, "ledger.jsonl:9", "anchor")
	// And the next append does not give ev-0005 out again.
	if id := pair(t, reopen(t, l), "next", 0); id != "ev-0006" {
		t.Errorf("after the deletion: %s, want ev-0006", id)
	}
}

func TestKeyedTruncated(t *testing.T) {
	l, _ := keyedSample(t)
	writeFile(t, l.path(activeName), "")
	wantProblem(t, l, "ledger.jsonl", "the ledger is empty, but its anchor")
}

func TestKeyedDeletedAndRestarted(t *testing.T) {
	l, _ := keyedSample(t)
	if err := os.RemoveAll(l.dir); err != nil {
		t.Fatal(err)
	}
	if rep := MissingReport(l.dir, l.opts); rep.OK || !strings.Contains(problems(rep)[0], "the ledger was deleted") {
		t.Errorf("missing ledger: %+v", rep)
	}
	l2 := reopen(t, l)
	if id := pair(t, l2, "again", 0); id != "ev-0006" {
		t.Errorf("ids restarted: %s, want ev-0006", id)
	}
	wantProblem(t, l2, "ledger.jsonl:1", "the history before this line is missing")
}

// One forged line with the largest id must not wedge the ledger, nor make
// ids jump: appends step over it.
func TestKeyedForgedHugeID(t *testing.T) {
	l, lines := keyedSample(t)
	forged := `{"kind":"exec","id":"ev-9223372036854775807","time":"2026-03-14T15:09:26.000Z","command":"x","prev":"m1:00"}`
	rewrite(t, l, append(lines, forged))
	l2 := reopen(t, l)
	if id := pair(t, l2, "after", 0); id != "ev-0006" {
		t.Errorf("after the forged line: %s, want ev-0006", id)
	}
	rep := mustVerify(t, l2)
	got := problems(rep)
	if len(got) == 0 || !strings.HasPrefix(got[0], "ledger.jsonl:12") {
		t.Errorf("forged line not reported where it is: %q", got)
	}
	for _, g := range got {
		if strings.Contains(g, "ev-0006") {
			t.Errorf("the record after the forged one is reported: %q", got)
		}
	}
	// Without an anchor too: the id search alone steps over it.
	l3 := newLedger(t, Options{Key: testKey})
	for i := 0; i < 3; i++ {
		pair(t, l3, "make", 0)
	}
	text := readFile(t, l3.path(activeName))
	writeFile(t, l3.path(activeName), text+strings.Replace(forged, "m1:00", "0000", 1)+"\n")
	if id := pair(t, reopen(t, l3), "after", 0); id != "ev-0004" {
		t.Errorf("no anchor, after the forged line: %s, want ev-0004", id)
	}
}

// An unkeyed ledger written before there was a key goes on keyed.
func TestKeyedAfterUnkeyed(t *testing.T) {
	l, _ := sample(t)
	opts := l.opts
	opts.Key, opts.AnchorDir = testKey, filepath.Join(t.TempDir(), "anchors")
	l2, err := Open(l.dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if id := pair(t, l2, "keyed", 0); id != "ev-0006" {
		t.Errorf("first keyed id %s, want ev-0006", id)
	}
	if rep := mustVerify(t, l2); !rep.OK {
		t.Errorf("verify: %q", problems(rep))
	}
}

func TestAnchorTampered(t *testing.T) {
	l, _ := keyedSample(t)
	b := readFile(t, l.anchorPath)
	writeFile(t, l.anchorPath, strings.Replace(b, "last ev-0005", "last ev-0002", 1))
	wantProblem(t, l, l.anchorPath, "anchor: its authentication does not match")
}

// TestAnchoredTip: a fresh process's first append takes the tip from the
// anchor when the anchor was written for the line the ledger ends with,
// and it is the tip findTip finds by reading back; a line added, changed
// or torn since, or an anchor changed, falls back to findTip.
func TestAnchoredTip(t *testing.T) {
	tipOf := func(l *Ledger) (anchored tip, ok bool, found tip) {
		t.Helper()
		f, size, err := l.openActive()
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		a, aerr := l.readAnchor()
		anchored, ok = l.anchoredTip(f, size, a, aerr)
		found, err = l.findTip(f, size)
		if err != nil {
			t.Fatal(err)
		}
		return anchored, ok, found
	}
	l, lines := keyedSample(t)
	a, ok, found := tipOf(reopen(t, l))
	if !ok {
		t.Fatal("a healthy keyed ledger's tip is not read from its anchor")
	}
	if a != found {
		t.Errorf("anchored tip %+v, findTip %+v", a, found)
	}
	if id := pair(t, reopen(t, l), "next", 0); id != "ev-0006" {
		t.Errorf("the append after an anchored tip got %s, want ev-0006", id)
	}

	// A record appended by hand: its link is not the anchor's.
	l, lines = keyedSample(t)
	last := lines[len(lines)-1]
	rewrite(t, l, append(lines, strings.Replace(last, "ev-0005", "ev-0099", 1)))
	if _, ok, _ := tipOf(reopen(t, l)); ok {
		t.Error("a line added after the anchor was written did not fall back to findTip")
	}
	// The last line changed in place.
	l, lines = keyedSample(t)
	changed := strings.Replace(lines[len(lines)-1], `"exit":0`, `"exit":7`, 1)
	if changed == lines[len(lines)-1] {
		t.Fatalf("the last line holds no exit status to change: %s", changed)
	}
	lines[len(lines)-1] = changed
	rewrite(t, l, lines)
	if _, ok, _ := tipOf(reopen(t, l)); ok {
		t.Error("a last line changed since the anchor did not fall back to findTip")
	}
	// A torn end.
	l, _ = keyedSample(t)
	text := readFile(t, l.path(activeName))
	writeFile(t, l.path(activeName), text+`{"kind":"ex`)
	if _, ok, _ := tipOf(reopen(t, l)); ok {
		t.Error("a torn end did not fall back to findTip")
	}
	// The anchor's id changed: its mac no longer matches.
	l, _ = keyedSample(t)
	b := readFile(t, l.anchorPath)
	writeFile(t, l.anchorPath, strings.Replace(b, "last ev-0005", "last ev-0009", 1))
	if _, ok, _ := tipOf(reopen(t, l)); ok {
		t.Error("a changed anchor was believed")
	}
}
