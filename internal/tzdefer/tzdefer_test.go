package tzdefer

import (
	"go/build"
	"strings"
	"testing"
)

// TestImportsOnlySyscall: the package runs before package time only while
// it imports nothing that imports time (Go initialises packages in
// import-path order among those whose imports are done).
func TestImportsOnlySyscall(t *testing.T) {
	p, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(p.Imports, " ") != "syscall" {
		t.Errorf("tzdefer imports %q; only syscall keeps it ahead of package time", p.Imports)
	}
}
