package shim

import (
	"debug/buildinfo"
	"os"
	"testing"
)

// TestGoMainPath compares goMainPath with debug/buildinfo on the test binary
// (a Go program) and on programs that are not Go.
func TestGoMainPath(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	bi, err := buildinfo.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := goMainPath(self); !ok || got != bi.Path {
		t.Errorf("goMainPath(test binary) = %q, %v; debug/buildinfo says %q", got, ok, bi.Path)
	}
	for _, p := range []string{"/bin/sh", "/bin/bash", "/usr/bin/env"} {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		_, berr := buildinfo.ReadFile(p)
		if got, ok := goMainPath(p); ok != (berr == nil) {
			t.Errorf("goMainPath(%s) = %q, %v; debug/buildinfo: %v", p, got, ok, berr)
		}
	}
}
