package shim

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runScript runs `bash -c script` with Run; stdout and stderr go to files whose
// contents are returned.
func runScript(t *testing.T, spec Spec, script string) (*Result, string, string) {
	t.Helper()
	bash := realBash(t)
	dir := t.TempDir()
	out, err := os.Create(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	errf, err := os.Create(filepath.Join(dir, "err"))
	if err != nil {
		t.Fatal(err)
	}
	defer errf.Close()
	spec.Path, spec.Argv = bash, []string{"bash", "-c", script}
	if spec.Stdout == nil {
		spec.Stdout = out
	}
	if spec.Stderr == nil {
		spec.Stderr = errf
	}
	res, err := Run(context.Background(), &spec)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := os.ReadFile(out.Name())
	e, _ := os.ReadFile(errf.Name())
	return res, string(o), string(e)
}

func TestExitStatuses(t *testing.T) {
	bash := realBash(t)
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	for code := 0; code <= 255; code++ {
		res, err := Run(context.Background(), &Spec{Path: bash, Argv: []string{"bash", "-c", fmt.Sprintf("exit %d", code)}, Stdout: null, Stderr: null})
		if err != nil || res.ExitCode != code || res.Signal != "" {
			t.Fatalf("exit %d: got %s, %v", code, summary(res), err)
		}
	}
}

func TestSignalDeath(t *testing.T) {
	for sig, code := range map[string]int{"TERM": 143, "KILL": 137, "INT": 130, "HUP": 129} {
		res, _, _ := runScript(t, Spec{}, "kill -"+sig+" $$")
		if res.ExitCode != code || res.Signal != "SIG"+sig {
			t.Errorf("kill -%s: exit %d signal %q, want %d SIG%s", sig, res.ExitCode, res.Signal, code, sig)
		}
	}
}

func TestStartFailure(t *testing.T) {
	_, err := Run(context.Background(), &Spec{Path: filepath.Join(t.TempDir(), "no-such-shell")})
	if err == nil {
		t.Fatal("no error for a program that does not exist")
	}
	if _, err := Run(context.Background(), &Spec{}); err == nil {
		t.Fatal("no error for an empty Path")
	}
}

func TestStartedAndEnvironment(t *testing.T) {
	var pid int
	res, out, _ := runScript(t, Spec{
		Started: func(p int) { pid = p }, Env: []string{"ONLY=this"}, Dir: "/",
	}, `echo "$$ $ONLY $(pwd)"; env | grep -c . >&2`)
	if pid <= 0 || out != fmt.Sprintf("%d this /\n", pid) || res.ExitCode != 0 {
		t.Fatalf("pid %d out %q res %s", pid, out, summary(res))
	}
}

func TestNilStdio(t *testing.T) {
	bash := realBash(t)
	// stdin, stdout and stderr nil: /dev/null, like os/exec; never a closed descriptor.
	res, err := Run(context.Background(), &Spec{Path: bash, Argv: []string{"bash", "-c",
		`[ -e /proc/self/fd/0 ] && [ -e /proc/self/fd/1 ] && [ -e /proc/self/fd/2 ] && read -r x; [ -z "$x" ]`}})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("%s, %v", summary(res), err)
	}
	if res.Stdout.SHA256 != "" || res.Merged {
		t.Errorf("unobserved stream reported: %s", summary(res))
	}
}

func TestTimeout(t *testing.T) {
	res, _, _ := runScript(t, Spec{Timeout: 100 * time.Millisecond}, "echo start; sleep 30")
	if !res.TimedOut || res.ExitCode != 143 || res.Signal != "SIGTERM" {
		t.Fatalf("%s", summary(res))
	}
	// A command that ignores SIGTERM is killed after KillGrace, group and all.
	res, out, _ := runScript(t, Spec{Timeout: 100 * time.Millisecond, KillGrace: 100 * time.Millisecond},
		`trap '' TERM; sleep 30 & echo "bg $!"; wait`)
	if !res.TimedOut || res.ExitCode != 137 {
		t.Fatalf("%s", summary(res))
	}
	var bg int
	fmt.Sscanf(out, "bg %d", &bg)
	waitGone(t, bg)
}

func TestContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	bash := realBash(t)
	res, err := Run(ctx, &Spec{Path: bash, Argv: []string{"bash", "-c", "sleep 30"}, Started: func(int) { cancel() }})
	if err != nil || res.ExitCode != 143 || res.TimedOut {
		t.Fatalf("%s, %v", summary(res), err)
	}
}

// waitGone waits until process pid has exited (a zombie counts as gone).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	if pid <= 0 {
		t.Fatalf("bad pid %d", pid)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return
		}
		if _, after, ok := strings.Cut(string(stat), ") "); ok && strings.HasPrefix(after, "Z") {
			return
		}
	}
	t.Fatalf("process %d is still running", pid)
}

// TestBackgroundHolder: a background job that writes after the command exited
// still reaches the caller, and the caller's pipe ends when that job ends, as
// under bash: the guard hands the stream to a relay (relay.go) and returns.
func TestBackgroundHolder(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	marker := filepath.Join(t.TempDir(), "m")
	res, _, _ := runScript(t, Spec{Stdout: w, OutputGrace: 20 * time.Millisecond},
		"(sleep 0.3; echo late; touch "+marker+") & echo hi")
	w.Close()
	if res.ExitCode != 0 || !res.Incomplete {
		t.Fatalf("res %s", summary(res))
	}
	all, err := io.ReadAll(r) // EOF only once the background job is gone
	if string(all) != "hi\nlate\n" || err != nil {
		t.Fatalf("read %q, %v", all, err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("the background job did not finish: %v", err)
	}
	res, out, _ := runScript(t, Spec{}, "echo hi")
	if out != "hi\n" || res.Incomplete {
		t.Fatalf("out %q res %s", out, summary(res))
	}
}

func TestDigestInResult(t *testing.T) {
	res, out, errOut := runScript(t, Spec{DigestBytes: 4}, "printf 0123456789; printf ab >&2")
	if out != "0123456789" || errOut != "ab" {
		t.Fatalf("%q %q", out, errOut)
	}
	if s := res.Stdout; s.Bytes != 10 || string(s.Head) != "0123" || string(s.Tail) != "6789" || !s.Truncated {
		t.Errorf("stdout %+v", s)
	}
	if s := res.Stderr; s.Bytes != 2 || string(s.Head) != "ab" || len(s.Tail) != 0 || s.Truncated {
		t.Errorf("stderr %+v", s)
	}
}

// TestCallerStdoutClosed: the reader of the guard's stdout goes away (`guard-exec -c
// yes | head -c 4`). The command must die of SIGPIPE as under bash, and Run return.
func TestCallerStdoutClosed(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan []byte)
	go func() {
		buf := make([]byte, 4)
		io.ReadFull(r, buf)
		r.Close()
		done <- buf
	}()
	res, _, _ := runScript(t, Spec{Stdout: w}, "yes")
	w.Close()
	if got := <-done; string(got) != "y\ny\n" {
		t.Errorf("read %q", got)
	}
	if res.ExitCode != 141 || res.Signal != "SIGPIPE" || !res.Incomplete {
		t.Fatalf("%s", summary(res))
	}
}

// TestCallerStdoutClosedFd1 is the same through a helper whose fd 1 is the pipe: the
// Go runtime kills a process that writes to a broken fd 1 unless SIGPIPE is caught.
func TestCallerStdoutClosedFd1(t *testing.T) {
	cmd, report := helperCommand(t, "never", "-c", "yes")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	io.ReadFull(out, buf)
	out.Close()
	err = cmd.Wait()
	if code := exitCode(err); code != 141 {
		t.Fatalf("helper exit %d (%v), want 141", code, err)
	}
	if rep := readReport(t, report); rep.Result.ExitCode != 141 {
		t.Fatalf("%s", summary(rep.Result))
	}
}

// TestSignalForwarding: SIGTERM sent to the guard reaches bash, and only bash, as
// if it had been sent to bash: bash runs its trap, and the background sleep,
// which bash leaves alone, lives on.
func TestSignalForwarding(t *testing.T) {
	cmd, report := helperCommand(t, "never", "-c", `trap 'echo got-TERM; exit 9' TERM; sleep 30 >/dev/null & echo "ready $!"; wait`)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no terminal: the command gets a group of its own
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line := readLine(t, out)
	var sleepPid int
	if _, err := fmt.Sscanf(line, "ready %d", &sleepPid); err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(out)
	err = cmd.Wait()
	if string(rest) != "got-TERM\n" || exitCode(err) != 9 {
		t.Fatalf("output %q, exit %v; want got-TERM and 9", rest, err)
	}
	if rep := readReport(t, report); rep.Result.ExitCode != 9 {
		t.Fatalf("%s", summary(rep.Result))
	}
	if err := syscall.Kill(sleepPid, 0); err != nil {
		t.Fatalf("the background sleep was killed too: %v", err)
	}
	syscall.Kill(sleepPid, syscall.SIGKILL)
}

// TestGuardKilled: when the guard dies by SIGKILL the command dies with it.
func TestGuardKilled(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("macOS has no parent-death signal: a guard killed by SIGKILL leaves the command running")
	}
	cmd, _ := helperCommand(t, "never", "-c", `echo "$$"; exec sleep 30`)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	fmt.Sscanf(readLine(t, out), "%d", &pid)
	cmd.Process.Kill()
	cmd.Wait()
	waitGone(t, pid)
}

func readLine(t *testing.T, r io.Reader) string {
	t.Helper()
	var line bytes.Buffer
	b := make([]byte, 1)
	for {
		if _, err := r.Read(b); err != nil {
			t.Fatalf("reading a line: %v (so far %q)", err, line.String())
		}
		if b[0] == '\n' {
			return line.String()
		}
		line.WriteByte(b[0])
	}
}

// TestSlowReader: the command writes more than the pipes hold and exits while the
// caller is still reading, slowly. Everything it wrote must arrive: the grace for
// background holders only starts once the output pending at exit was delivered.
func TestSlowReader(t *testing.T) {
	for _, mode := range []PTYMode{PTYNever, PTYAlways} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan int)
		go func() {
			n, buf := 0, make([]byte, 16<<10)
			for {
				time.Sleep(5 * time.Millisecond)
				k, err := r.Read(buf)
				n += k
				if err != nil {
					got <- n
					return
				}
			}
		}()
		// CastLimit: the transcript of 600 kB of "y\n" is near 1 MiB, and over it when
		// the pty hands out small reads; a cut transcript would mark the result incomplete.
		res, _, _ := runScript(t, Spec{PTY: mode, Stdout: w, OutputGrace: 50 * time.Millisecond, CastLimit: 8 << 20}, "yes | head -c 600000")
		w.Close()
		if n := <-got; n != 600000 || res.Incomplete || res.Stdout.Bytes != 600000 {
			t.Errorf("mode %d: read %d bytes, result %s", mode, n, summary(res))
		}
		r.Close()
	}
}

// summary prints a Result for a failure message, without its bulky byte fields.
func summary(r *Result) string {
	if r == nil {
		return "<nil>"
	}
	st := func(s Stream) string {
		return fmt.Sprintf("{%d bytes head %.40q tail %.40q truncated %v}", s.Bytes, s.Head, s.Tail, s.Truncated)
	}
	return fmt.Sprintf("exit %d signal %q timedOut %v pty %v merged %v incomplete %v stdout %s stderr %s cast %d bytes",
		r.ExitCode, r.Signal, r.TimedOut, r.PTY, r.Merged, r.Incomplete, st(r.Stdout), st(r.Stderr), len(r.Cast))
}
