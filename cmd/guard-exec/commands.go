package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// command is one subcommand of guard-exec: its word, its help and its run
// function. Every help text (guard-exec help NAME, NAME --help), the
// overview, the shell completions and the man page are made from these
// entries, so a new subcommand is one entry in commands.
//
// Adding one: write its entry beside the others in help.go (summary,
// usage, doc, examples, run), list it in commands below, parse its flags
// with g.flags("NAME") and g.parseFlags (so --help prints the entry with
// the flags, and a misspelt flag gets a suggestion), add its word to
// parse's guardSubcommands (TestAnalysisKnowsSubcommands checks), and
// refresh the golden help: GUARD_EXEC_UPDATE_GOLDEN=1 go test -run
// 'TestScripts/(help_golden|cli_conventions)' ./cmd/guard-exec, after adding
// its two lines to help_golden.txtar.
type command struct {
	name     string
	summary  string   // one line for the overview: what it does
	usage    []string // synopsis lines, each after "guard-exec "
	doc      string   // what it does, in paragraphs; wrapped at 76 columns
	examples string   // "# why" comment lines and command lines
	run      func(ctx context.Context, g *guard, args []string) error
	verbs    []string // the first operand's words (config show|init|check), for completion
}

// commands in the order the overview lists them. (Assigned in init: the
// run functions print help from this table, which would otherwise be an
// initialisation cycle.)
var commands []*command

func init() {
	commands = []*command{
		cmdCheck,
		cmdExplain,
		cmdRules,
		cmdApprove,
		cmdLog,
		cmdShip,
		cmdShow,
		cmdStats,
		cmdLoops,
		cmdConfig,
		cmdShim,
		cmdHook,
		cmdDoctor,
		cmdCompletion,
		cmdMan,
		cmdVersion,
		cmdHelp,
	}
}

// lookupCommand returns the subcommand named word, or nil.
func lookupCommand(word string) *command {
	for _, c := range commands {
		if c.name == word {
			return c
		}
	}
	return nil
}

// flags is a subcommand's flag set: errors go to stderr, and -h/--help
// prints the command's whole help on stdout (parseFlags then returns
// status 0). name is the command word, with its verb if any ("config
// show").
func (g *guard) flags(name string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(g.st.err)
	fs.SortFlags = false
	word, _, _ := strings.Cut(name, " ")
	fs.Usage = func() {
		g.helpFS = fs
		if c := lookupCommand(word); c != nil {
			c.printHelp(g.helpWriter(), fs)
		}
	}
	return fs
}

// helpWriter is where help goes: stdout, or the buffer of a caller that
// collects help texts (completion, man).
func (g *guard) helpWriter() io.Writer {
	if g.helpOut != nil {
		return g.helpOut
	}
	return g.st.out
}

// printHelp writes the command's help in the shape every command shares:
// synopsis, description, flags, examples.
func (c *command) printHelp(w io.Writer, fs *pflag.FlagSet) {
	fmt.Fprintf(w, "guard-exec %s: %s\n\nUsage:\n", c.name, c.summary)
	for _, u := range c.usage {
		fmt.Fprintf(w, "  guard-exec %s\n", u)
	}
	fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.doc))
	if fs != nil && fs.HasAvailableFlags() {
		fmt.Fprintf(w, "\nFlags:\n")
		writeFlags(w, fs)
	}
	if ex := strings.TrimSpace(c.examples); ex != "" {
		fmt.Fprintf(w, "\nExamples:\n")
		for _, l := range strings.Split(ex, "\n") {
			fmt.Fprintf(w, "  %s\n", strings.TrimSpace(l))
		}
	}
}

// helpWidth is the width help text is wrapped at: the same on every
// terminal, so the text is one golden file and one man page.
const helpWidth = 80

// helpFor prints a command's help as `NAME --help` does, flags included:
// the command's own flag parsing prints it.
func (g *guard) helpFor(ctx context.Context, c *command, verb string) error {
	args := []string{"--help"}
	if verb != "" {
		args = []string{verb, "--help"}
	}
	g.helpFS = nil
	err := c.run(ctx, g, args)
	if code, ok := errStatus(err); ok && code == 0 {
		return nil
	}
	if g.helpFS == nil { // the command printed nothing: it has no flags
		c.printHelp(g.helpWriter(), nil)
		return nil
	}
	return err
}

// errStatus is the status an error carries, if it carries one.
func errStatus(err error) (int, bool) {
	if err == nil {
		return 0, true
	}
	if se, ok := err.(statusError); ok {
		return se.code, true
	}
	return 0, false
}

// collectFlags runs c's --help into a buffer and returns the flag set it
// parsed with, for completion and the man page; nil when it has none.
func collectFlags(ctx context.Context, c *command, verb string) *pflag.FlagSet {
	g := newGuard(nil, &stdio{})
	var sink strings.Builder
	g.helpOut = &sink
	_ = g.helpFor(ctx, c, verb)
	return g.helpFS
}

// isHelpArg reports whether a word asks for help.
func isHelpArg(s string) bool { return s == "-h" || s == "--help" || s == "help" }

// writeFlags lists a flag set's flags, one per line, their usage in a
// column and wrapped at helpWidth.
func writeFlags(w io.Writer, fs *pflag.FlagSet) {
	var lefts, usages []string
	width := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		arg, usage := pflag.UnquoteUsage(f)
		if f.Value.Type() == "bool" {
			arg = ""
		}
		left := "    --" + f.Name
		if f.Shorthand != "" {
			left = "-" + f.Shorthand + ", --" + f.Name
		}
		if arg != "" {
			left += " " + strings.ToUpper(arg)
		}
		if d := f.DefValue; d != "" && d != "false" && d != "0" && f.Value.Type() != "bool" {
			usage += " (default " + d + ")"
		}
		lefts, usages = append(lefts, left), append(usages, usage)
		width = max(width, len(left))
	})
	for i, left := range lefts {
		fmt.Fprintf(w, "  %-*s  ", width, left)
		col := 2 + width + 2
		line := col
		for j, word := range strings.Fields(usages[i]) {
			if j > 0 && line+1+len(word) > helpWidth {
				fmt.Fprintf(w, "\n%*s", col, "")
				line = col
			} else if j > 0 {
				fmt.Fprint(w, " ")
				line++
			}
			fmt.Fprint(w, word)
			line += len(word)
		}
		fmt.Fprintln(w)
	}
}
