package ledger

import "path/filepath"

// Location returns the ledger directory: env GUARD_EXEC_LEDGER_DIR when
// set, else <projectRoot>/.guard-exec when projectRoot != "", else
// $XDG_STATE_HOME/guard-exec (else ~/.local/state/guard-exec). It returns ""
// when none of these can be known (no HOME); Open then refuses, and the
// caller decides what a guard without a ledger does.
func Location(projectRoot string, getenv func(string) string) string {
	if d := getenv("GUARD_EXEC_LEDGER_DIR"); d != "" {
		return d
	}
	if projectRoot != "" {
		return filepath.Join(projectRoot, ".guard-exec")
	}
	// The XDG spec says a relative value is invalid and must be ignored.
	if d := getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "guard-exec")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "state", "guard-exec")
	}
	return ""
}
