package shim

import (
	"os"
	"testing"
)

// BenchmarkFindShell is the real shell's lookup on this process's PATH, as
// every guarded command does it before anything runs.
func BenchmarkFindShell(b *testing.B) {
	self, _ := os.Executable()
	path, set := os.LookupEnv("PATH")
	for b.Loop() {
		if _, err := FindShell("bash", path, set, self); err != nil {
			b.Fatal(err)
		}
	}
}
