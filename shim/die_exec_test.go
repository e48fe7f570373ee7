package shim

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"testing"
)

// dieEnv makes the test binary die by the signal it names (dieByExec) as soon as
// it starts, with the signal listened to first, as the guard listens.
const dieEnv = "SHIM_TEST_DIE_BY"

func init() {
	if s := os.Getenv(dieEnv); s != "" {
		n, _ := strconv.Atoi(s)
		signal.Notify(make(chan os.Signal, 1), syscall.Signal(n))
		signal.Reset(syscall.Signal(n))
		dieByExec(syscall.Signal(n))
		os.Exit(3) // the exec failed
	}
}

// TestDieByExec: the way DieBy ends the guard where there is no sigaction to
// call (macOS, the BSDs) gives its caller a death by the signal itself, without
// a core dump, also for the signals the Go runtime's handler would turn into a
// stack dump (QUIT, ABRT), into nothing (USR1, PIPE) or a panic (SEGV sent by
// kill); a signal whose default is to be ignored leaves the exit status 128+N.
// (INT and HUP are left out: a caller that ignores them, as a background job of
// a shell does, passes them on ignored through exec.)
func TestDieByExec(t *testing.T) {
	if _, err := os.Stat(dieShell); err != nil {
		t.Skip(dieShell, "is missing:", err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGSEGV, syscall.SIGQUIT, syscall.SIGABRT,
		syscall.SIGUSR1, syscall.SIGPIPE, syscall.SIGKILL, syscall.SIGCHLD} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(exe, "-test.run=^$")
			cmd.Env = append(os.Environ(), dieEnv+"="+strconv.Itoa(int(sig)))
			cmd.Dir = t.TempDir() // a core file, were one left, would land here
			err := cmd.Run()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				t.Fatal(err)
			}
			ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if sig == syscall.SIGCHLD {
				if ws.Signaled() || ws.ExitStatus() != 128+int(sig) {
					t.Fatalf("status %v, want exit %d", cmd.ProcessState, 128+int(sig))
				}
				return
			}
			if !ws.Signaled() || ws.Signal() != sig {
				t.Fatalf("status %v, want death by %v", cmd.ProcessState, sig)
			}
			if ws.CoreDump() {
				t.Errorf("%v left a core dump", sig)
			}
		})
	}
}
