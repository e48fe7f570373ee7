package policy

import (
	"regexp"
	"sync"

	"github.com/guard-exec/guard-exec/parse"
)

// Rule is one risky pattern, as data.
type Rule struct {
	ID       string // stable, kebab-case
	Family   string // git, filesystem, system, remote-code, database, publish, infra, privilege, credentials, dynamic, self-defence, boundary, loop, user
	Severity Severity
	Message  string // one line: what the command would do
	Hint     string // the safer alternative an agent can take instead

	// Examples must produce a hit of this rule; NotExamples must not.
	Examples    []string
	NotExamples []string

	// Programs limits Command to commands with these names (after wrapper
	// peeling); empty means every command. The engine indexes rules by it,
	// so most rules cost nothing for most commands.
	Programs []string
	// Command reports whether one command matches.
	Command func(x *Ctx, c *parse.Command) bool
	// Dynamic reports whether a dynamic-execution fact matches.
	Dynamic func(x *Ctx, d *parse.Dynamic) bool
	// Script inspects the whole analysis, for facts that span commands
	// (a fork bomb, a file written then run). It returns the hits' spans.
	Script func(x *Ctx, a *parse.Analysis) []Span
	// row limits Command to commands of one row of the program table, a
	// subcommand's ("git push"); "" means any. A field, not a wrapper
	// made by a function call, for the same reason as finding's.
	row string
	// finding makes a boundary rule a Script rule of one finding of the
	// boundary pass: its spans are that finding's (boundary.go). A field,
	// not a Script made by a function call, so that the rule tables are
	// laid out by the compiler and not written at every start.
	finding finding

	// Bounded marks a rule whose risk is a write (a recursive delete) of a
	// place the kernel sandbox confines to the write roots: under
	// [sandbox] mode = "write" or "strict", a hit that is there only
	// because the place is unknown (a computed path) is a warning, not a
	// hold (sandbox.go). Rules whose harm the kernel does not bound — a
	// force push, a dropped table, a publish, sending data off — never are.
	Bounded bool

	// Quiet warnings are recorded and reported by check, but not printed
	// when the command runs: bash says the same thing itself (a syntax
	// error), and a second message would break transparency.
	Quiet bool

	// Raw is an RE2 pattern matched against the raw text when the script
	// cannot be parsed (SPEC §3: scan with every pattern, hold on any hit).
	// It is compiled on first use: start-up must not pay for a path that
	// almost never runs.
	Raw string

	rawOnce sync.Once
	rawRe   *regexp.Regexp
}

// Span is where a hit points.
type Span struct {
	Text string
	Pos  parse.Pos
}

func (r *Rule) raw() *regexp.Regexp {
	r.rawOnce.Do(func() {
		if r.Raw != "" {
			r.rawRe = regexp.MustCompile(r.Raw)
		}
	})
	return r.rawRe
}

// Hit is one rule matching one place.
type Hit struct {
	Rule     *Rule
	Severity Severity // the rule's severity after configuration
	// Bounded: lowered to a warning because the kernel sandbox confines
	// the unknown place it was held for (Rule.Bounded).
	Bounded bool
	Span    string // the command text, redacted and bounded
	Pos     parse.Pos
}

// ID returns the rule id.
func (h Hit) ID() string { return h.Rule.ID }
