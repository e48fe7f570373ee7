package sandbox

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
