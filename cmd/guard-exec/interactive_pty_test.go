package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/ledger"
)

// TestInteractiveApprovalRecordsTheRun: in the interactive guard, a held
// line the person approves with y is recorded as what happened: the
// approval carries the command, an exec record links to the approval, an
// exit record has the line's status, and show of the held decision says
// it ran and how it ended.
func TestInteractiveApprovalRecordsTheRun(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("needs a real bash")
	}
	home := t.TempDir()
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".state"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"HISTFILE=" + filepath.Join(home, "history"), "CI="}
	term := startOnTerminalEnv(t, env, installedGuard(t), "guard-exec")
	// Typed as RE""ADY, shown as READY only when the shell ran it.
	term.typeText("echo RE\"\"ADY\r")
	term.waitFor("READY")
	term.typeText("git push --force origin main; (exit 3)\r")
	term.waitFor("[y/N]")
	term.typeText("y\r")
	term.waitFor("fake git push --force origin main")
	term.typeText("echo DO\"\"NE\r")
	term.waitFor("DONE")
	term.typeText("exit\r")
	term.wait()

	led, err := ledger.Open(term.ledger, ledger.Options{Key: readKey(filepath.Join(home, ".config", "guard-exec", "ledger.key")),
		AnchorDir: filepath.Join(home, ".state", "guard-exec", "anchors")})
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := led.Tail(20)
	if err != nil {
		t.Fatal(err)
	}
	var dec, appr, run, exit *ledger.Record
	for i := range recs {
		switch r := &recs[i]; {
		case r.Kind == ledger.KindDecision && r.Verdict == "hold":
			dec = r
		case r.Kind == ledger.KindApproval:
			appr = r
		case r.Kind == ledger.KindExec:
			run = r
		case r.Kind == ledger.KindExit:
			exit = r
		}
	}
	if dec == nil || appr == nil || run == nil || exit == nil {
		t.Fatalf("want decision, approval, exec and exit records; got %+v\nscreen %q", recs, term.text())
	}
	if appr.Ref != dec.ID || appr.Command != dec.Command || appr.Command == "" || run.Ref != appr.ID ||
		run.Command != dec.Command || exit.ID != run.ID || exit.Exit == nil || *exit.Exit != 3 {
		t.Fatalf("records do not say what happened:\ndecision %+v\napproval %+v\nexec %+v\nexit %+v", dec, appr, run, exit)
	}

	show := exec.Command(installedGuard(t), "show", dec.ID)
	show.Env = append(append(os.Environ(), env...), "GUARD_EXEC_LEDGER_DIR="+term.ledger)
	out, err := show.CombinedOutput()
	if err != nil {
		t.Fatalf("show: %v\n%s", err, out)
	}
	for _, want := range []string{`(?m)^ran +yes, as ` + run.ID + `, approved by ` + appr.ID + `$`, `(?m)^exit +3\b`} {
		if !regexp.MustCompile(want).Match(out) {
			t.Errorf("show %s lacks %s:\n%s", dec.ID, want, out)
		}
	}
	if strings.Contains(string(out), "never ran") {
		t.Errorf("show says the approved line never ran:\n%s", out)
	}
}
