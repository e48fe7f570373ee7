package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/guard-exec/guard-exec/shim"
)

// stdio are the streams run works with. They are files, not io.Readers,
// because the command inherits them and terminal checks need descriptors.
type stdio struct {
	in, out, err *os.File
}

// run is the whole program: args is the full argv, env the environment.
func run(ctx context.Context, args []string, env []string, st *stdio) error {
	if len(args) == 0 {
		args = []string{"guard-exec"}
	}
	g := newGuard(env, st)
	if g.onGitHub() {
		g.ci = true // nobody answers a question in a CI job
	}
	// login(1), tmux and terminal emulators start a login shell with a
	// '-' before its name: "-bash", "-guard-exec".
	name := strings.TrimPrefix(filepath.Base(args[0]), "-")
	if name == "bash" || name == "sh" {
		g.invocation = "shim"
		return runShell(ctx, g, args[0], args[1:])
	}
	arg0 := "guard-exec"
	switch {
	case !strings.HasPrefix(name, "guard-exec"):
		// `exec -a myname guard-exec -c 'echo $0'`: the name the caller
		// gave is bash's $0 and the name in its messages, as it would be.
		arg0 = args[0]
	case strings.HasPrefix(filepath.Base(args[0]), "-"):
		arg0 = "-guard-exec"
	}
	rest := args[1:]
	if len(rest) > 0 {
		if c := lookupCommand(rest[0]); c != nil {
			return c.run(ctx, g, rest[1:])
		}
		if rest[0] == "--" {
			g.invocation = "argv"
			return runArgv(ctx, g, rest[1:])
		}
	}
	rest, err := g.ownFlags(rest)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		switch rest[0] {
		case "--": // guard-exec --ci -- PROG …
			g.invocation = "argv"
			return runArgv(ctx, g, rest[1:])
		case "-h", "--help": // guard-exec's, not bash's: the shim names keep bash's
			printOverview(g.st.out)
			return nil
		case "--version":
			return runVersion(ctx, g, nil)
		}
		if err := g.typo(rest[0]); err != nil {
			return err
		}
	}
	g.invocation = "shell"
	return runShell(ctx, g, arg0, rest)
}

// typo catches a first argument that is neither bash's nor a file but
// reads as a misspelt subcommand or option of guard-exec's (guard-exec
// lgo, --mdoe=advise), and says what was probably meant. Anything else
// is left to bash, which reports it as bash does.
func (g *guard) typo(arg string) error {
	if name, ok := strings.CutPrefix(arg, "--"); ok {
		name, _, _ = strings.Cut(name, "=")
		if name == "" || shim.IsLongOption(name) {
			return nil
		}
		if s := suggest(name, ownFlagNames); s != "" {
			return usagef("unknown option --%s; did you mean --%s? (guard-exec --help lists the options)", name, s)
		}
		return nil
	}
	if arg == "" || strings.HasPrefix(arg, "-") || strings.HasPrefix(arg, "+") || strings.ContainsRune(arg, '/') {
		return nil
	}
	if fileExists(filepath.Join(g.workdir(), arg)) || shim.LookPath(arg, g.vars["PATH"]) != "" {
		return nil // a script bash would find
	}
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	s := suggest(arg, names)
	if s == "" {
		return nil
	}
	fmt.Fprintf(g.st.err, "guard-exec: error: %s: no such file, and not a guard-exec command; did you mean \"guard-exec %s\"?\n", arg, s)
	return status(exitNotFound)
}
