// Package paths names the directories guard-exec keeps its own files in,
// in one place, so that the commands that create them and the rules that
// protect them agree.
//
// Every function takes getenv instead of reading the process environment,
// so callers pass the environment the command line sees (tests pass a
// map). Relative XDG_* values are ignored, as the XDG Base Directory
// specification says; an empty result means no home directory is known.
package paths

import "path/filepath"

// DataDir is guard-exec's data directory: $XDG_DATA_HOME/guard-exec, else
// ~/.local/share/guard-exec.
func DataDir(getenv func(string) string) string {
	return xdg(getenv, "XDG_DATA_HOME", ".local/share")
}

// ShimDir is where `guard-exec shim install` puts its bash and sh links
// when no --dir is given: DataDir/shim.
func ShimDir(getenv func(string) string) string {
	d := DataDir(getenv)
	if d == "" {
		return ""
	}
	return filepath.Join(d, "shim")
}

// CacheDir is guard-exec's cache directory: $XDG_CACHE_HOME/guard-exec,
// else ~/.cache/guard-exec. It holds the index of large sourced files
// (an agent's shell snapshot), which the guard trusts as it trusts its
// configuration.
func CacheDir(getenv func(string) string) string {
	return xdg(getenv, "XDG_CACHE_HOME", ".cache")
}

func xdg(getenv func(string) string, name, fallback string) string {
	if d := getenv(name); filepath.IsAbs(d) {
		return filepath.Join(filepath.Clean(d), "guard-exec")
	}
	home := getenv("HOME")
	if !filepath.IsAbs(home) {
		return ""
	}
	return filepath.Join(filepath.Clean(home), fallback, "guard-exec")
}
