package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// guardMain is main for testscript's copies of the test binary, which it
// installs on $PATH as guard-exec, bash and sh: run dispatches on argv[0]
// exactly as the installed program does.
func guardMain() { os.Exit(mainStatus()) }

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
			return nil
		},
	})
}
