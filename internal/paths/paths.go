// Package paths names guard-exec's own locations: its configuration, its
// state and ledger, and the directory of its PATH shims. Every part of the
// program that reads, writes or protects them asks here, so that the place
// the shim installer writes to is the place the self-defence rules guard.
//
// Each function takes a getenv so callers can pass the environment of the
// command being judged rather than the process's own.
package paths

import (
	"os"
	"os/user"
	"path/filepath"
	"sync"
)

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
	if h := Home(getenv); h != "" {
		return filepath.Join(h, fallback, Name)
	}
	return ""
}

// Home is the home directory guard-exec keeps its own files under: $HOME
// when it names a directory; when HOME is unset (env -i), or names none (a
// test's HOME=/nonexistent, bash's tilde tests' HOME=/usr/$x/abc), the
// user database's home directory, if that exists. So guard-exec never makes
// a home directory of its own wherever HOME happens to point. A relative
// HOME is no home (""), as XDG treats relative values.
func Home(getenv func(string) string) string {
	h := getenv("HOME")
	if h != "" && !filepath.IsAbs(h) {
		return ""
	}
	home.Lock()
	defer home.Unlock()
	if home.done && home.in == h {
		return home.out
	}
	home.in, home.done, home.out = h, true, ""
	if h != "" && isDir(h) {
		home.out = h
	} else if u := userHome(); filepath.IsAbs(u) && isDir(u) {
		home.out = u
	}
	return home.out
}

// userHome is the user database's home directory; isDir reports whether a
// path is a directory. Variables, for tests of fictional homes.
var (
	userHome = func() string {
		u, err := user.Current()
		if err != nil {
			return ""
		}
		return u.HomeDir
	}
	isDir = func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && fi.IsDir()
	}
)

// home remembers Home's last answer: it is asked for several paths per
// command, with the same HOME.
var home struct {
	sync.Mutex
	in, out string
	done    bool
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

// FictionalHomes makes Home take every absolute HOME as a directory that
// exists, and the user database as having none, until restore is called:
// for tests whose tables are written with homes like /home/user that this
// machine does not have. Not safe while other goroutines call Home.
func FictionalHomes() (restore func()) {
	home.Lock()
	d, u := isDir, userHome
	isDir, userHome, home.done = func(p string) bool { return filepath.IsAbs(p) }, func() string { return "" }, false
	home.Unlock()
	return func() {
		home.Lock()
		isDir, userHome, home.done = d, u, false
		home.Unlock()
	}
}
