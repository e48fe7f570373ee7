//go:build !linux && !darwin

package sandbox

import "os/exec"

// Mechanism is "": this system has neither Landlock nor Seatbelt, so
// write and strict fail closed (SPEC §4.6) unless required = false.
func Mechanism() string { return "" }

// Missing says why no sandbox can be made here.
const Missing = "this system has neither Landlock (Linux) nor Seatbelt (macOS)"

// Start never starts c: there is no boundary to start it in.
func Start(c *exec.Cmd, s *Spec) (Coverage, error) { return Coverage{}, ErrNoLandlock }

// Exec never execs: there is no boundary to exec into.
func Exec(path string, argv, env []string, s *Spec) (Coverage, error) {
	return Coverage{}, ErrNoLandlock
}
