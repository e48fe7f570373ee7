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
//
// Configuration (config*.go) is TOML in layers — built-in defaults, the
// system file, the user file, the project's .guard-exec.toml — merged by
// LoadConfig, which never fails: every problem is reported with its
// file:line and the value of the layers below is kept, and the project
// layer may only tighten. NewEngineFromConfig builds the engine a
// configuration asks for. User rules (userrule.go) are data like the
// built-ins: a program name, an RE2 pattern over the command's text
// (CommandText), a severity, and examples checked through the real parser
// when the file is loaded.
package policy
