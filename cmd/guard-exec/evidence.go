package main

import (
	"github.com/guard-exec/guard-exec/internal/redact"
	"github.com/guard-exec/guard-exec/ledger"
)

// book opens the ledger of the current project once.
func (g *guard) book() (*ledger.Ledger, error) {
	if g.led != nil || g.ledErr != nil {
		return g.led, g.ledErr
	}
	dir := ledger.Location(g.projectRoot(), g.getenv)
	lc := g.config().Ledger
	g.led, g.ledErr = ledger.Open(dir, ledger.Options{Secrets: g.secretValues(),
		MaxBytes: lc.MaxBytes, Keep: lc.Keep, Durable: lc.Durable})
	return g.led, g.ledErr
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
