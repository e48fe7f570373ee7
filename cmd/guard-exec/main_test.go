package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/guard-exec/guard-exec/internal/sandbox"
	"github.com/guard-exec/guard-exec/internal/tzdefer"
)

// guardMain is main for testscript's copies of the test binary, which it
// installs on $PATH as guard-exec, bash and sh: run dispatches on argv[0]
// exactly as the installed program does.
func guardMain() { os.Exit(mainStatus()) }

func TestMain(m *testing.M) {
	tzdefer.Restore()    // as main does: no TZ of ours in the tests' commands
	systemTempDirs = nil // work directories are under /tmp; see roots.go
	testscript.Main(m, map[string]func(){
		"guard-exec": guardMain,
		"bash":       guardMain,
		"sh":         guardMain,
		// login shells are started with a '-' before the name; testscript
		// dispatches on the name, so the login forms are registered too
		"-bash":       guardMain,
		"-guard-exec": guardMain,
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Condition:           scriptCondition,
		// GUARD_EXEC_UPDATE_GOLDEN=1 go test -run TestScripts/help ./cmd/guard-exec
		// rewrites the golden files of cmp lines after a deliberate change.
		UpdateScripts: os.Getenv("GUARD_EXEC_UPDATE_GOLDEN") != "",
		Cmds:          map[string]func(*testscript.TestScript, bool, []string){"exits": cmdExits},
		Setup: func(e *testscript.Env) error {
			home := filepath.Join(e.WorkDir, "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			e.Setenv("HOME", home)
			e.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			e.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
			e.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
			e.Setenv("GUARD_EXEC_LEDGER_DIR", filepath.Join(e.WorkDir, "ledger"))
			e.Setenv("GUARD_EXEC_SESSION", "test-session")
			e.Setenv("HOST_GOCACHE", hostGoCache())
			return nil
		},
	})
}

// scriptCondition knows the machine's sandbox: [landlock] when the kernel
// has Landlock, [mountns] when the sandbox can bind read-only in a mount
// namespace of the command's own.
func scriptCondition(cond string) (bool, error) {
	switch cond {
	case "landlock":
		return sandbox.ABI() > 0, nil
	case "mountns":
		return sandbox.ABI() > 0 && sandbox.CanMountNS(), nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// hostGoCache is the Go build cache of the machine running the tests, so a
// script can build Go code without compiling the standard library again.
func hostGoCache() string {
	if c := os.Getenv("GOCACHE"); filepath.IsAbs(c) {
		return c
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "go-build")
}

// cmdExits is `exits N PROG ARGS...`: run PROG as exec does (its stdout and
// stderr are then checked as exec's) and fail unless it exits with N.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits STATUS PROG [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %q is not a status", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// TestTimeZoneNotReadAtInit: no guarded command pays for reading the
// local time zone at package init (internal/tzdefer runs before package
// time), and the TZ it sets for that moment never reaches the command.
func TestTimeZoneNotReadAtInit(t *testing.T) {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TZ=") && !strings.HasPrefix(kv, "GODEBUG=") {
			env = append(env, kv)
		}
	}
	c := exec.Command(installedGuard(t), "-c", `echo "TZ:${TZ-unset}"`)
	c.Env = append(env, "GODEBUG=inittrace=1", "GUARD_EXEC_LEDGER_DIR="+t.TempDir())
	c.Dir = t.TempDir()
	var out, trace strings.Builder
	c.Stdout, c.Stderr = &out, &trace
	if err := c.Run(); err != nil {
		t.Fatalf("%v: %s", err, trace.String())
	}
	if out.String() != "TZ:unset\n" {
		t.Errorf("the command saw %q, want TZ unset as the caller left it", out.String())
	}
	order := map[string]int{}
	for i, line := range strings.Split(trace.String(), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "init" {
			order[f[1]] = i + 1
		}
	}
	tz, tm := order["github.com/guard-exec/guard-exec/internal/tzdefer"], order["time"]
	if tz == 0 || tm == 0 || tz > tm {
		t.Errorf("internal/tzdefer initialises at line %d, package time at %d: the local zone is read at init again\n%s", tz, tm, trace.String())
	}
}
