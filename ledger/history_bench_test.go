package ledger

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkSessionRuns is the loop brake's lookup, asked on every command:
// it must cost the same whatever the ledger holds. The case measured is the
// common and the costliest one: a command the session has not run lately,
// so the brake reads back over the session's last 24 commands (its bound)
// and finds nothing. "window" reads the whole RunWindow, the bound for any
// caller.
func BenchmarkSessionRuns(b *testing.B) {
	empty, err := Open(b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("empty", func(b *testing.B) { benchLookup(b, empty, 24) })
	for _, n := range []int{1_000, 100_000} {
		l := benchLedger(b, n)
		b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) { benchLookup(b, l, 24) })
		b.Run(fmt.Sprintf("records=%d/window", n), func(b *testing.B) { benchLookup(b, l, 1<<30) })
	}
}

func benchLookup(b *testing.B, l *Ledger, max int) {
	fp := l.StoredCommand("go test ./never/run/...")
	runs := 0
	for b.Loop() {
		runs = 0
		_, err := l.SessionRuns("session-1", func(r Run) bool {
			runs++
			return !(r.Command == fp && r.Cwd == "/home/dev/project") && runs < max
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(runs), "runs/op")
}

// benchLedger appends n records (exec and exit pairs) of the sizes agents
// produce: short commands, digests of about 1.5 KiB, two sessions.
func benchLedger(b *testing.B, n int) *Ledger {
	b.Helper()
	l, err := Open(b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	cmds := []string{"go test ./...", "cat internal/x/file.go", "rg -n 'func Tail' ledger", "git status", "go vet ./..."}
	digest := strings.Repeat("--- FAIL: TestSomething (0.01s)\n    x_test.go:42: got 3, want 4\n", 24)
	for i := 0; i < n/2; i++ {
		id, err := l.Append(&Record{Kind: KindExec, Session: fmt.Sprint("session-", i%2), Cwd: "/home/dev/project",
			Project: "/home/dev/project", Mode: "shell", IO: "pipe", Command: cmds[i%len(cmds)], Raw: cmds[i%len(cmds)],
			Verdict: "allow", Enforce: "enforce"})
		if err != nil {
			b.Fatal(err)
		}
		code := i % 3 % 2
		if _, err := l.Append(&Record{Kind: KindExit, ID: id, Exit: &code, DurationMS: 812.5,
			Stdout: &StreamInfo{Bytes: 1500, SHA256: strings.Repeat("ab", 32)},
			Stderr: &StreamInfo{Bytes: 0, SHA256: strings.Repeat("cd", 32)}, Digest: digest}); err != nil {
			b.Fatal(err)
		}
	}
	return l
}
