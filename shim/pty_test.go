package shim

import (
	"bytes"
	"encoding/json"
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

// screen is an outer terminal for a helper guard: a real pty pair whose slave is the
// helper's controlling terminal and stdio, and whose master the test reads (what
// the person would see) and writes (what the person types).
type screen struct {
	t      *testing.T
	master *os.File
	slave  *os.File
	cmd    *exec.Cmd
	report string
	before unix.Termios

	mu   sync.Mutex
	buf  bytes.Buffer
	read chan struct{} // signalled on every read
}

// startScreen runs the helper on a new outer terminal of 30x100. stdin, when not
// nil, replaces the slave as the helper's stdin (and stdout, when stdout is given).
func startScreen(t *testing.T, mode string, stdin, stdout *os.File, args ...string) *screen {
	t.Helper()
	master, slave, err := pty.Open()
	if err != nil {
		t.Skip("no pty:", err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Rows: 30, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	s := &screen{t: t, master: master, slave: slave, read: make(chan struct{}, 1)}
	before, err := unix.IoctlGetTermios(rawFd(slave), ioctlGetTermios)
	if err != nil {
		t.Fatal(err)
	}
	s.before = *before
	s.cmd, s.report = helperCommand(t, mode, args...)
	s.cmd.Stdin, s.cmd.Stdout, s.cmd.Stderr = slave, slave, slave
	ctty := 0
	if stdin != nil {
		s.cmd.Stdin, ctty = stdin, 1
	}
	if stdout != nil {
		s.cmd.Stdout = stdout
	}
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: ctty}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go s.pump()
	t.Cleanup(s.close)
	return s
}

func (s *screen) pump() {
	b := make([]byte, 4096)
	for {
		n, err := s.master.Read(b)
		s.mu.Lock()
		s.buf.Write(b[:n])
		s.mu.Unlock()
		select {
		case s.read <- struct{}{}:
		default:
		}
		if err != nil {
			return
		}
	}
}

func (s *screen) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// expect waits until the screen shows want. The bound only turns a hang into a
// failure; nothing is timed.
func (s *screen) expect(want string) {
	s.t.Helper()
	deadline := time.After(20 * time.Second)
	for !strings.Contains(s.text(), want) {
		select {
		case <-s.read:
		case <-deadline:
			s.t.Fatalf("screen never showed %q; it shows %q", want, s.text())
		}
	}
}

func (s *screen) typeIn(text string) {
	s.t.Helper()
	if _, err := s.master.Write([]byte(text)); err != nil {
		s.t.Fatal(err)
	}
}

// wait waits for the helper to exit and returns its status and report.
func (s *screen) wait() (int, helperReport) {
	s.t.Helper()
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		return exitCode(err), readReport(s.t, s.report)
	case <-time.After(20 * time.Second):
		s.cmd.Process.Kill()
		s.t.Fatalf("the guard did not exit; screen: %q", s.text())
	}
	return 0, helperReport{}
}

// checkRestored compares the outer terminal's modes with those before the guard ran.
func (s *screen) checkRestored() {
	s.t.Helper()
	after, err := unix.IoctlGetTermios(rawFd(s.slave), ioctlGetTermios)
	if err != nil {
		s.t.Fatal(err)
	}
	b := s.before
	if after.Iflag != b.Iflag || after.Oflag != b.Oflag || after.Cflag != b.Cflag || after.Lflag != b.Lflag || after.Cc != b.Cc {
		s.t.Errorf("outer terminal not restored:\nbefore %+v\nafter  %+v", b, *after)
	}
}

func (s *screen) close() {
	if s.cmd.ProcessState == nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
	}
	s.slave.Close() // the last slave descriptor: pump's Read ends with EIO
	s.master.Close()
}

func TestPTYBasics(t *testing.T) {
	s := startScreen(t, "auto", nil, nil, "-c", `test -t 0 && test -t 1 && test -t 2 && echo tty-yes; printf 'no-newline'; exit 3`)
	code, rep := s.wait()
	if code != 3 || rep.Result.ExitCode != 3 {
		t.Errorf("exit %d / %d, want 3", code, rep.Result.ExitCode)
	}
	s.expect("tty-yes\r\nno-newline") // the outer terminal adds \r for display
	r := rep.Result
	if !r.PTY || !r.Merged || string(r.Stdout.Head) != "tty-yes\nno-newline" || r.Incomplete {
		t.Errorf("result %s (stdout %q)", summary(r), r.Stdout.Head) // the digest has the command's own bytes
	}
	hdr, events := castEvents(t, r.Cast)
	if hdr.Version != 2 || hdr.Width != 100 || hdr.Height != 30 {
		t.Errorf("cast header %+v", hdr)
	}
	var text strings.Builder
	for _, ev := range events {
		if ev[1] == "o" {
			text.WriteString(ev[2].(string))
		}
	}
	if text.String() != "tty-yes\nno-newline" {
		t.Errorf("cast output %q", text.String())
	}
	s.checkRestored()
}

func TestPTYReadLine(t *testing.T) {
	s := startScreen(t, "auto", nil, nil, "-c", `printf 'name? '; read -r line; echo "got:$line"`)
	s.expect("name? ")
	s.typeIn("hello\r")
	s.expect("got:hello")
	if code, _ := s.wait(); code != 0 {
		t.Errorf("exit %d", code)
	}
	s.checkRestored()
}

func TestPTYCtrlC(t *testing.T) {
	s := startScreen(t, "auto", nil, nil, "-c", `echo sleeping; sleep 30; echo not-reached`)
	s.expect("sleeping")
	s.typeIn("\x03")
	code, rep := s.wait() // a report means the guard outlived the ^C
	if code != 130 || rep.Result.ExitCode != 130 || strings.Contains(s.text(), "not-reached") {
		t.Errorf("exit %d / %d, screen %q", code, rep.Result.ExitCode, s.text())
	}
	s.checkRestored()
}

func TestPTYCtrlZ(t *testing.T) {
	// ^Z stops the command; the guard follows it into the stop. Here the guard's
	// group is orphaned (its parent is in another session), so the kernel discards
	// the guard's own SIGTSTP and the guard continues the command at once.
	s := startScreen(t, "auto", nil, nil, "-c", `echo ready; read -r _; echo resumed`)
	s.expect("ready")
	s.typeIn("\x1a")
	s.typeIn("\r")
	s.expect("resumed")
	if code, _ := s.wait(); code != 0 {
		t.Errorf("exit %d", code)
	}
	s.checkRestored()
}

func TestPTYResize(t *testing.T) {
	s := startScreen(t, "auto", nil, nil, "-c", `stty size; while read -r l; do [ "$l" = q ] && exit 0; stty size; done`)
	s.expect("30 100")
	if err := pty.Setsize(s.master, &pty.Winsize{Rows: 40, Cols: 120}); err != nil {
		t.Fatal(err)
	}
	// The guard learns of the resize by SIGWINCH, asynchronously: ask until it shows.
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(s.text(), "40 120") && time.Now().Before(deadline) {
		s.typeIn("\r")
		time.Sleep(20 * time.Millisecond)
	}
	s.expect("40 120")
	s.typeIn("q\r")
	code, rep := s.wait()
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	if !bytes.Contains(rep.Result.Cast, []byte(`"r","120x40"`)) {
		t.Errorf("no resize event in the cast")
	}
	s.checkRestored()
}

// TestPTYAlwaysPipeStdin: a pty for the output, but stdin that is a pipe goes to the
// command directly: one 10,000-byte line arrives whole and is not echoed.
func TestPTYAlwaysPipeStdin(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	s := startScreen(t, "always", r, nil, "-c", `test -t 0 || echo stdin-not-tty; test -t 1 && echo stdout-tty; wc -c`)
	r.Close()
	line := strings.Repeat("a", 10000) + "\n"
	go func() { w.Write([]byte(line)); w.Close() }()
	code, rep := s.wait()
	s.expect("stdin-not-tty\r\nstdout-tty\r\n10001\r\n")
	if code != 0 || !rep.Result.PTY || strings.Contains(s.text(), "aaaa") {
		t.Errorf("exit %d, screen %q", code, s.text())
	}
}

// TestPipeModeAtTerminal: stdout is a pipe, so pipe mode, but stdin is the terminal
// that is the guard's controlling terminal. The command shares the guard's group and
// can read the terminal; in a group of its own it would be stopped by SIGTTIN.
func TestPipeModeAtTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := startScreen(t, "auto", nil, w, "-c", `read -r line; echo "got:$line"`)
	w.Close()
	s.typeIn("hello\n")
	code, rep := s.wait()
	out, _ := readAll(r)
	if code != 0 || out != "got:hello\n" || rep.Result.PTY {
		t.Errorf("exit %d, output %q, result %s", code, out, summary(rep.Result))
	}
}

func readAll(r *os.File) (string, error) {
	var b bytes.Buffer
	_, err := b.ReadFrom(r)
	return b.String(), err
}

// TestPTYWithoutTerminal runs under a pty with no terminal around (PTYAlways, files
// for stdio): output arrives without \r, stderr to its own file stays separate.
func TestPTYWithoutTerminal(t *testing.T) {
	res, out, errOut := runScript(t, Spec{PTY: PTYAlways},
		`test -t 1 && echo out-tty; test -t 0 || echo in-not-tty; test -t 2 || echo err-not-tty >&2; printf 'a\nb'`)
	if out != "out-tty\nin-not-tty\na\nb" || errOut != "err-not-tty\n" {
		t.Fatalf("stdout %q stderr %q", out, errOut)
	}
	if !res.PTY || res.Merged || res.Stdout.Bytes != int64(len(out)) || string(res.Stderr.Head) != errOut {
		t.Fatalf("%s", summary(res))
	}
}

func TestPTYMergedStderr(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, out, _ := runScript(t, Spec{PTY: PTYAlways, Stdout: f, Stderr: f}, `echo one; echo two >&2; echo three`)
	if data, _ := os.ReadFile(f.Name()); string(data) != "one\ntwo\nthree\n" || out != "" {
		t.Fatalf("%q", data)
	}
	if !res.Merged || res.Stdout.Bytes != 14 {
		t.Fatalf("%s", summary(res))
	}
}

func TestPTYCastLimit(t *testing.T) {
	res, _, _ := runScript(t, Spec{PTY: PTYAlways, CastLimit: 4096}, `seq 1 100000`)
	if !res.Incomplete || len(res.Cast) > 4096 || res.Stdout.Bytes != 588895 {
		t.Fatalf("incomplete %v, cast %d bytes, stdout %d bytes", res.Incomplete, len(res.Cast), res.Stdout.Bytes)
	}
	var hdr castHeader
	first, _, _ := bytes.Cut(res.Cast, []byte("\n"))
	if err := json.Unmarshal(first, &hdr); err != nil || hdr.Version != 2 {
		t.Fatalf("header %q: %v", first, err)
	}
}

// TestPTYHolder: a background process that keeps the pty open after the command
// exited gets OutputGrace, then its group is killed and the result is incomplete.
func TestPTYHolder(t *testing.T) {
	res, out, _ := runScript(t, Spec{PTY: PTYAlways, OutputGrace: 100 * time.Millisecond},
		`trap '' HUP; (sleep 30; echo late) & echo early`) // HUP ignored before the fork: no race with bash's exit
	if out != "early\n" || res.ExitCode != 0 || !res.Incomplete {
		t.Fatalf("out %q, %s", out, summary(res))
	}
}

// TestPTYWritingHolder: a background process that holds the pty and keeps writing
// is cut off after 10 OutputGraces; the guard does not wait for it forever.
func TestPTYWritingHolder(t *testing.T) {
	res, out, _ := runScript(t, Spec{PTY: PTYAlways, OutputGrace: 20 * time.Millisecond},
		`trap '' HUP; (while :; do echo x; sleep 0.005; done) & echo early`)
	// The background loop may write before the command does: "early" is
	// somewhere in the first lines, not necessarily first.
	if !strings.Contains(out, "early\n") || res.ExitCode != 0 || !res.Incomplete {
		t.Fatalf("out %.40q, %s", out, summary(res))
	}
}

func TestPTYTimeout(t *testing.T) {
	res, _, _ := runScript(t, Spec{PTY: PTYAlways, Timeout: 100 * time.Millisecond}, `sleep 30`)
	if !res.TimedOut || res.ExitCode != 143 {
		t.Fatalf("%s", summary(res))
	}
}

// TestPipeModeAtTerminalCtrlC: at a terminal in pipe mode the terminal's ^C reaches
// the command and the guard together. The command dies of it; the guard must not,
// even when its copy of the signal arrives after the command is gone.
func TestPipeModeAtTerminalCtrlC(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := startScreen(t, "auto", nil, w, "-c", `echo ready; sleep 30; echo not-reached`)
	w.Close()
	if line := readLine(t, r); line != "ready" {
		t.Fatalf("read %q", line)
	}
	s.typeIn("\x03")
	code, rep := s.wait()
	if code != 130 || rep.Result.ExitCode != 130 {
		t.Errorf("exit %d, result %s", code, summary(rep.Result))
	}
}
