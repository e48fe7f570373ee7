package main

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// overviewHead and overviewTail frame the list of commands in the
// overview (guard-exec help, --help, -h).
const overviewHead = `guard-exec stands in for the shell of coding agents and CI jobs: it checks
each command line before bash runs it, and records what ran.

Usage:
  guard-exec [OPTIONS] -c 'COMMAND' [ARG0 ARGS...]   run a command line, guarded
  guard-exec [OPTIONS] SCRIPT [ARGS...]              run a script file, judged as a whole
  guard-exec [OPTIONS] -- PROGRAM [ARGS...]          run one program, without a shell
  guard-exec COMMAND [FLAGS]

Bash's own options (-l, -e, -o pipefail, ...) are accepted; under the names
bash and sh (the PATH shim) guard-exec is strictly that shell.

Commands:
`

const overviewTail = `
Options, before the shell's:
  --mode=enforce|advise|audit  enforce blocks holds and denials; advise only warns;
                               audit prints nothing; all record (default: configured)
  --ci                         nobody answers: a hold exits 126 at once
                               (GITHUB_ACTIONS=true implies it)
  --timeout=DURATION           kill the command after DURATION (90s, 10m)
  --pty=auto|always|never      run the command under a pseudo-terminal
  --strict                     remove credentials from the command's environment
  -h, --help                   this help
  --version                    the version

Exit status: the command's own; 126 when guard-exec held or denied it; 125
when guard-exec itself failed; 127 when the script named is not found.

Run 'guard-exec help COMMAND' for a command's flags and examples.
`

func printOverview(w io.Writer) {
	fmt.Fprint(w, overviewHead)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, overviewTail)
}

// runHelp is `guard-exec help [COMMAND [VERB]]`.
func runHelp(ctx context.Context, g *guard, args []string) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
		lookupCommand("help").printHelp(g.helpWriter(), nil)
		return nil
	}
	if len(args) == 0 {
		printOverview(g.helpWriter())
		return nil
	}
	c := lookupCommand(args[0])
	if c == nil {
		return unknownCommand(args[0], "help")
	}
	verb := ""
	if len(args) > 1 {
		verb = args[1]
	}
	return g.helpFor(ctx, c, verb)
}

// unknownCommand is the error for a word that is no subcommand.
func unknownCommand(word, context string) error {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	msg := fmt.Sprintf("%s: unknown command %q", context, word)
	if s := suggest(word, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return usagef("%s (guard-exec help lists them)", msg)
}

// suggest returns the candidate closest to word when it is close enough
// to be a typo: at most one edit for short words, two for longer ones
// (a swap of two letters counts as one).
func suggest(word string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		d := editDistance(word, c)
		if d < bestD {
			best, bestD = c, d
		}
	}
	max := 1
	if len(word) > 4 {
		max = 2
	}
	if bestD > max {
		return ""
	}
	return best
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and swaps of adjacent bytes.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 64
	}
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// flagSuggestion is " (did you mean --json?)" for an unknown flag close
// to one the flag set has.
func flagHint(name string, known []string) string {
	name = strings.TrimLeft(name, "-")
	if s := suggest(name, known); s != "" {
		return fmt.Sprintf("; did you mean --%s?", s)
	}
	return ""
}

// verbHint is "; did you mean "show"?" for a verb close to a known one.
func verbHint(verb string, verbs []string) string {
	if s := suggest(verb, verbs); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}
