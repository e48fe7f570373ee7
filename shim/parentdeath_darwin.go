package shim

import "syscall"

// killOnParentDeath does nothing on macOS, which has no parent-death signal:
// guard-exec's watchdog (cmd/guard-exec keeper_darwin.go) kills the command
// when the guard dies by SIGKILL.
func killOnParentDeath(*syscall.SysProcAttr) {}
