//go:build unix && !linux

package shim

import "testing"

// relayPaths: the read/write path is the only one here.
var relayPaths = []struct {
	name string
	use  func(t *testing.T)
}{
	{"read-write", func(*testing.T) {}},
}
