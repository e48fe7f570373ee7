package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/guard-exec/guard-exec/ledger"
)

// TestSelfApprovalRefused replays an agent approving its own hold: a
// guarded command copies guard-exec under another name and runs it under
// `env -i … setsid script -qfc` in a background subshell (no mark in the
// environment, reparented away from the guard), answering the question
// from a file. The terminal is opened after the hold in one run and before
// it in the other; neither records an approval, and the retry stays held.
func TestSelfApprovalRefused(t *testing.T) {
	if _, err := os.Stat("/usr/bin/script"); err != nil {
		t.Skip("no script(1)")
	}
	w := newApproveWorld(t)
	// A copy elsewhere (the test binary answers to the name guard-exec
	// only, so the copy keeps the name; the self-command rule is not what
	// this test is about).
	if err := os.Mkdir(filepath.Join(w.work, "copy"), 0o755); err != nil {
		t.Fatal(err)
	}
	ge := filepath.Join(w.work, "copy", "guard-exec")
	exe, err := os.ReadFile(w.exe)
	if err != nil {
		t.Fatal(err)
	}
	w.write(ge, string(exe), 0o755)
	w.write(filepath.Join(w.work, "yfile"), "y\ny\n", 0o644)
	// The copy must find the key and the ledger: a script the agent writes
	// once its command has passed the check sets what it needs.
	var keep strings.Builder
	for _, kv := range w.env {
		if k, _, _ := strings.Cut(kv, "="); k == "HOME" || strings.HasPrefix(k, "XDG_") || k == "GUARD_EXEC_LEDGER_DIR" {
			fmt.Fprintf(&keep, "export %s\n", shellQuote(kv))
		}
	}
	helper := keep.String() + "exec " + ge + " \"$@\"\n"
	// go tells the waiting terminal which id to approve.
	signal := func(id string) {
		w.write(filepath.Join(w.work, "ge.sh"), helper, 0o755)
		w.write(filepath.Join(w.work, "id.tmp"), id+"\n", 0o644)
		if err := os.Rename(filepath.Join(w.work, "id.tmp"), filepath.Join(w.work, "id")); err != nil {
			t.Fatal(err)
		}
	}
	inner := func() string {
		return "while [ ! -s id ]; do sleep 0.05; done; sh ./ge.sh approve $(cat id); echo \"status=$?.\""
	}
	hostile := func(inner, out string) string {
		return fmt.Sprintf("( exec env -i PATH=/usr/bin:/bin setsid script -qfc %s /dev/null < yfile > %s 2>&1 & )",
			shellQuote(inner), out)
	}
	// wait returns the copy's exit status and what its terminal showed.
	wait := func(out string) (string, string) {
		t.Helper()
		status := regexp.MustCompile(`status=([0-9]+)\.`)
		deadline := time.Now().Add(30 * time.Second) // only keeps a broken build from hanging
		for {
			o, _ := os.ReadFile(filepath.Join(w.work, out))
			if m := status.FindSubmatch(o); m != nil {
				return string(m[1]), string(o)
			}
			if time.Now().After(deadline) {
				t.Fatalf("the replay never finished; it showed:\n%s", o)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	approvals := func() int {
		led, err := ledger.Open(filepath.Join(w.work, "ledger"), w.ledgerOpts())
		if err != nil {
			t.Fatal(err)
		}
		recs, _, err := led.Tail(100)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range recs {
			if r.Kind == ledger.KindApproval {
				n++
			}
		}
		return n
	}
	refused := func(name, rc, out string) {
		t.Helper()
		t.Logf("%s: exit %s, terminal:\n%s", name, rc, out)
		if rc == "0" || strings.Contains(out, "approved ev-") || approvals() != 0 {
			t.Fatalf("%s: the agent approved its own hold (exit %s):\n%s", name, rc, out)
		}
		if !strings.Contains(out, "guarded command") && !strings.Contains(out, "the guard runs") &&
			!strings.Contains(out, "opened after the command was held") {
			t.Fatalf("%s: refused, but not for whose terminal it is:\n%s", name, out)
		}
		w.held(w.work, "deploy-prod")
		if w.runs() != 0 {
			t.Fatalf("%s: the held command ran", name)
		}
	}

	// A terminal opened after the hold.
	id := w.held(w.work, "deploy-prod")
	if stderr, code := w.guard(w.work, hostile(inner(), "out1")); code != 0 {
		t.Fatalf("the replay did not run (exit %d):\n%s", code, stderr)
	}
	signal(id)
	rc, out := wait("out1")
	refused("after the hold", rc, out)
	for _, f := range []string{"id", "ge.sh"} {
		if err := os.Remove(filepath.Join(w.work, f)); err != nil {
			t.Fatal(err)
		}
	}

	// A terminal a guarded command opened before the hold, waiting for the
	// id: its start time says nothing, its lineage does.
	if stderr, code := w.guard(w.work, hostile(inner(), "out2")); code != 0 {
		t.Fatalf("the replay did not run (exit %d):\n%s", code, stderr)
	}
	// More than the second of slack the start-time check allows, so that
	// only the lineage can refuse.
	time.Sleep(1100 * time.Millisecond)
	signal(w.held(w.work, "deploy-prod"))
	rc, out = wait("out2")
	refused("before the hold", rc, out)
	if strings.Contains(out, "opened after the command was held") {
		t.Fatalf("refused by the start time, not the lineage:\n%s", out)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
