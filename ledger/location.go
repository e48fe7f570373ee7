package ledger

import (
	"github.com/guard-exec/guard-exec/internal/paths"
	"path/filepath"
)

// Location returns the ledger directory: env GUARD_EXEC_LEDGER_DIR when
// set, else <projectRoot>/.guard-exec when projectRoot is a git work tree's
// root (the caller passes "" outside one), else $XDG_STATE_HOME/guard-exec
// (else ~/.local/state/guard-exec), the user's ledger, whose records name
// their directory (cwd). A work tree rooted at /, /tmp or $HOME (a
// dotfiles repository) gets the user's ledger too: a new .guard-exec/ is
// never made there. It returns "" when none of these can be known (no
// HOME); Open then refuses, and the caller decides what a guard without a
// ledger does.
//
// This, with paths.KeyFile and paths.AnchorDir, is where guard-exec keeps
// what no guarded command may change: the sandbox and the self-defence
// rules ask here.
func Location(projectRoot string, getenv func(string) string) string {
	if d := getenv("GUARD_EXEC_LEDGER_DIR"); d != "" {
		return d
	}
	if projectRoot != "" && !sharedPlace(projectRoot, getenv) {
		return filepath.Join(projectRoot, ".guard-exec")
	}
	return UserLocation(getenv)
}

// UserLocation is the user's own ledger, for commands outside any work
// tree: $XDG_STATE_HOME/guard-exec, else ~/.local/state/guard-exec; "" when
// unknown.
func UserLocation(getenv func(string) string) string {
	// The XDG spec says a relative value is invalid and must be ignored.
	if d := getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "guard-exec")
	}
	if h := homeDir(getenv); h != "" {
		return filepath.Join(h, ".local", "state", "guard-exec")
	}
	return ""
}

// homeDir is the home directory of guard-exec's own files (paths.Home).
func homeDir(getenv func(string) string) string { return paths.Home(getenv) }

// sharedPlace reports whether dir is a directory no project owns.
func sharedPlace(dir string, getenv func(string) string) bool {
	dir = filepath.Clean(dir)
	switch dir {
	case "/", "/tmp", "/var/tmp", "/dev/shm":
		return true
	}
	if h := getenv("HOME"); h != "" && filepath.Clean(h) == dir {
		return true
	}
	if t := getenv("TMPDIR"); t != "" && filepath.Clean(t) == dir {
		return true
	}
	return false
}
