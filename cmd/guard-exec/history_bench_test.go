package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/ledger"
)

// BenchmarkLoopHistory is the loop brake's whole lookup as a command pays
// it (policy.History.RepeatedFailures), over an empty ledger and over one
// of 100,000 records built once with Append. "miss" is the common case:
// the command did not fail lately, so the session's last commands are read
// and nothing more. "streak" is the rare one: the command failed twice, so
// the commands in between are parsed and the project is walked.
func BenchmarkLoopHistory(b *testing.B) {
	project := b.TempDir()
	for i := 0; i < 200; i++ {
		p := filepath.Join(project, fmt.Sprintf("pkg%02d", i%20), fmt.Sprintf("f%03d.go", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("package x\n"), 0o644)
	}
	empty, err := ledger.Open(b.TempDir(), ledger.Options{})
	if err != nil {
		b.Fatal(err)
	}
	full := benchHistoryLedger(b, project, 100_000)
	for _, c := range []struct {
		name    string
		led     *ledger.Ledger
		command string
	}{
		{"empty", empty, "go test ./..."},
		{"records=100000/miss", full, "go build ./cmd/never-run"},
		{"records=100000/streak", full, "go test ./pkg07/..."},
	} {
		b.Run(c.name, func(b *testing.B) {
			h := newLedgerHistory(c.led, project, []string{c.led.Dir()}, nil)
			var ids []string
			for b.Loop() {
				ids, err = h.RepeatedFailures("session-1", c.command, project, 2)
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(ids)), "held")
		})
	}
}

// benchHistoryLedger appends n records as two agent sessions would leave
// them: exec and exit pairs of everyday commands with digests of about
// 1.5 KiB, and at the end two failures of one test command with reads in
// between.
func benchHistoryLedger(b *testing.B, cwd string, n int) *ledger.Ledger {
	b.Helper()
	led, err := ledger.Open(b.TempDir(), ledger.Options{})
	if err != nil {
		b.Fatal(err)
	}
	digest := strings.Repeat("--- FAIL: TestSomething (0.01s)\n    x_test.go:42: got 3, want 4\n", 24)
	add := func(session, cmd string, code int) {
		id, err := led.Append(&ledger.Record{Kind: ledger.KindExec, Session: session, Cwd: cwd, Project: cwd,
			Mode: "shell", IO: "pipe", Command: cmd, Raw: cmd, Verdict: "allow", Enforce: "enforce"})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := led.Append(&ledger.Record{Kind: ledger.KindExit, ID: id, Exit: &code, DurationMS: 812.5,
			Stdout: &ledger.StreamInfo{Bytes: 1500, SHA256: strings.Repeat("ab", 32)},
			Stderr: &ledger.StreamInfo{SHA256: strings.Repeat("cd", 32)}, Digest: digest}); err != nil {
			b.Fatal(err)
		}
	}
	cmds := []string{"go test ./...", "cat internal/x/file.go", "rg -n 'func Tail' ledger", "git status", "go vet ./..."}
	for i := 0; i < n/2-4; i++ {
		add(fmt.Sprint("session-", i%2), cmds[i%len(cmds)], i%3%2)
	}
	add("session-1", "go test ./pkg07/...", 1)
	add("session-1", "cat pkg07/f007.go", 0)
	add("session-1", "go test ./pkg07/...", 1)
	add("session-1", "git diff", 0)
	return led
}
