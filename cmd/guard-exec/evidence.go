package main

import (
	"github.com/guard-exec/guard-exec/internal/paths"
	"github.com/guard-exec/guard-exec/internal/redact"
	"github.com/guard-exec/guard-exec/ledger"
)

// ledgerDir is where this directory's commands are recorded: the git
// work tree's .guard-exec/, or the user's ledger outside one (never a new
// .guard-exec/ in whatever directory a command runs in).
func (g *guard) ledgerDir() string {
	return ledger.Location(g.workTree(), g.getenv)
}

// workTree is the root of the git work tree of the working directory, ""
// outside one.
func (g *guard) workTree() string {
	return repoRoot(g.projectRoot())
}

// book opens the ledger of the current project once.
func (g *guard) book() (*ledger.Ledger, error) {
	if g.led != nil || g.ledErr != nil {
		return g.led, g.ledErr
	}
	g.led, g.ledErr = ledger.Open(g.ledgerDir(), g.ledgerOptions())
	return g.led, g.ledErr
}

// ledgerOptions are what this guard writes a ledger with: the
// configuration's limits, the user's key and anchors, the secrets to
// redact.
func (g *guard) ledgerOptions() ledger.Options {
	lc := g.config().Ledger
	return ledger.Options{Secrets: g.secretValues(),
		MaxBytes: lc.MaxBytes, Keep: lc.Keep, Durable: lc.Durable, Key: g.key(), AnchorDir: paths.AnchorDir(g.getenv)}
}

// readOptions are the options a reader of a ledger opens it with: the key
// and anchors, so that Verify checks them.
func (g *guard) readOptions() ledger.Options {
	return ledger.Options{Key: g.key(), AnchorDir: paths.AnchorDir(g.getenv)}
}

// secretValues are the values of environment variables whose names say
// they are secrets, so the ledger can redact them wherever they appear.
func (g *guard) secretValues() []string {
	var out []string
	for k, v := range g.vars {
		if len(v) >= 8 && redact.SecretEnvName(k) {
			out = append(out, v)
		}
	}
	return out
}
