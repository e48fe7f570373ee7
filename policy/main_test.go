package policy

import (
	"os"
	"testing"

	"github.com/guard-exec/guard-exec/internal/paths"
)

// The tables are written with homes like /home/user, which this machine
// does not have: guard-exec's own files are looked for under them anyway
// (paths.Home falls back to the user database's home for a HOME that is
// not there).
func TestMain(m *testing.M) {
	paths.FictionalHomes()
	os.Exit(m.Run())
}
