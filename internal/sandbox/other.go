//go:build !linux

package sandbox

import "errors"

// NoLandlockEnv is Linux's: elsewhere there is no Landlock to pretend away.
const NoLandlockEnv = "GUARD_EXEC_SANDBOX_NO_LANDLOCK"

// ABI is 0: Landlock is Linux's.
func ABI() int { return 0 }

// hasSysAdmin is false: mount namespaces are Linux's.
func hasSysAdmin() bool { return false }

// ErrNoLandlock is the error of a sandbox this system cannot give.
var ErrNoLandlock = errors.New("no kernel sandbox here: guard-exec uses Landlock on Linux and Seatbelt (sandbox-exec) on macOS")
