package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
)

// stdio are the streams run works with. They are files, not io.Readers,
// because the command inherits them and terminal checks need descriptors.
type stdio struct {
	in, out, err *os.File
}

// subcommands run under guard-exec's own name. Under a shim name (bash, sh)
// guard-exec is strictly the shell and none of these words is special.
var subcommands = map[string]func(ctx context.Context, g *guard, args []string) error{
	"check":   runCheck,
	"explain": runExplain,
	"rules":   runRules,
	"config":  runConfig,
	"approve": runApprove,
	"log":     runLog,
	"show":    runShow,
	"stats":   runStats,
	"loops":   runLoops,
	"version": runVersion,
	"help":    runHelp,
	"shim":    runShimCmd,
	"hook":    runHook,
	"doctor":  runDoctor,
	"ship":    runShip,
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
	if strings.HasPrefix(filepath.Base(args[0]), "-") {
		arg0 = "-guard-exec"
	}
	rest := args[1:]
	if len(rest) > 0 {
		if f, ok := subcommands[rest[0]]; ok {
			return f(ctx, g, rest[1:])
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
	if len(rest) > 0 && rest[0] == "--" { // guard-exec --ci -- PROG …
		g.invocation = "argv"
		return runArgv(ctx, g, rest[1:])
	}
	g.invocation = "shell"
	return runShell(ctx, g, arg0, rest)
}
