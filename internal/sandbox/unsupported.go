//go:build !linux && !darwin

package sandbox

import "os/exec"

// Mechanism is "": this system has neither Landlock nor Seatbelt, so
// write and strict fail closed (SPEC §4.6) unless required = false.
func Mechanism() string { return "" }

// Missing says why no sandbox can be made here.
const Missing = "this system has neither Landlock (Linux) nor Seatbelt (macOS)"

// Start never forks: there is no boundary to start a command in.
func Start(fork func() (int, error), s *Spec) (Coverage, error) { return Coverage{}, ErrNoLandlock }

// StartCmd never starts c, for the same reason.
func StartCmd(c *exec.Cmd, s *Spec) (Coverage, error) { return Coverage{}, ErrNoLandlock }

// Wrap has no sandbox-exec to wrap a command in.
func Wrap(path string, argv, env []string, s *Spec) (string, []string, Coverage, error) {
	return "", nil, Coverage{}, ErrNoLandlock
}

// Exec never execs: there is no boundary to exec into.
func Exec(path string, argv, env []string, s *Spec) (Coverage, error) {
	return Coverage{}, ErrNoLandlock
}
