package shim

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The tests that need a guard they can signal, kill or put on a terminal re-execute
// the test binary as a helper: with helperEnv set, TestMain runs helperMain instead
// of the tests. The helper does what guard-exec's main does with the shim: parse a
// bash command line, find bash, Run it on the process's own stdio, exit with the
// command's status. It writes its Result to the file named by reportEnv.
const (
	helperEnv = "SHIM_TEST_HELPER"
	ptyEnv    = "SHIM_TEST_PTY" // auto, always or never
	reportEnv = "SHIM_TEST_REPORT"
)

type helperReport struct {
	Result *Result
	Err    string
	Pid    int
}

func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == RelayArg {
		os.Exit(RelayMain())
	}
	if os.Getenv(helperEnv) != "" {
		os.Exit(helperMain(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func helperMain(args []string) int {
	inv, err := ParseInvocation("bash", args)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	bash, err := FindRealShell("bash", os.Getenv("PATH"), "")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 125
	}
	mode := map[string]PTYMode{"always": PTYAlways, "never": PTYNever}[os.Getenv(ptyEnv)]
	var rep helperReport
	rep.Result, err = Run(context.Background(), &Spec{
		Path: bash, Argv: inv.Argv(bash), Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		PTY: mode, Started: func(pid int) { rep.Pid = pid },
	})
	if err != nil {
		rep.Err = err.Error()
	}
	if path := os.Getenv(reportEnv); path != "" {
		data, _ := json.Marshal(rep)
		_ = os.WriteFile(path, data, 0o600)
	}
	if err != nil {
		return 125
	}
	return rep.Result.ExitCode
}

// helperCommand prepares the helper running `bash ARGS` with the given pty mode;
// the caller wires stdio and SysProcAttr.
func helperCommand(t *testing.T, mode string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(t.TempDir(), "report.json")
	cmd := exec.Command(exe, args...)
	// The race runtime sleeps a second at exit (GORACE atexit_sleep_ms) unless told not to.
	cmd.Env = append(os.Environ(), helperEnv+"=1", ptyEnv+"="+mode, reportEnv+"="+report, "GORACE=atexit_sleep_ms=0 "+os.Getenv("GORACE"))
	return cmd, report
}

func readReport(t *testing.T, path string) helperReport {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the helper wrote no report (did the guard die?): %v", err)
	}
	var rep helperReport
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Err != "" || rep.Result == nil {
		t.Fatalf("helper: Run failed: %s", rep.Err)
	}
	return rep
}
