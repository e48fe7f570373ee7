package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/guard-exec/guard-exec/internal/paths"
	"github.com/guard-exec/guard-exec/shim"
)

// runShimCmd is `guard-exec shim …`: the PATH shim's installer.
func runShimCmd(_ context.Context, g *guard, args []string) error {
	verb := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		verb, args = args[0], args[1:]
	}
	fs := g.flags("shim")
	dirFlag := fs.String("dir", "", "the shim directory `DIR`")
	if err := g.parseFlags(fs, args); err != nil {
		return err
	}
	if verb == "help" {
		fs.Usage()
		return nil
	}
	if fs.NArg() > 0 {
		return usagef("shim %s takes no operands, got %q", verb, fs.Arg(0))
	}
	switch verb {
	case "install", "uninstall", "status":
	case "":
		return usagef("shim needs install, uninstall or status (guard-exec shim --help)")
	default:
		return usagef("shim: unknown action %q%s (want install, uninstall or status)", verb, verbHint(verb, lookupCommand("shim").verbs))
	}
	dir, err := g.shimDir(*dirFlag)
	if err != nil {
		return err
	}
	switch verb {
	case "install":
		return g.shimInstall(dir)
	case "uninstall":
		return g.shimUninstall(dir)
	}
	return g.shimStatus(dir)
}

// shimDir is --dir made absolute, or the default.
func (g *guard) shimDir(flag string) (string, error) {
	if flag == "" {
		d := paths.ShimDir(g.getenv)
		if d == "" {
			return "", usagef("no home directory to put the shim in; give --dir DIR")
		}
		return d, nil
	}
	abs, err := filepath.Abs(flag)
	if err != nil {
		return "", usagef("--dir: %v", err)
	}
	return abs, nil
}

func (g *guard) shimInstall(dir string) error {
	target, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the guard-exec executable: %w", err)
	}
	if t, err := filepath.EvalSymlinks(target); err == nil {
		target = t
	}
	if strings.Contains(target, string(filepath.Separator)+"go-build") {
		fmt.Fprintf(g.st.err, "guard-exec: warning: this guard-exec is a temporary build (go run) and the links will break when it is cleaned up; install it first: go install ./cmd/guard-exec\n")
	}
	if err := shim.Install(dir, target); err != nil {
		return err
	}
	fmt.Fprintf(g.st.err, "guard-exec: installed bash and sh in %s (links to %s)\n", dir, target)
	if i := shim.OnPath(dir, g.vars["PATH"]); i != 0 {
		fmt.Fprintf(g.st.err, "guard-exec: hint: put the directory first on PATH and use guard-exec as the shell: eval \"$(guard-exec shim install)\" or add these lines to your profile\n")
	}
	fmt.Fprintf(g.st.out, "export PATH=%s:\"$PATH\"\n", shellWord(dir))
	fmt.Fprintf(g.st.out, "export SHELL=%s\n", shellWord(target))
	return nil
}

func (g *guard) shimUninstall(dir string) error {
	removed, err := shim.Uninstall(dir, self())
	for _, p := range removed {
		fmt.Fprintf(g.st.err, "guard-exec: removed %s\n", p)
	}
	if len(removed) == 0 && err == nil {
		fmt.Fprintf(g.st.err, "guard-exec: nothing to remove in %s\n", dir)
	}
	if shim.OnPath(dir, g.vars["PATH"]) >= 0 {
		fmt.Fprintf(g.st.err, "guard-exec: hint: %s is still on PATH; remove it from your profile\n", dir)
	}
	if err != nil {
		return fmt.Errorf("shim uninstall: %w", err)
	}
	return nil
}

// shimStatus prints the shim's state; exit 1 when it is not in effect.
func (g *guard) shimStatus(dir string) error {
	ok := g.printShimStatus(dir)
	if !ok {
		return status(1)
	}
	return nil
}

// printShimStatus describes dir's links and the real shells behind them;
// it reports whether both links are installed and found first on PATH.
func (g *guard) printShimStatus(dir string) bool {
	path := g.vars["PATH"]
	ok := true
	fmt.Fprintf(g.st.out, "shim directory: %s\n", dir)
	for _, l := range shim.Status(dir, path, self()) {
		var state string
		switch {
		case !l.Exists:
			state, ok = "not installed", false
		case !l.Ours:
			state, ok = "not guard-exec (left alone)", false
		case l.Target == "":
			state, ok = "broken link: its guard-exec binary is gone; run guard-exec shim install again", false
		case !l.Active():
			state, ok = fmt.Sprintf("installed, but PATH finds %s first", orNone(l.Found)), false
		default:
			state = "active: PATH finds it first"
		}
		fmt.Fprintf(g.st.out, "  %-4s %s\n", l.Name, state)
		if real, err := shim.FindShell("bash", path, g.pathSet(), self()); err == nil {
			fmt.Fprintf(g.st.out, "       real %s: %s%s\n", l.Name, real, asSh(l.Name))
		} else {
			fmt.Fprintf(g.st.out, "       real %s: none found (%v)\n", l.Name, err)
			ok = false
		}
	}
	return ok
}

// pathSet reports whether the environment has a PATH at all.
func (g *guard) pathSet() bool {
	_, ok := g.vars["PATH"]
	return ok
}

func orNone(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}

// shellWord quotes s for a shell line the user may eval.
func shellWord(s string) string {
	q, err := quote(s)
	if err != nil {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return q
}

// asSh is what follows the real shell's path for a shim named name: the
// shim named sh runs bash called as sh (shell.go).
func asSh(name string) string {
	if name == "sh" {
		return ", called as sh (POSIX mode)"
	}
	return ""
}
