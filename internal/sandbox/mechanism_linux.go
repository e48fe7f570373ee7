package sandbox

import "errors"

// Mechanism names the kernel boundary commands run under here:
// "landlock", or "" when the kernel has none.
func Mechanism() string {
	if ABI() > 0 {
		return "landlock"
	}
	return ""
}

// Missing says why no sandbox can be made here, for the messages of a
// sandbox that is required but unavailable.
const Missing = "the kernel has no Landlock"

// Wrap is Seatbelt's way in (macOS): on Linux Start forks the command
// from a restricted thread instead, so nothing is wrapped.
func Wrap(path string, argv, env []string, s *Spec) (string, []string, Coverage, error) {
	return "", nil, Coverage{}, errors.New("sandbox: Wrap is Seatbelt's (macOS); Linux bounds a command with Start")
}
