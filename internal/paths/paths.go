// Package paths names guard-exec's own locations: its configuration, its
// state and ledger, and the directory of its PATH shims. Every part of the
// program that reads, writes or protects them asks here, so that the place
// the shim installer writes to is the place the self-defence rules guard.
//
// Each function takes a getenv so callers can pass the environment of the
// command being judged rather than the process's own.
package paths

import "path/filepath"

// Name is the program's name, used for its directories.
const Name = "guard-exec"

const (
	// SystemConfigDir holds the system configuration layer.
	SystemConfigDir = "/etc/" + Name
	// ProjectConfigName is the project layer's file, at the project root.
	ProjectConfigName = "." + Name + ".toml"
	// LedgerDirName is the ledger directory inside a project.
	LedgerDirName = "." + Name
	// configFile is the file name inside a configuration directory.
	configFile = "config.toml"
)

// SystemConfigFile is the system configuration layer's file.
func SystemConfigFile() string { return filepath.Join(SystemConfigDir, configFile) }

// UserConfigDir is $XDG_CONFIG_HOME/guard-exec, else ~/.config/guard-exec;
// "" when neither can be known.
func UserConfigDir(getenv func(string) string) string {
	return xdg(getenv, "XDG_CONFIG_HOME", ".config")
}

// UserConfigFile is the user configuration layer's file; "" when unknown.
func UserConfigFile(getenv func(string) string) string {
	if d := UserConfigDir(getenv); d != "" {
		return filepath.Join(d, configFile)
	}
	return ""
}

// StateDir is $XDG_STATE_HOME/guard-exec, else ~/.local/state/guard-exec:
// where the ledger lives for commands outside any project.
func StateDir(getenv func(string) string) string {
	return xdg(getenv, "XDG_STATE_HOME", filepath.Join(".local", "state"))
}

// DataDir is $XDG_DATA_HOME/guard-exec, else ~/.local/share/guard-exec.
func DataDir(getenv func(string) string) string {
	return xdg(getenv, "XDG_DATA_HOME", filepath.Join(".local", "share"))
}

// ShimDir is the directory the PATH shims (bash, sh → guard-exec) are
// installed in: DataDir/shim.
func ShimDir(getenv func(string) string) string {
	if d := DataDir(getenv); d != "" {
		return filepath.Join(d, "shim")
	}
	return ""
}

// KeyFile is the user's secret key, UserConfigDir/ledger.key: it
// authenticates the ledger's chain and anchors, the sourced-file cache and
// approvals. Guarded commands may neither read nor write it: the
// self-defence rules deny both, and the kernel sandbox leaves it out of
// the command's reach. "" when unknown.
func KeyFile(getenv func(string) string) string {
	if d := UserConfigDir(getenv); d != "" {
		return filepath.Join(d, "ledger.key")
	}
	return ""
}

// AnchorDir holds the anchors of the ledgers, StateDir/anchors: for each
// ledger, the last id and a tag of the last record, outside the ledger's
// own directory, so that deleting or truncating a ledger shows. Guarded
// commands may not write it. "" when unknown.
func AnchorDir(getenv func(string) string) string {
	if d := StateDir(getenv); d != "" {
		return filepath.Join(d, "anchors")
	}
	return ""
}

// CacheDir is $XDG_CACHE_HOME/guard-exec, else ~/.cache/guard-exec. It
// holds the index of large sourced files (an agent's shell snapshot) and
// the user rules whose examples passed, which the guard trusts as it
// trusts its configuration.
func CacheDir(getenv func(string) string) string {
	return xdg(getenv, "XDG_CACHE_HOME", ".cache")
}

// xdg resolves one XDG base directory with guard-exec's name appended. The
// XDG specification says a relative value is invalid and must be ignored.
func xdg(getenv func(string) string, v, fallback string) string {
	if d := getenv(v); filepath.IsAbs(d) {
		return filepath.Join(d, Name)
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, fallback, Name)
	}
	return ""
}

// LineageFile lists the processes guarded commands left running when they
// ended (pid, start time, the command's record id): StateDir/lineage.
// approve refuses a terminal held or led by one of them, or by their
// descendants. Guarded commands may not write it (it is in StateDir).
// "" when unknown.
func LineageFile(getenv func(string) string) string {
	if d := StateDir(getenv); d != "" {
		return filepath.Join(d, "lineage")
	}
	return ""
}
