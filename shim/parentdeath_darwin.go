package shim

import "syscall"

// killOnParentDeath does nothing on macOS, which has no parent-death signal: a
// guard killed by SIGKILL leaves the command running, as bash killed that way
// would (the signals the guard can catch are passed on as everywhere).
func killOnParentDeath(*syscall.SysProcAttr) {}
