package policy

import (
	"slices"
	"testing"
)

// TestSelfPathsCachedPerWorld checks that a PathCache shared by decisions
// in different worlds gives each its own guard-exec paths: a self set is
// reused only for the same Self, project, home and environment.
func TestSelfPathsCachedPerWorld(t *testing.T) {
	cache := NewPathCache()
	in := func(ledger, stateHome string) *Ctx {
		x := testCtx()
		x.Paths = cache
		x.Self.LedgerDir = ledger
		x.Env = map[string]string{"HOME": x.Home, "XDG_STATE_HOME": stateHome}
		return x
	}
	const cmd = "rm -rf /srv/a/ledger /srv/b/ledger /srv/c/state/guard-exec"
	for _, tc := range []struct {
		x    *Ctx
		want bool // self-ledger hit
	}{
		{in("/srv/a/ledger", "/srv/none"), true},
		{in("/srv/z/ledger", "/srv/none"), false},
		{in("/srv/a/ledger", "/srv/none"), true},
		{in("/srv/z/ledger", "/srv/c/state"), true},
		{in("/srv/z/ledger", "/srv/none"), false},
	} {
		got := slices.Contains(hitIDs(decideIn(tc.x, cmd)), "self-ledger")
		if got != tc.want {
			t.Errorf("ledger %s, XDG_STATE_HOME %s: self-ledger hit %v, want %v",
				tc.x.Self.LedgerDir, tc.x.Env["XDG_STATE_HOME"], got, tc.want)
		}
	}
}
