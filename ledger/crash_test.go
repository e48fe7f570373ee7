package ledger

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A writer killed with SIGKILL in the middle of its write leaves a torn
// line. The lock dies with it; readers skip the line and say so; the next
// append isolates it on its own line and goes on with the ids; Verify
// reports the torn line as unreadable and nothing else.
func TestCrashMidWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ledger")
	l, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	first := pair(t, l, "before", 0)

	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command(self)
	c.Env = append(os.Environ(), helperEnv+"=torn", "HELPER_DIR="+dir)
	c.Stderr = os.Stderr
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if ln, err := bufio.NewReader(out).ReadString('\n'); ln != "torn\n" {
		t.Fatalf("helper did not tear its write: %q %v", ln, err)
	}
	c.Process.Kill()
	c.Wait()

	recs, probs, err := l.Tail(10)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[0].ID != first || len(probs) != 1 || !probs[0].Unreadable {
		t.Fatalf("Tail after crash: %d records, problems %v", len(recs), probs)
	}

	done := make(chan string, 1)
	go func() { done <- pair(t, l, "after", 0) }()
	var next string
	select {
	case next = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("append blocked: the dead writer's lock was not released")
	}
	if next != "ev-0002" {
		t.Errorf("id after the crash = %s, want ev-0002", next)
	}
	lines := strings.Split(strings.TrimSuffix(readFile(t, l.path(activeName)), "\n"), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[3], `{"kind":"exec","id":"ev-0002"`) || strings.HasSuffix(lines[3], "}") {
		t.Fatalf("torn line not isolated:\n%s", strings.Join(lines, "\n"))
	}
	rep := mustVerify(t, l)
	if rep.OK || !rep.ChainIntact() || len(rep.Problems) != 1 || rep.Problems[0].Line != 4 || rep.Records != 4 {
		t.Errorf("verify after crash: want one unreadable line at 4 and 4 records, got %d records, %v", rep.Records, rep.Problems)
	}
}
