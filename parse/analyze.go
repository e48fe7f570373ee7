package parse

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Options describes the world a script runs in.
type Options struct {
	Dialect Dialect
	// Env is the environment the script runs with (HOME, TMPDIR, PWD, any
	// exported variable). A nil Env means the environment is not known:
	// every variable the script does not set itself is Unknown. A non-nil
	// Env is taken as exact: a name missing from it is unset and expands to
	// empty, as bash would.
	Env map[string]string
	// Dir is the absolute working directory; "" when not known.
	Dir string
	// NoCanonical is set by a caller that never reads Analysis.Canonical
	// (guard-exec check, which keeps no history): the tree is not printed
	// back, and Canonical is the script as given. Printing is about a
	// tenth of the analysis of a line that is not plain words.
	NoCanonical bool
	// Args are the positional parameters: Args[0] is $0, Args[1] is $1 …
	// (bash -c S _ a b). Nil means they are not known.
	Args []string
	// Files reads files for source, . and bash FILE; nil means sourced
	// files are not followed (a Dynamic fact instead).
	Files FileReader
	// Programs tells which known program a file on disk is (a link to
	// it, or a copy), so that a renamed program is judged as what it is;
	// nil means a program is what it is called.
	Programs ProgramIdentifier
	// Shell is the path of the bash that runs the script, which bash sets
	// as $BASH ("$BASH" -c … runs that bash); "" when not known.
	Shell string
	// MaxDepth bounds nested scripts (bash -c, eval, functions, …); values
	// under the default of 8 are raised to it.
	MaxDepth int
}

// ProgramIdentifier names the program a file is: "rm" for a symlink,
// hard link or copy of /usr/bin/rm; "" when it is none it knows. binary
// is set for a compiled program (not a script to read).
type ProgramIdentifier interface {
	ProgramAt(path string) (name string, binary bool)
}

// FileReader reads the files a script sources or runs.
type FileReader interface {
	ReadFile(path string) ([]byte, error)
}

// Bounds checked before parsing.
const (
	// MaxScript is the largest script analysed: agents write whole files
	// through heredocs, so it is generous.
	MaxScript = 1 << 20
	// MaxNesting bounds how deeply (, $(, ${, <( and { may nest: the
	// parser's cost grows fast with nesting (10,000 nested $( take it
	// 70 ms), so deeper input is refused before parsing.
	MaxNesting = 256
	// MaxChain bounds the pipes, && and || of one statement, and
	// MaxCommands the statements of a script, counted before parsing:
	// past them the parser's and the walk's cost is the attacker's. A
	// script of more statements would exhaust the work budget anyway.
	MaxChain    = 1000
	MaxCommands = workBudget
	// DefaultMaxDepth is the nesting limit for nested scripts.
	DefaultMaxDepth = 8
	// spanMax bounds Command.Span and Dynamic.Span.
	spanMax = 200
)

// Analyze describes every command script would run, without running
// anything. It never panics: a panic inside the analysis is returned as an
// Error of kind ErrPanic.
func Analyze(script string, opts Options) (an *Analysis) {
	an = &Analysis{Dialect: opts.Dialect, Raw: script, Canonical: script}
	defer func() {
		if r := recover(); r != nil {
			*an = Analysis{Dialect: opts.Dialect, Raw: script, Canonical: script}
			an.Err = &Error{Kind: ErrPanic, Msg: fmt.Sprintf("analysis panicked: %v", r)}
		}
	}()
	if e := checkBounds(script); e != nil {
		an.Err = e
		return an
	}
	src := joinDollarContinuations(script)
	f, e := parseScript(src, opts.Dialect)
	if e != nil {
		an.Err = e
		return an
	}
	root := newRoot(an, opts)
	fr := root.topFrame(src)
	fr.walkStmts(f.Stmts)
	root.finish(fr)
	if utf8.ValidString(src) && !opts.NoCanonical {
		an.Canonical = canonical(f, script, opts.Dialect)
	} // else the tree holds Unknown for the bytes that are not UTF-8: the raw script is the fingerprint
	return an
}

// AnalyzeArgv describes one simple command given as an argument vector, as
// exec would run it (guard-exec -- prog args…). A shell argv such as
// bash -c S is followed into S as usual.
func AnalyzeArgv(argv []string, opts Options) (an *Analysis) {
	raw := joinQuoted(argv, opts.Dialect)
	an = &Analysis{Dialect: opts.Dialect, Raw: raw, Canonical: raw}
	defer func() {
		if r := recover(); r != nil {
			*an = Analysis{Dialect: opts.Dialect, Raw: raw, Canonical: raw}
			an.Err = &Error{Kind: ErrPanic, Msg: fmt.Sprintf("analysis panicked: %v", r)}
		}
	}()
	size := 0
	for _, a := range argv {
		size += len(a) + 1
		if strings.IndexByte(a, 0) >= 0 {
			an.Err = &Error{Kind: ErrInvalid, Msg: "argument holds a NUL byte"}
			return an
		}
	}
	if size > MaxScript {
		an.Err = &Error{Kind: ErrTooLarge, Msg: fmt.Sprintf("arguments are %d bytes, over the %d-byte bound", size, MaxScript)}
		return an
	}
	if len(argv) == 0 {
		return an
	}
	root := newRoot(an, opts)
	fr := root.topFrame(raw)
	words := make([]Word, len(argv))
	for i, a := range argv {
		words[i] = Word{Value: a, Pos: Pos{Line: 1, Col: 1}}
	}
	fr.runArgv(words, nil, Pos{Line: 1, Col: 1}, raw)
	root.finish(fr)
	return an
}

// joinQuoted renders an argv as a shell command line.
func joinQuoted(argv []string, d Dialect) string {
	var sb strings.Builder
	for i, a := range argv {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(quoteWord(a, d))
	}
	return sb.String()
}
