package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// terminal runs the installed guard-exec on the slave of a real pseudo-
// terminal, as a person at a terminal would: what the master reads is the
// screen, what the test writes to it is typing.
type terminal struct {
	t      *testing.T
	master *os.File
	slave  *os.File
	cmd    *exec.Cmd
	ledger string
	before unix.Termios // the terminal as it was before the guard started

	mu     sync.Mutex
	screen bytes.Buffer
	done   chan struct{}
}

func startTerminal(t *testing.T, args ...string) *terminal {
	t.Helper()
	return startOnTerminal(t, installedGuard(t), "guard-exec", args...)
}

// startOnTerminal runs path (as arg0) on a fresh pseudo-terminal.
func startOnTerminal(t *testing.T, path, arg0 string, args ...string) *terminal {
	t.Helper()
	return startOnTerminalEnv(t, nil, path, arg0, args...)
}

// startOnTerminalEnv is startOnTerminal with more environment variables.
func startOnTerminalEnv(t *testing.T, env []string, path, arg0 string, args ...string) *terminal {
	t.Helper()
	master, slave, err := pty.Open()
	if err != nil {
		t.Skip("no pseudo-terminal:", err)
	}
	pty.Setsize(master, &pty.Winsize{Rows: 24, Cols: 80})
	term := &terminal{t: t, master: master, slave: slave, done: make(chan struct{}),
		ledger: filepath.Join(t.TempDir(), "ledger")}
	term.cmd = exec.Command(path, args...)
	term.cmd.Args[0] = arg0
	// Never a real repository, never the real git: a held command that a
	// test lets through must not reach anything that matters.
	term.cmd.Dir = t.TempDir()
	term.cmd.Env = append(os.Environ(), "GUARD_EXEC_LEDGER_DIR="+term.ledger, "GUARD_EXEC_SESSION=pty",
		"TERM=xterm", "PATH="+fakeGit(t)+string(os.PathListSeparator)+os.Getenv("PATH"))
	term.cmd.Env = append(term.cmd.Env, env...)
	term.cmd.Stdin, term.cmd.Stdout, term.cmd.Stderr = slave, slave, slave
	term.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if tio, err := unix.IoctlGetTermios(int(slave.Fd()), ioctlGetTermios); err == nil {
		term.before = *tio // before the guard can change it
	}
	if err := term.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(term.done)
		b := make([]byte, 4096)
		for {
			n, err := master.Read(b)
			term.mu.Lock()
			term.screen.Write(b[:n])
			term.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		term.cmd.Process.Kill()
		master.Close()
		slave.Close()
	})
	return term
}

// waitFor waits until the screen shows s.
func (term *terminal) waitFor(s string) {
	term.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(term.text(), s) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	term.t.Fatalf("the screen never showed %q; it shows %q", s, term.text())
}

// waitAfter waits until the screen shows s after the last mark.
func (term *terminal) waitAfter(mark, s string) {
	term.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		text := term.text()
		if i := strings.LastIndex(text, mark); i >= 0 && strings.Contains(text[i+len(mark):], s) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	term.t.Fatalf("the screen never showed %q after %q; it shows %q", s, mark, term.text())
}

// waitForN waits until the screen shows s n times.
func (term *terminal) waitForN(s string, n int) {
	term.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Count(term.text(), s) >= n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	term.t.Fatalf("the screen never showed %q %d times; it shows %q", s, n, term.text())
}

func (term *terminal) text() string {
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.screen.String()
}

func (term *terminal) typeText(s string) {
	if _, err := term.master.WriteString(s); err != nil {
		term.t.Fatal(err)
	}
}

// wait returns the guard's exit status.
func (term *terminal) wait() int {
	term.t.Helper()
	err := term.cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errorsAs(err, &ee) {
		term.t.Fatal(err)
	}
	return term.cmd.ProcessState.ExitCode()
}

// waitSignal returns the signal the guard died by (0: it exited).
func (term *terminal) waitSignal() syscall.Signal {
	term.t.Helper()
	term.wait()
	if ws := term.cmd.ProcessState.Sys().(syscall.WaitStatus); ws.Signaled() {
		return ws.Signal()
	}
	return 0
}

func errorsAs(err error, target **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	if ok {
		*target = e
	}
	return ok
}

func TestPTYTerminalSeenByCommand(t *testing.T) {
	term := startTerminal(t, "-c", `test -t 0 && test -t 1 && test -t 2 && echo all-ttys; printf 'no-final-newline'; exit 3`)
	before := &term.before
	if code := term.wait(); code != 3 {
		t.Errorf("exit status %d, want 3", code)
	}
	term.waitFor("no-final-newline")
	if !strings.Contains(term.text(), "all-ttys") {
		t.Errorf("the command did not see a terminal: %q", term.text())
	}
	after, err := unix.IoctlGetTermios(int(term.slave.Fd()), ioctlGetTermios)
	if err != nil {
		t.Fatal(err)
	}
	if *before != *after {
		t.Errorf("the outer terminal was not restored:\nbefore %+v\nafter  %+v", *before, *after)
	}
	log, err := os.ReadFile(filepath.Join(term.ledger, "ledger.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), `"io":"pty"`) {
		t.Errorf("the exec record does not say pty: %s", log)
	}
}

func TestPTYTypedInputReachesRead(t *testing.T) {
	term := startTerminal(t, "-c", `echo ready; read -r line; echo "got:$line"`)
	term.waitFor("ready")
	term.typeText("hello there\r")
	if code := term.wait(); code != 0 {
		t.Errorf("exit status %d", code)
	}
	term.waitFor("got:hello there")
}

func TestPTYInterruptStopsCommandNotGuard(t *testing.T) {
	term := startTerminal(t, "-c", `echo sleeping; sleep 30`)
	term.waitFor("sleeping")
	term.typeText("\x03")
	if sig := term.waitSignal(); sig != syscall.SIGINT {
		t.Errorf("the guard ended by %v after ^C, want death by SIGINT as bash's", sig)
	}
	log, _ := os.ReadFile(filepath.Join(term.ledger, "ledger.jsonl"))
	if !strings.Contains(string(log), `"exit":130`) {
		t.Errorf("the guard did not survive to record the exit: %s", log)
	}
}

func TestPTYHeldCommandAsksAtTerminal(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	term := startTerminal(t, "-c", "git push --force origin main; touch "+marker)
	term.waitFor("[y/N]")
	term.typeText("n\r")
	if code := term.wait(); code != exitBlocked {
		t.Errorf("exit status %d after answering no, want %d", code, exitBlocked)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the held command ran after the person said no")
	}
	// one hold message per hold: after the no, one line, and no offer to
	// approve what the person just refused
	term.waitFor("not run (answered no)")
	screen := term.text()
	if n := strings.Count(screen, "hint: "); n != 1 {
		t.Errorf("the hold's hint was printed %d times, want once: %q", n, screen)
	}
	if strings.Contains(screen, "guard-exec approve") {
		t.Errorf("after a no the hold offers approval: %q", screen)
	}
}

func TestPTYHeldCommandRunsWhenPersonSaysYes(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	// git is a fake that only prints; the marker shows the line ran after
	// the yes.
	term := startTerminal(t, "-c", "git push --force origin main; touch "+marker)
	term.waitFor("[y/N]")
	term.typeText("y\r")
	term.wait()
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the approved command did not run: %v; screen %q", err, term.text())
	}
	term.waitFor("fake git push --force origin main")
	log, _ := os.ReadFile(filepath.Join(term.ledger, "ledger.jsonl"))
	if !strings.Contains(string(log), `"kind":"approval"`) {
		t.Errorf("the approval was not recorded: %s", log)
	}
}

// fakeGit is a directory holding a git that only says it ran.
func fakeGit(t *testing.T) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "git"), []byte("#!/bin/sh\necho \"fake git $*\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// interactiveBash is a person's bash on a terminal, with guard-exec on PATH.
func interactiveBash(t *testing.T) *terminal {
	t.Helper()
	term := startOnTerminal(t, realBashOnPath(t), "bash", "--norc", "--noprofile", "-i")
	// Markers are computed, so that the echo of what was typed does not match.
	term.typeText("PS1='$ '; echo shell-$((6*7))\r")
	term.waitFor("shell-42")
	return term
}

// TestPTYCtrlCEndsLoop: ^C in a loop of guarded commands ends the loop, as it
// does for a loop of bash -c: the guard dies by the SIGINT its command died by.
func TestPTYCtrlCEndsLoop(t *testing.T) {
	term := interactiveBash(t)
	term.typeText(`for i in 1 2 3; do guard-exec -c "echo run-$((i*11)); sleep 20"; done; echo loop-$((0))over` + "\r")
	term.waitFor("run-11")
	term.typeText("\x03")
	term.waitForN("\x1b[?2004h$ ", 2) // a second prompt: the loop is over
	term.typeText("echo after-$?\r")
	term.waitFor("after-130")
	if strings.Contains(term.text(), "run-22") || strings.Contains(term.text(), "loop-0over") {
		t.Errorf("the loop went on after ^C: %q", term.text())
	}
	term.typeText("exit\r")
	term.wait()
}

// TestPTYCtrlZAndFg: ^Z stops a guarded command and its guard together, the
// shell gets its prompt back, and fg resumes both.
func TestPTYCtrlZAndFg(t *testing.T) {
	term := interactiveBash(t)
	term.typeText(`guard-exec -c 'echo started-$((2*2)); sleep 1; echo resumed-$((3*3))'` + "\r")
	term.waitFor("started-4")
	term.typeText("\x1a")
	term.waitFor("Stopped")
	term.typeText("echo at-$((1+1))\r")
	term.waitFor("at-2")
	term.typeText("fg\r")
	term.waitFor("resumed-9")
	// Type at the next prompt, as a person does: keystrokes typed before the
	// guarded command ended are the command's, as they would be under bash.
	term.waitAfter("resumed-9", "$ ")
	term.typeText("echo fg-$?-$((5+5))\r")
	term.waitFor("fg-0-10")
	term.typeText("exit\r")
	term.wait()
}
