package shim

import (
	"os"
	"testing"
)

// rwEnv makes a helper (helper_test.go) forward by read and write too.
const rwEnv = "SHIM_TEST_READ_WRITE"

func init() {
	if os.Getenv(rwEnv) == "1" {
		readWriteRelay = true
	}
}

// relayPaths are the copier's ways of forwarding on this system: splice and
// tee, and the read/write path of the systems without them, which Linux runs
// here for its tests. use switches to one for the rest of t, helpers included.
var relayPaths = []struct {
	name string
	use  func(t *testing.T)
}{
	{"splice", func(*testing.T) {}},
	{"read-write", func(t *testing.T) {
		readWriteRelay = true
		t.Cleanup(func() { readWriteRelay = false })
		t.Setenv(rwEnv, "1")
	}},
}

// TestReadWriteRelay runs the copier's tests through the read/write path.
func TestReadWriteRelay(t *testing.T) {
	relayPaths[1].use(t)
	for _, tc := range []struct {
		name string
		f    func(*testing.T)
	}{
		{"destinations", TestCopyDestinations},
		{"hash-gives-way", TestHashGivesWay},
		{"digest", TestDigestInResult},
		{"background-holder", TestBackgroundHolder},
		{"caller-stdout-closed", TestCallerStdoutClosed},
		{"caller-stdout-closed-fd1", TestCallerStdoutClosedFd1},
		{"slow-reader", TestSlowReader},
		{"transparency", TestTransparency},
	} {
		t.Run(tc.name, tc.f)
	}
}
