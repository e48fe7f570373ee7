// Package tzdefer keeps package initialisation from reading the local
// time zone, which every guarded command would otherwise pay for and none
// needs: guard-exec records times in UTC, and only the commands that show
// times to a person (log, show) need the local zone.
//
// The TOML library's internal package asks for the local zone's offset in
// a variable's initializer (for TOML's local date-time types), so
// /etc/localtime was read and parsed (about 60 µs in a fresh process)
// before main ran. Go initialises packages in import-path order among
// those whose imports are done; this package imports only syscall (and
// must stay so), so it runs before package time, and it sets TZ to "" (UTC) when TZ is unset,
// which makes the zone lookup free. Restore, first thing in main, takes
// the variable out again before anything reads the environment, so no
// command ever sees it, and whoever shows a local time loads the zone from TZ itself.
//
// What it changes: TOML local date-times (which no guard-exec setting
// has) read as UTC, and time.Local is UTC in guard-exec itself.
package tzdefer

import "syscall"

var (
	tz, hadTZ = syscall.Getenv("TZ")
	set       bool
)

func init() {
	if !hadTZ {
		set = syscall.Setenv("TZ", "") == nil
	}
}

// Restore takes out the TZ this package set. Call it before the
// environment is read.
func Restore() {
	if set {
		_ = syscall.Unsetenv("TZ")
		set = false
	}
}

// TZ is the caller's TZ, and whether it was set, for whoever loads the
// local zone itself.
func TZ() (string, bool) { return tz, hadTZ }
