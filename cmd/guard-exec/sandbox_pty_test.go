package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/internal/sandbox"
)

// TestPTYSandboxed: under a pty the sandboxed command has its terminal
// (opening /dev/tty, window size, modes) and the kernel still refuses a
// write outside the roots.
func TestPTYSandboxed(t *testing.T) {
	if sandbox.ABI() == 0 {
		t.Skip("no Landlock in this kernel")
	}
	outside := filepath.Join(t.TempDir(), "outside")
	term := startTerminal(t, "--sandbox=write", "-c",
		`test -t 0 && test -t 1 && echo all-ttys; echo to-tty > /dev/tty; stty size; stty -echo && stty echo && echo modes-ok; `+
			`(echo x > "$1") 2>/dev/null || echo refused; exit 4`, "sh", outside)
	if code := term.wait(); code != 4 {
		t.Errorf("exit status %d, want 4", code)
	}
	term.waitFor("refused")
	for _, want := range []string{"all-ttys", "to-tty", "24 80", "modes-ok"} {
		if !strings.Contains(term.text(), want) {
			t.Errorf("missing %q on the terminal: %q", want, term.text())
		}
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("the write outside the roots happened")
	}
	log, _ := os.ReadFile(filepath.Join(term.ledger, "ledger.jsonl"))
	if !strings.Contains(string(log), `"io":"pty"`) || !strings.Contains(string(log), `"sandbox":"write"`) {
		t.Errorf("the exec record does not say pty and sandbox: %s", log)
	}
}
