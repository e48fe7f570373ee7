package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/guard-exec/guard-exec/internal/sandbox"
)

// guardMain is main for testscript's copies of the test binary, which it
// installs on $PATH as guard-exec, bash and sh: run dispatches on argv[0]
// exactly as the installed program does.
func guardMain() {
	st := &stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}
	os.Exit(exitCode(run(context.Background(), os.Args, os.Environ(), st), st))
}

func TestMain(m *testing.M) {
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
