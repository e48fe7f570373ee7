// Package policy decides what happens to a command line: allow, warn, hold
// or deny. It matches rules against the facts package parse found — never
// against raw text, except for the raw-text fallback when a script cannot be
// parsed — and takes everything else it needs (the filesystem, loop history)
// through small interfaces, so it can be tested without touching either.
//
// Rules are data: an id, a family, a severity, a one-line message, a hint
// naming the safer alternative, and examples that must and must not match.
// The verdict of a command line is the highest severity among its hits, then
// the mode (enforce, advise, audit) is applied.
package policy
