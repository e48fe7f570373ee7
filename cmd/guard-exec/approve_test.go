package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/guard-exec/guard-exec/ledger"
)

// approveWorld is a throwaway home, project and ledger with two user
// rules: deploy-prod is held, deploy-nuke is denied. The fake programs
// append a line to a marker file each time they really run.
type approveWorld struct {
	t         *testing.T
	exe, work string
	env       []string
}

const approveConfig = `[[rule]]
id = "hold-deploy"
command = "deploy-prod"
severity = "hold"
message = "deploys to production"

[[rule]]
id = "deny-nuke"
command = "deploy-nuke"
severity = "deny"
message = "destroys production"
`

func newApproveWorld(t *testing.T) *approveWorld {
	if insideGuardedCommand(nil) {
		t.Skip("running inside a guarded command: approve refuses there by design")
	}
	exe, err := exec.LookPath("guard-exec") // testscript.Main put it on PATH
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	w := &approveWorld{t: t, exe: exe, work: work}
	home := filepath.Join(work, "home")
	bin := filepath.Join(work, "bin")
	for _, d := range []string{filepath.Join(home, ".config", "guard-exec"), bin, filepath.Join(work, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.write(filepath.Join(home, ".config", "guard-exec", "config.toml"), approveConfig, 0o644)
	for _, p := range []string{"deploy-prod", "deploy-nuke"} {
		w.write(filepath.Join(bin, p), "#!/bin/sh\necho "+p+" >> \""+filepath.Join(work, "ran")+"\"\n", 0o755)
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GUARD_EXEC_") || strings.HasPrefix(k, "XDG_") ||
			k == "HOME" || k == "PATH" || k == "CI" {
			// CI=true (as a CI job sets it) means nobody can approve;
			// this world has a person at a terminal.
			continue
		}
		w.env = append(w.env, kv)
	}
	w.env = append(w.env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "XDG_STATE_HOME="+filepath.Join(home, ".state"),
		"GUARD_EXEC_LEDGER_DIR="+filepath.Join(work, "ledger"), "GUARD_EXEC_SESSION=approve-test",
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return w
}

func (w *approveWorld) write(path, data string, mode os.FileMode) {
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		w.t.Fatal(err)
	}
}

// runs is how many times the fake programs really ran.
func (w *approveWorld) runs() int {
	b, err := os.ReadFile(filepath.Join(w.work, "ran"))
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		w.t.Fatal(err)
	}
	return bytes.Count(b, []byte("\n"))
}

// guard runs guard-exec -c script in dir with pipes, as an agent would.
func (w *approveWorld) guard(dir, script string) (stderr string, code int) {
	w.t.Helper()
	cmd := exec.Command(w.exe, "-c", script)
	cmd.Dir, cmd.Env = dir, w.env
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		w.t.Fatal(err)
	}
	return errb.String(), code
}

var approveHint = regexp.MustCompile(`guard-exec approve (ev-[0-9]+)`)

// held runs a command that must be held and returns its decision id.
func (w *approveWorld) held(dir, script string) string {
	w.t.Helper()
	stderr, code := w.guard(dir, script)
	m := approveHint.FindStringSubmatch(stderr)
	if code != exitBlocked || m == nil {
		w.t.Fatalf("%s: exit %d, want a hold naming an approval; stderr:\n%s", script, code, stderr)
	}
	return m[1]
}

// key is the world's user key, as the guard made it.
func (w *approveWorld) key() []byte {
	k := readKey(filepath.Join(w.work, "home", ".config", "guard-exec", "ledger.key"))
	if k == nil {
		w.t.Fatal("no user key")
	}
	return k
}

// ledgerOpts open the world's ledger as the guard does.
func (w *approveWorld) ledgerOpts() ledger.Options {
	return ledger.Options{Key: w.key(), AnchorDir: filepath.Join(w.work, "home", ".state", "guard-exec", "anchors")}
}

// approve runs `guard-exec approve id` on a pseudo-terminal, as a person
// would, answering the question with answer (or nothing when the command
// must refuse before asking). It returns what the terminal showed and the
// exit status.
func (w *approveWorld) approve(id, answer string) (string, int) {
	w.t.Helper()
	cmd := exec.Command(w.exe, "approve", id)
	cmd.Dir, cmd.Env = w.work, w.env
	tty, err := pty.Start(cmd)
	if err != nil {
		w.t.Skipf("no pseudo-terminal: %v", err)
	}
	defer tty.Close()
	var mu sync.Mutex
	var out bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			mu.Lock()
			out.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	if answer != "" {
		// A generous deadline only keeps a broken build from hanging the
		// test; nothing is asserted about time.
		deadline := time.Now().Add(30 * time.Second)
		for {
			mu.Lock()
			asked := strings.Contains(out.String(), "[y/N] ")
			mu.Unlock()
			if asked {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				w.t.Fatalf("approve never asked; the terminal showed:\n%s", out.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
		if _, err := tty.Write([]byte(answer + "\r")); err != nil {
			w.t.Fatal(err)
		}
	}
	err = cmd.Wait()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		w.t.Fatal(err)
	}
	// Drain to EIO before closing: closing the master first drops what
	// the command wrote and the reader has not taken yet.
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		tty.Close()
		<-done
	}
	mu.Lock()
	defer mu.Unlock()
	return out.String(), code
}

// TestApproveAtTerminal is the whole approval path with a person on a
// pseudo-terminal: a held command, approved once, runs once; the next
// retry is held again; an expired approval, an approval for another
// directory, a "no" and a denial never let anything run.
func TestApproveAtTerminal(t *testing.T) {
	w := newApproveWorld(t)

	id := w.held(w.work, "deploy-prod")
	if w.runs() != 0 {
		t.Fatal("the held command ran")
	}
	screen, code := w.approve(id, "y")
	t.Logf("terminal:\n%s", screen)
	if code != 0 {
		t.Fatalf("approve exit %d; terminal:\n%s", code, screen)
	}
	for _, want := range []string{
		"guard-exec: " + id + " was held by hold-deploy: deploys to production",
		"guard-exec: directory: " + w.work,
		"guard-exec: command: deploy-prod",
		"approved " + id + " as ev-",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("the terminal did not show %q:\n%s", want, screen)
		}
	}

	// The retry runs, once, and says why.
	stderr, code := w.guard(w.work, "deploy-prod")
	if code != 0 || w.runs() != 1 || !strings.Contains(stderr, "guard-exec: approved: hold-deploy: running it once (approval ev-") {
		t.Fatalf("approved retry: exit %d, runs %d, stderr:\n%s", code, w.runs(), stderr)
	}
	// The exec record names the approval, which names the decision.
	led, err := ledger.Open(filepath.Join(w.work, "ledger"), w.ledgerOpts())
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := led.Tail(10)
	if err != nil {
		t.Fatal(err)
	}
	var appr, run *ledger.Record
	for i := range recs {
		switch r := &recs[i]; r.Kind {
		case ledger.KindApproval:
			appr = r
		case ledger.KindExec:
			run = r
		}
	}
	if appr == nil || run == nil || appr.Ref != id || run.Ref != appr.ID || appr.Command != "deploy-prod" ||
		appr.Cwd != w.work || appr.Expires == "" || run.Verdict != "hold" {
		t.Fatalf("records do not link decision → approval → run: approval %+v, run %+v", appr, run)
	}

	// A second retry is held again.
	again := w.held(w.work, "deploy-prod")
	if w.runs() != 1 {
		t.Fatal("the approval was used twice")
	}

	// An expired approval is no approval.
	past := time.Now().Add(-time.Minute)
	expired := &ledger.Record{Kind: ledger.KindApproval, Ref: again, Mode: "approve",
		Cwd: w.work, Command: "deploy-prod", Verdict: "hold", Expires: ledger.FormatTime(past)}
	expired.Auth = ledger.ApprovalMAC(w.key(), expired)
	if _, err := led.Append(expired); err != nil {
		t.Fatal(err)
	}
	w.held(w.work, "deploy-prod")

	// An approval holds for its directory only.
	id = w.held(w.work, "deploy-prod")
	if _, code := w.approve(id, "y"); code != 0 {
		t.Fatal("second approval failed")
	}
	w.held(filepath.Join(w.work, "sub"), "deploy-prod")
	// (and is still there for its own directory)
	if _, code := w.guard(w.work, "deploy-prod"); code != 0 || w.runs() != 2 {
		t.Fatalf("the approval for its own directory did not apply: exit %d runs %d", code, w.runs())
	}

	// "no" approves nothing.
	id = w.held(w.work, "deploy-prod")
	if screen, code := w.approve(id, "n"); code != 1 || !strings.Contains(screen, "not approved") {
		t.Fatalf("declined: exit %d, terminal:\n%s", code, screen)
	}
	w.held(w.work, "deploy-prod")

	// A denial can never be approved; approve says so without asking.
	stderr, code = w.guard(w.work, "deploy-nuke")
	if code != exitBlocked || !strings.Contains(stderr, "guard-exec: denied: deny-nuke:") {
		t.Fatalf("deny: exit %d, stderr:\n%s", code, stderr)
	}
	recs, _, _ = led.Tail(1)
	if len(recs) != 1 || recs[0].Kind != ledger.KindDecision || recs[0].Verdict != "deny" {
		t.Fatalf("no deny decision recorded: %+v", recs)
	}
	screen, code = w.approve(recs[0].ID, "")
	if code != exitGuardFailed || !strings.Contains(screen, "was denied; denied commands never run") || strings.Contains(screen, "[y/N]") {
		t.Fatalf("approving a denial: exit %d, terminal:\n%s", code, screen)
	}
	if w.runs() != 2 {
		t.Fatalf("runs %d, want 2", w.runs())
	}
}

// TestApprovalFarBack: an approval followed by more records than the
// first read-back step is still found, and a used one is not.
func TestApprovalFarBack(t *testing.T) {
	dir := t.TempDir()
	g := newGuard([]string{"HOME=" + dir, "GUARD_EXEC_LEDGER_DIR=" + filepath.Join(dir, "ledger")},
		&stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr})
	led, err := g.book()
	if err != nil {
		t.Fatal(err)
	}
	add := func(r *ledger.Record) string {
		id, err := led.Append(r)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	dec := add(&ledger.Record{Kind: ledger.KindDecision, Cwd: dir, Command: "deploy-prod", Verdict: "hold"})
	// A forged approval, not authenticated with the user's key, is no
	// approval (the retry of a forged line used to run).
	forged := &ledger.Record{Kind: ledger.KindApproval, Ref: dec, Cwd: dir, Command: "deploy-prod",
		Verdict: "hold", Expires: ledger.FormatTime(time.Now().Add(approvalTTL))}
	add(forged)
	if got := g.approvedOnce(&ledger.Record{Cwd: dir, Command: "deploy-prod"}); got != "" {
		t.Fatalf("a forged approval was taken: %s", got)
	}
	ar := &ledger.Record{Kind: ledger.KindApproval, Ref: dec, Cwd: dir, Command: "deploy-prod",
		Verdict: "hold", Expires: ledger.FormatTime(time.Now().Add(approvalTTL))}
	ar.Auth = ledger.ApprovalMAC(g.key(), ar)
	// An authenticated approval for another command or directory is none.
	other := *ar
	other.Command, other.Auth = "deploy-prod --all", ar.Auth
	add(&other)
	appr := add(ar)
	for range 700 {
		add(&ledger.Record{Kind: ledger.KindExec, Cwd: dir, Command: "make test", Verdict: "allow"})
	}
	held := &ledger.Record{Cwd: dir, Command: "deploy-prod"}
	if got := g.approvedOnce(held); got != appr {
		t.Fatalf("approval %q, want %s", got, appr)
	}
	add(&ledger.Record{Kind: ledger.KindExec, Cwd: dir, Command: "deploy-prod", Verdict: "hold", Ref: appr})
	if got := g.approvedOnce(held); got != "" {
		t.Fatalf("a used approval was found again: %s", got)
	}
}
