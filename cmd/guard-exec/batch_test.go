package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"
)

// TestBatchAnswersBeforeWaiting: check --batch writes each answer before
// it waits for more input, so a client that sends one request and waits
// for its answer is never left waiting, even when it has already sent the
// start of its next request. (Answers to requests that are queued already
// may share one write.)
func TestBatchAnswersBeforeWaiting(t *testing.T) {
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	errF, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "GUARD_EXEC_LEDGER_DIR=" + t.TempDir()}
	done := make(chan error, 1)
	go func() {
		done <- run(context.Background(), []string{"guard-exec", "check", "--json", "--batch"}, env,
			&stdio{in: inR, out: outW, err: errF})
		outW.Close()
	}()
	answers := bufio.NewReader(outR)
	ask := func(send, want string) {
		t.Helper()
		if _, err := inW.WriteString(send); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() {
			line, _ := answers.ReadString('\n')
			got <- line
		}()
		select {
		case line := <-got:
			var rep struct{ Verdict string }
			if err := json.Unmarshal([]byte(line), &rep); err != nil || rep.Verdict != want {
				t.Fatalf("after %q: answer %q (%v), want verdict %s", send, line, err, want)
			}
		case <-time.After(20 * time.Second): // a hang, not a speed limit
			t.Fatalf("after %q: no answer while guard-exec waits for input", send)
		}
	}
	ask(`{"command":"git status"}`+"\n", "allow")
	ask(`{"command":"git push --force origin main"}`+"\n"+`{"comm`, "hold")
	ask(`and":"rm -rf /"}`+"\n", "hold")
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
