// Package redact removes secrets from text before it is shown or stored.
package redact

// String is a placeholder until the ledger work lands.
func String(s string, extra []string) string { return s }
