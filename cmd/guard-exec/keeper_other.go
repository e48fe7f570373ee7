//go:build !linux && !darwin

package main

import "github.com/guard-exec/guard-exec/shim"

// keeperArg is the first argument of guard-exec started as a keeper.
const keeperArg = "__keeper"

// keeper is Linux's (keeper_linux.go): a cgroup and the process that ends
// it when the guard dies; macOS has a watchdog for the command's own
// process (keeper_darwin.go). Elsewhere (FreeBSD) there is none, and only
// the command's own process dies with the guard (shim's parent-death
// signal, procctl there).
type keeper struct{}

func startKeeper(*shim.Spec) *keeper { return nil }
func (*keeper) release()             {}
func (*keeper) left() []procKey      { return nil }
func (*keeper) inCgroup() bool       { return false }
func (*keeper) pid() int             { return 0 }
func keeperMain(string) int          { return 2 }
