package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/guard-exec/guard-exec/parse"
	"github.com/guard-exec/guard-exec/shim"
)

// maxScript bounds what is read of a script file or of stdin; the analysis
// holds anything over its own 1 MiB bound, so one byte more is enough to
// know.
const maxScript = 1<<20 + 1

// runShell is guard-exec standing in for bash or sh: the shell's own
// option grammar, then analyse, decide, run, record.
func runShell(ctx context.Context, g *guard, arg0 string, args []string) error {
	inv, err := shim.ParseInvocation(arg0, args)
	if err != nil {
		var ue *shim.UsageError
		if g.invocation == "shim" && errors.As(err, &ue) {
			// Strictly the shell: bash's own message and status.
			fmt.Fprintln(g.st.err, ue.Msg)
			return status(ue.ExitCode())
		}
		return usagef("%v", err)
	}
	name := inv.Shell
	real, err := shim.FindRealShell(inv.Shell, g.vars["PATH"], self())
	if err != nil {
		return err
	}
	dialect := parse.Bash
	if inv.Shell == "sh" {
		dialect = parse.POSIX
	}
	j := &job{dialect: dialect, dir: g.workdir(), path: real}
	switch {
	case inv.HasCommand:
		j.script, j.args = inv.Command, inv.Args
		j.argv = inv.Argv(real)
	case inv.ScriptFile != "":
		g.invocation = "script"
		b, err := readBounded(inv.ScriptFile)
		if err != nil {
			fmt.Fprintf(g.st.err, "%s: %s: %v\n", name, inv.ScriptFile, err)
			return status(127)
		}
		j.script = string(b)
		j.args = append([]string{inv.ScriptFile}, inv.Args...)
		j.argv = inv.Argv(real)
	case shim.IsTerminal(g.st.in):
		return g.interactive(ctx, inv, real)
	default:
		// The script comes from stdin. It is read whole and judged before any
		// of it runs, then handed to the shell as a -c script; commands in it
		// that read stdin see end of input, where under bash they would read
		// the rest of the script.
		b, err := io.ReadAll(io.LimitReader(g.st.in, maxScript))
		if err != nil {
			return fmt.Errorf("reading the script from stdin: %w", err)
		}
		j.script = string(b)
		j.args = append([]string{name}, inv.Args...)
		stdinInv := *inv
		stdinInv.HasCommand, stdinInv.Command, stdinInv.ReadStdin = true, j.script, false
		stdinInv.Args = j.args
		j.argv = stdinInv.Argv(real)
	}
	return g.execute(ctx, j)
}

// interactive runs the real shell for a person at a terminal. Lines typed
// there are not checked one by one; doc.go says so.
func (g *guard) interactive(ctx context.Context, inv *shim.Invocation, real string) error {
	fmt.Fprintf(g.st.err, "guard-exec: warning: interactive %s is not guarded line by line\n", inv.Shell)
	res, err := shim.Run(ctx, &shim.Spec{
		Path: real, Argv: inv.Argv(real), Env: g.childEnv(nil, ""), Dir: g.workdir(),
		Stdin: g.st.in, Stdout: g.st.out, Stderr: g.st.err, PTY: shim.PTYNever,
	})
	if err != nil {
		return err
	}
	return status(res.ExitCode)
}

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxScript))
}

// self is the guard-exec executable, which the real-shell search skips.
func self() string {
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	return p
}
