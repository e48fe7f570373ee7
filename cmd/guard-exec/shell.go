package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/guard-exec/guard-exec/parse"
	"github.com/guard-exec/guard-exec/shim"
)

// maxScript bounds what is read of a script file or of stdin; the analysis
// holds anything over its own 1 MiB bound, so one byte more is enough to
// know.
const maxScript = 1<<20 + 1

// runShell is guard-exec standing in for bash or sh: the shell's own
// option grammar, then analyse, decide, run, record.
//
// Where the script comes from decides how it is judged:
//
//	-c SCRIPT         the script, before anything runs
//	FILE              the whole file, before any line runs; bash reads FILE itself
//	stdin, a file     the whole rest of the file, before any line runs
//	stdin, a pipe     statement by statement as it arrives (stream.go)
//	stdin, a terminal an interactive bash with a guard on each line (interactive.go)
//
// argv0 is the caller's argv[0] for a shim ("bash", "/x/sh", "-bash") or
// "guard-exec" ("-guard-exec" for a login shell): it decides POSIX mode,
// whether the shell is a login shell, and the $0 the real shell gets.
func runShell(ctx context.Context, g *guard, argv0 string, args []string) error {
	name := strings.TrimPrefix(filepath.Base(argv0), "-")
	if name != "sh" {
		name = "bash"
	}
	inv, err := shim.ParseInvocation(argv0, args)
	if err == nil && inv.Arg0 == "" && !strings.HasPrefix(strings.TrimPrefix(filepath.Base(argv0), "-"), "guard-exec") {
		inv.Arg0 = argv0 // a name given with exec -a
	}
	if err != nil {
		if g.invocation == "shim" {
			// Strictly the shell: bash reports bad options with status 2.
			fmt.Fprintf(g.st.err, "%v\n", err)
			return status(usageStatus(err))
		}
		return usagef("%v", err)
	}
	// The real shell is bash for both names. Called as sh (argv[0] "sh",
	// "/x/sh", "-sh") bash runs in POSIX mode, as where /bin/sh is bash: the
	// command runs in the shell the analysis models, never in whatever
	// other shell /bin/sh happens to be (dash, busybox ash), whose quoting,
	// builtins and expansions the analysis does not follow.
	real, err := shim.FindShell("bash", g.vars["PATH"], g.pathSet(), selfFile())
	if err != nil {
		return err
	}
	mark("invocation")
	g.realShell = real
	if g.invocation == "shell" && claudePrefixOperand(g, inv) {
		inv.HasCommand, inv.Command, inv.ScriptFile = true, inv.ScriptFile, ""
	}
	j := &job{dialect: parse.Bash, dir: g.workdir(), path: real}
	switch {
	case inv.HasCommand:
		j.script, j.args = inv.Command, inv.Args
		j.argv = inv.Argv(real)
	case inv.ScriptFile != "":
		return g.runScriptFile(ctx, j, inv, name)
	case shim.IsTerminal(g.st.in):
		return g.interactive(inv, real)
	case isRegular(g.st.in):
		return g.runStdinFile(ctx, j, inv, name)
	default:
		return g.runStream(ctx, j, inv, name)
	}
	return g.execute(ctx, j)
}

// claudePrefixOperand reports whether guard-exec's only operand is a
// command line handed over by Claude Code's CLAUDE_CODE_SHELL_PREFIX, whose
// contract is "PREFIX COMMAND": Claude Code marks its shell with
// CLAUDECODE=1, and the operand names no file but reads as a command line.
// Anywhere else an operand is a script file, as for bash.
func claudePrefixOperand(g *guard, inv *shim.Invocation) bool {
	if g.vars["CLAUDECODE"] == "" || inv.ScriptFile == "" || len(inv.Args) > 0 || len(inv.ShellOpts) > 0 {
		return false
	}
	if _, err := os.Stat(inv.ScriptFile); !os.IsNotExist(err) {
		return false
	}
	return strings.ContainsAny(inv.ScriptFile, " \t\n;&|<>")
}

// usageStatus is the status bash exits with for a command line it refuses.
func usageStatus(err error) int {
	if ue, ok := err.(interface{ ExitCode() int }); ok {
		return ue.ExitCode()
	}
	return 2
}

// runScriptFile judges a whole script file before any of it runs (a held
// line anywhere means no line runs), then lets the real shell read the
// file itself, so $0, BASH_SOURCE, line numbers in error messages and
// reads of the script's own file behave as under bash. The file judged is
// the one bash will read: a name not in the current directory is looked
// for on PATH, as bash does.
func (g *guard) runScriptFile(ctx context.Context, j *job, inv *shim.Invocation, name string) error {
	g.invocation = "script"
	file := shim.ScriptPath(inv.ScriptFile, g.vars["PATH"], g.pathSet())
	if fi, err := os.Stat(file); err == nil && fi.IsDir() {
		// bash names the script as $0 before it finds it cannot read it.
		fmt.Fprintf(g.st.err, "%s: %s: Is a directory\n", inv.ScriptFile, inv.ScriptFile)
		return status(126)
	}
	b, err := readBounded(file)
	if err != nil {
		code := 127
		if os.IsPermission(err) {
			code = 126
		}
		// bash names itself by the argv[0] it was called by ("/x/bin/bash",
		// "-bash", an exec -a name); guard-exec under its own name is "bash".
		self := inv.Arg0
		if self == "" {
			self = name
		}
		fmt.Fprintf(g.st.err, "%s: %s: %v\n", self, inv.ScriptFile, pathErrText(err))
		return status(code)
	}
	j.script = string(b)
	j.args = append([]string{inv.ScriptFile}, inv.Args...)
	j.argv = inv.Argv(j.path)
	j.file = file
	return g.execute(ctx, j)
}

// runStdinFile judges a script that comes from a regular file on stdin
// (bash < script.sh) as a whole, then rewinds stdin so the real shell reads
// the same bytes from the same descriptor, as it would without the guard.
func (g *guard) runStdinFile(ctx context.Context, j *job, inv *shim.Invocation, name string) error {
	start, err := g.st.in.Seek(0, io.SeekCurrent)
	if err != nil {
		return g.runStream(ctx, j, inv, name)
	}
	b, err := io.ReadAll(io.LimitReader(g.st.in, maxScript))
	if err != nil {
		return fmt.Errorf("reading the script from stdin: %w", err)
	}
	if _, err := g.st.in.Seek(start, io.SeekStart); err != nil {
		return fmt.Errorf("rewinding stdin: %w", err)
	}
	j.script = string(b)
	j.args = append([]string{name}, inv.Args...)
	j.argv = inv.Argv(j.path)
	return g.execute(ctx, j)
}

func isRegular(f *os.File) bool {
	if f == nil {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode().IsRegular()
}

// pathErrText is an open error without the path, which the caller names.
func pathErrText(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		switch {
		case os.IsNotExist(pe.Err):
			return "No such file or directory"
		case os.IsPermission(pe.Err):
			return "Permission denied"
		}
		return pe.Err.Error()
	}
	return err.Error()
}

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxScript))
}

// selfFile names the running executable for the real-shell search, which
// only stats it to compare files: on Linux /proc/self/exe, whose stat is
// the executable's, saving the readlink of os.Executable (which reads the
// same link, so it fails exactly when this does) on every command.
func selfFile() string {
	if runtime.GOOS == "linux" {
		return "/proc/self/exe"
	}
	return self()
}

// self is the guard-exec executable, which the real-shell search skips.
func self() string {
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	return p
}
