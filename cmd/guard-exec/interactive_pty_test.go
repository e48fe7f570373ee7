package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/guard-exec/guard-exec/internal/sandbox"
	"github.com/guard-exec/guard-exec/ledger"
	"github.com/guard-exec/guard-exec/shim"
)

// TestInteractiveApprovalRecordsTheRun: in the interactive guard, a held
// line the person approves with y is recorded as what happened: the
// approval carries the command, an exec record links to the approval, an
// exit record has the line's status, and show of the held decision says
// it ran and how it ended.
//
// In the kernel sandbox the same holds: the shell and its hook run inside,
// where the ledger is read-only and the key unreadable, and the guard
// outside records what the hook hands it (recorder.go).
func TestInteractiveApprovalRecordsTheRun(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("needs a real bash")
	}
	t.Run("unsandboxed", func(t *testing.T) { interactiveApproval(t, "") })
	for _, mode := range []string{"write", "strict"} {
		// strict gives the shell a network namespace of its own: the
		// recorder's socket is a path, which reaches across it.
		t.Run("sandboxed-"+mode, func(t *testing.T) {
			if sandbox.ABI() == 0 {
				t.Skip("no Landlock in this kernel")
			}
			interactiveApproval(t, mode)
		})
	}
}

// TestInteractiveSandboxedShellOwnsTheTerminal: with the guard staying
// outside the sandbox as the shell's parent, the shell is still the
// terminal's job-control shell: ^C ends the command, not the shell or the
// guard; ^Z stops it and gives the prompt back; the guard ends with the
// shell's status.
func TestInteractiveSandboxedShellOwnsTheTerminal(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("needs a real bash")
	}
	if sandbox.ABI() == 0 {
		t.Skip("no Landlock in this kernel")
	}
	env := interactiveHome(t, "write")
	term := startOnTerminalEnv(t, env, installedGuard(t), "guard-exec")
	term.typeText("echo RE\"\"ADY\r")
	term.waitFor("READY")
	term.typeText("echo go-$((1+1)); sleep 30\r")
	term.waitFor("go-2")
	waitBelow(t, term.cmd.Process.Pid, "sleep")
	term.typeText("\x03")
	term.waitAfter("go-2", "\x1b[?2004h") // the next prompt
	term.typeText("echo st-$?-$((2*3))\r")
	term.waitFor("st-130-6")
	term.typeText("echo go-$((2+2)); sleep 30\r")
	term.waitFor("go-4")
	waitBelow(t, term.cmd.Process.Pid, "sleep")
	term.typeText("\x1a")
	term.waitFor("Stopped")
	term.typeText("kill %1; wait; echo k-$((1+1))\r")
	term.waitFor("k-2")
	term.typeText("exit 7\r")
	if code := term.wait(); code != 7 {
		t.Errorf("the guard ended with %d, want the shell's 7; screen %q", code, term.text())
	}

}

// waitBelow waits until a process named name runs below pid, so that a
// key typed next reaches it and not the shell that is starting it.
func waitBelow(t *testing.T, pid int, name string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		for _, p := range descendants(pid) {
			if b, err := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/comm"); err == nil && strings.TrimSpace(string(b)) == name {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no %s started below %d", name, pid)
}

// interactiveHome is the environment of a person's own home for the
// interactive guard, with the sandbox in sandboxMode ("" for none).
func interactiveHome(t *testing.T, sandboxMode string) []string {
	home := t.TempDir()
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".state"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"HISTFILE=" + filepath.Join(home, "history"), "CI="}
	if sandboxMode != "" {
		dir := filepath.Join(home, ".config", "guard-exec")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte("[sandbox]\nmode = \""+sandboxMode+"\"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return env
}

func interactiveApproval(t *testing.T, sandboxMode string) {
	env := interactiveHome(t, sandboxMode)
	home := strings.TrimPrefix(env[0], "HOME=")
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
	if _, err := exec.LookPath("perl"); sandboxMode != "" && err == nil {
		// A program in the shell that finds the recorder's socket and
		// sends it a record of its own is refused.
		term.typeText(`perl -MIO::Socket::UNIX -e '($p) = glob("$ENV{XDG_STATE_HOME}/guard-exec/shells/*.sock"); ` +
			`$s = IO::Socket::UNIX->new(Peer => $p) or die "no socket: $!\n"; ` +
			`print $s qq({"op":"append","dir":"/","record":{"kind":"decision","verdict":"allow","command":"forged"}}\n); print "reply: ", <$s>'` + "\r")
		term.waitFor("only the hook of this shell's guard records here")
	}
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
	if run.Sandbox != sandboxMode {
		t.Errorf("the run's record says sandbox %q, want %q", run.Sandbox, sandboxMode)
	}
	if strings.Contains(term.text(), "not recorded") || strings.Contains(term.text(), "cannot record") {
		t.Errorf("the shell says its lines are not recorded: %q", term.text())
	}
	for _, r := range recs {
		if r.Command == "forged" {
			t.Errorf("a record sent by another program was kept: %+v", r)
		}
	}
	if rep, err := led.Verify(); err != nil || !rep.OK {
		t.Errorf("verifying what the shell recorded: %+v %v", rep, err)
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

// TestInteractiveSandboxedShellSuspends: bash's suspend in the sandboxed
// shell stops its guard too, so the shell that started the guard gets its
// prompt back, and fg gives the terminal to the guarded shell again.
func TestInteractiveSandboxedShellSuspends(t *testing.T) {
	if sandbox.ABI() == 0 {
		t.Skip("no Landlock in this kernel")
	}
	term := startOnTerminalEnv(t, interactiveHome(t, "write"), realBashOnPath(t), "bash", "--norc", "--noprofile", "-i")
	term.typeText("PS1='outer$ '; echo outer-$((6*7))\r")
	term.waitFor("outer-42")
	term.typeText("guard-exec\r")
	term.typeText("PS1='inner$ '; echo inner-$((2*3))\r")
	term.waitFor("inner-6")
	term.typeText("suspend\r")
	term.waitFor("Stopped")
	term.typeText("echo at-outer-$((1+1))\r")
	term.waitFor("at-outer-2")
	term.typeText("fg\r")
	term.typeText("echo back-$((1+2))-$$\r")
	term.waitFor("back-3")
	term.typeText("exit\r")
	term.typeText("echo done-$((4+4))\r")
	term.waitFor("done-8")
	term.typeText("exit\r")
	term.wait()
}

// TestInteractiveInterruptedJudgementSkipsTheLine: a line whose judgement
// is cut short by ^C (the hook dies by SIGINT: status 130) does not run,
// while a guard that cannot judge for another reason (status 1) lets the
// line run with a warning, so nobody is locked out of their shell.
func TestInteractiveInterruptedJudgementSkipsTheLine(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("needs a real bash")
	}
	dir := t.TempDir()
	for name, body := range map[string]string{
		// Only the line that touches the marker is cut short (or fails):
		// the others, exit among them, are allowed.
		"interrupted": "#!/bin/sh\ncase \"$*\" in *touch*) kill -INT $$ ;; esac\nexit 0\n",
		"broken":      "#!/bin/sh\ncase \"$*\" in *touch*) exit 1 ;; esac\nexit 0\n",
	} {
		hook := filepath.Join(dir, name)
		if err := os.WriteFile(hook, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		rc := filepath.Join(dir, name+".rc")
		inv := &shim.Invocation{Shell: "bash", ShellOpts: []string{"--norc"}}
		if err := os.WriteFile(rc, []byte(interactiveRC(hook, inv, 9, false, shellPlumbing{})), 0o644); err != nil {
			t.Fatal(err)
		}
		marker := filepath.Join(dir, name+".ran")
		term := startOnTerminalEnv(t, []string{"HISTFILE=" + filepath.Join(dir, name+".hist")}, realBashOnPath(t), "bash", "--rcfile", rc, "-i")
		term.typeText("touch " + marker + "; echo li-$((3*3))ne\r")
		term.typeText("echo do-$((5*5))ne\r")
		term.typeText("exit\r")
		term.wait()
		_, err := os.Stat(marker)
		switch name {
		case "interrupted":
			if err == nil {
				t.Errorf("the line ran although its judgement was interrupted: %q", term.text())
			}
		case "broken":
			if err != nil || !strings.Contains(term.text(), "could not judge this line (status 1)") {
				t.Errorf("a guard that cannot judge locked the line out (ran: %v): %q", err == nil, term.text())
			}
		}
	}
}
