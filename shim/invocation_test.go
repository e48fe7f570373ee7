package shim

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

// probe is the -c script of the table: when the differential test runs a row with
// real bash, its output shows that bash ran this operand as the script, and with
// which $0, positional parameters and flags.
const probe = `echo "ran:$0:$#:$*:$-"`

type invCase struct {
	shell string // argv[0]; "" means "bash"
	args  []string
	want  Invocation
	err   string // the UsageError message, when the line is refused
	code  int    // and its exit status
}

func sv(s ...string) []string { return s }

var invocationCases = []invCase{
	// -c: the script is the first operand, wherever -c is
	{args: sv("-c", probe), want: Invocation{HasCommand: true, Command: probe}},
	{args: sv("-c", probe, "zero", "one"), want: Invocation{HasCommand: true, Command: probe, Args: sv("zero", "one")}},
	{args: sv("-c", "-l", probe), want: Invocation{HasCommand: true, Command: probe, Login: true, ShellOpts: sv("-l")}},
	{args: sv("-lc", probe), want: Invocation{HasCommand: true, Command: probe, Login: true, ShellOpts: sv("-l")}},
	{args: sv("-ec", probe), want: Invocation{HasCommand: true, Command: probe, ShellOpts: sv("-e")}},
	{args: sv("-ce", probe), want: Invocation{HasCommand: true, Command: probe, ShellOpts: sv("-e")}},
	{args: sv("-c", "-e", probe), want: Invocation{HasCommand: true, Command: probe, ShellOpts: sv("-e")}},
	{args: sv("-e", "-u", "-x", "-c", probe), want: Invocation{HasCommand: true, Command: probe, ShellOpts: sv("-e", "-u", "-x")}},
	{args: sv("-o", "pipefail", "-c", probe), want: Invocation{HasCommand: true, Command: probe, ShellOpts: sv("-o", "pipefail")}},
	{args: sv("+o", "posix", "-c", probe), want: Invocation{HasCommand: true, Command: probe, ShellOpts: sv("+o", "posix")}},
	{args: sv("-eo", "pipefail", "-c", probe), want: Invocation{HasCommand: true, Command: probe, ShellOpts: sv("-e", "-o", "pipefail")}},
	{args: sv("-oO", "pipefail", "extglob", "-c", probe), want: Invocation{HasCommand: true, Command: probe, ShellOpts: sv("-o", "pipefail", "-O", "extglob")}},
	{args: sv("-cO", "extglob", probe), want: Invocation{HasCommand: true, Command: probe, ShellOpts: sv("-O", "extglob")}},
	{args: sv("-O", "extglob", "+O", "dotglob", "-c", probe), want: Invocation{HasCommand: true, Command: probe, ShellOpts: sv("-O", "extglob", "+O", "dotglob")}},
	{args: sv("+e", "-c", probe), want: Invocation{HasCommand: true, Command: probe, ShellOpts: sv("+e")}},
	{args: sv("+c", probe, "a"), want: Invocation{HasCommand: true, Command: probe, Args: sv("a")}},
	{args: sv("-i", "-c", probe), want: Invocation{HasCommand: true, Command: probe, Interactive: true, ShellOpts: sv("-i")}},
	{args: sv("-s", "-c", probe, "a"), want: Invocation{HasCommand: true, Command: probe, Args: sv("a"), ShellOpts: sv("-s")}},
	{args: sv("-c", ""), want: Invocation{HasCommand: true, Command: ""}},

	// long options: only before the short ones, also with one dash
	{args: sv("--login", "-c", probe), want: Invocation{HasCommand: true, Command: probe, Login: true, ShellOpts: sv("--login")}},
	{args: sv("-login", "-c", probe), want: Invocation{HasCommand: true, Command: probe, Login: true, ShellOpts: sv("--login")}},
	{args: sv("--noprofile", "--norc", "-c", probe), want: Invocation{HasCommand: true, Command: probe, ShellOpts: sv("--noprofile", "--norc")}},
	{args: sv("-norc", "-c", probe), want: Invocation{HasCommand: true, Command: probe, ShellOpts: sv("--norc")}},
	{args: sv("--rcfile", "/dev/null", "-c", probe), want: Invocation{HasCommand: true, Command: probe, ShellOpts: sv("--rcfile", "/dev/null")}},
	{args: sv("--init-file", "/dev/null", "--posix", "-c", probe), want: Invocation{HasCommand: true, Command: probe, ShellOpts: sv("--init-file", "/dev/null", "--posix")}},
	{args: sv("--norc", "--login", "-e", "-c", probe), want: Invocation{HasCommand: true, Command: probe, Login: true, ShellOpts: sv("--norc", "--login", "-e")}},
	{args: sv("--version"), want: Invocation{ReadStdin: true, ShellOpts: sv("--version")}},

	// the end of the options
	{args: sv("-c", "--", probe, "a"), want: Invocation{HasCommand: true, Command: probe, Args: sv("a")}},
	{args: sv("-c", "-", probe, "a"), want: Invocation{HasCommand: true, Command: probe, Args: sv("a")}},
	{args: sv("-c", "+", probe, "a"), want: Invocation{HasCommand: true, Command: probe, Args: sv("a")}},
	{args: sv("-c", "--", "-x"), want: Invocation{HasCommand: true, Command: "-x"}},
	{args: sv("-c", probe, "-e", "--", "+x"), want: Invocation{HasCommand: true, Command: probe, Args: sv("-e", "--", "+x")}},
	{args: sv("--", "-c", "x"), want: Invocation{ScriptFile: "-c", Args: sv("x")}},
	{args: sv("-", "script.sh", "a"), want: Invocation{ScriptFile: "script.sh", Args: sv("a")}},

	// a script file, stdin
	{args: sv("script.sh", "a", "b"), want: Invocation{ScriptFile: "script.sh", Args: sv("a", "b")}},
	{args: sv("-e", "script.sh"), want: Invocation{ScriptFile: "script.sh", ShellOpts: sv("-e")}},
	{args: sv("-s", "a", "b"), want: Invocation{ReadStdin: true, Args: sv("a", "b"), ShellOpts: sv("-s")}},
	{args: sv(), want: Invocation{ReadStdin: true}},
	{args: sv("-"), want: Invocation{ReadStdin: true}},
	{args: sv("-x"), want: Invocation{ReadStdin: true, ShellOpts: sv("-x")}},
	{args: sv("-o"), want: Invocation{ReadStdin: true, ShellOpts: sv("-o")}},
	{args: sv("-os"), want: Invocation{ReadStdin: true, ShellOpts: sv("-s", "-o")}},

	// argv[0]: dialect, login, what $0 says
	{shell: "sh", args: sv("-c", probe), want: Invocation{Shell: "sh", Arg0: "sh", HasCommand: true, Command: probe}},
	{shell: "/opt/shims/sh", args: sv("-ec", probe), want: Invocation{Shell: "sh", Arg0: "/opt/shims/sh", HasCommand: true, Command: probe, ShellOpts: sv("-e")}},
	{shell: "-bash", args: sv("-c", probe), want: Invocation{Arg0: "-bash", Login: true, HasCommand: true, Command: probe}},
	{shell: "guard-exec", args: sv("-c", probe), want: Invocation{Arg0: "", HasCommand: true, Command: probe}},
	{shell: "-guard-exec", args: sv(), want: Invocation{Arg0: "", Login: true, ReadStdin: true}},

	// refused, with bash's message and status
	{args: sv("-c"), err: "bash: -c: option requires an argument", code: 2},
	{args: sv("-ec"), err: "bash: -c: option requires an argument", code: 1},
	{args: sv("-c", "-e"), err: "bash: -c: option requires an argument", code: 1},
	{args: sv("-z", "-c", probe), err: "bash: -z: invalid option", code: 2},
	{args: sv("-ez", "-c", probe), err: "bash: -z: invalid option", code: 1},
	{args: sv("-o", "errexit", "-z"), err: "bash: -z: invalid option", code: 1},
	{args: sv("-e", "+e", "-z"), err: "bash: -z: invalid option", code: 2},
	{args: sv("+q", "-c", probe), err: "bash: +q: invalid option", code: 2},
	{args: sv("-+", "-c", probe), err: "bash: -+: invalid option", code: 2},
	{args: sv("-I", "-c", probe), err: "bash: -I: invalid option", code: 2},
	{args: sv("--bogus", "-c", probe), err: "bash: --bogus: invalid option", code: 2},
	{args: sv("---", "-c", probe), err: "bash: ---: invalid option", code: 2},
	{args: sv("--rcfile=/dev/null", "-c", probe), err: "bash: --rcfile=/dev/null: invalid option", code: 2},
	{args: sv("-e", "--norc", "-c", probe), err: "bash: --: invalid option", code: 1},
	{args: sv("-c", "--login", probe), err: "bash: --: invalid option", code: 2},
	{args: sv("--rcfile"), err: "bash: rcfile: option requires an argument", code: 2},
	{shell: "sh", args: sv("-q", "-c", probe), err: "sh: -q: invalid option", code: 2},
	// the shim named sh runs bash as sh, which knows no dash-only letters (-I, -V)
	{shell: "sh", args: sv("-I", "-c", probe), err: "sh: -I: invalid option", code: 2},
}

func TestParseInvocation(t *testing.T) {
	for _, tc := range invocationCases {
		shell := tc.shell
		if shell == "" {
			shell = "bash"
		}
		t.Run(shell+" "+strings.Join(tc.args, " "), func(t *testing.T) {
			got, err := ParseInvocation(shell, tc.args)
			if tc.err != "" {
				var ue *UsageError
				if !errors.As(err, &ue) || ue.Msg != tc.err || ue.ExitCode() != tc.code {
					t.Fatalf("got %v (%#v), want UsageError %q exit %d", got, err, tc.err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if want.Shell == "" {
				want.Shell = "bash"
			}
			if want.Arg0 == "" && tc.shell == "" {
				want.Arg0 = "bash"
			}
			if !reflect.DeepEqual(public(*got), public(want)) {
				t.Fatalf("\n got %+v\nwant %+v", public(*got), public(want))
			}
			checkRoundTrip(t, shell, got)
		})
	}
}

// public is an Invocation without its unexported fields and with nil for empty
// slices, for comparisons.
func public(inv Invocation) Invocation {
	inv.loginArg0 = false
	if len(inv.Args) == 0 {
		inv.Args = nil
	}
	if len(inv.ShellOpts) == 0 {
		inv.ShellOpts = nil
	}
	return inv
}

// checkRoundTrip: the argv built for the real shell parses back to the same thing.
func checkRoundTrip(t *testing.T, shell string, inv *Invocation) {
	t.Helper()
	argv := inv.Argv("/usr/bin/" + inv.Shell)
	again, err := ParseInvocation(argv[0], argv[1:])
	if err != nil {
		t.Fatalf("Argv %q does not parse: %v", argv, err)
	}
	a, b := public(*inv), public(*again)
	a.Arg0, b.Arg0 = "", ""
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("Argv %q parses as\n %+v\nnot %+v", argv, b, a)
	}
}

func TestArgv(t *testing.T) {
	for _, tc := range []struct {
		shell string
		args  []string
		real  string
		want  []string
	}{
		{"bash", sv("-lc", "echo hi"), "/usr/bin/bash", sv("bash", "-l", "-c", "echo hi")},
		{"guard-exec", sv("-c", "echo $0", "zero"), "/usr/bin/bash", sv("bash", "-c", "echo $0", "zero")},
		{"/usr/local/bin/guard-exec", sv("-c", "x"), "/bin/bash", sv("bash", "-c", "x")},
		{"-guard-exec", sv("-c", "x"), "/bin/bash", sv("-bash", "-c", "x")},
		{"/shims/bash", sv("-c", "x"), "/bin/bash", sv("/shims/bash", "-c", "x")},
		{"sh", sv("-c", "--", "-x", "a"), "/bin/sh", sv("sh", "-c", "--", "-x", "a")},
		{"bash", sv("-s", "a"), "/bin/bash", sv("bash", "-s", "a")},
		{"bash", sv("-", "+s"), "/bin/bash", sv("bash", "--", "+s")},
		{"bash", sv("-c", "", "a"), "/bin/bash", sv("bash", "-c", "", "a")},
		{"bash", sv("-os"), "/bin/bash", sv("bash", "-s", "-o")},
		{"bash", sv("--login", "-o", "pipefail", "-c", "x"), "/bin/bash", sv("bash", "--login", "-o", "pipefail", "-c", "x")},
	} {
		inv, err := ParseInvocation(tc.shell, tc.args)
		if err != nil {
			t.Fatal(err)
		}
		if got := inv.Argv(tc.real); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %q: Argv = %q, want %q", tc.shell, tc.args, got, tc.want)
		}
	}
}

// TestInvocationAgainstBash runs the table's rows with real bash: a refused line
// must fail with the same message and status, and an accepted -c line must run the
// script the parser found, with the same $0, parameters and flags as the argv that
// Argv builds from it.
func TestInvocationAgainstBash(t *testing.T) {
	bash := realBash(t)
	for _, tc := range invocationCases {
		if tc.shell != "" && tc.shell != "bash" {
			continue
		}
		if tc.err == "" && !tc.want.HasCommand {
			continue // would read a script from stdin or a file
		}
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := runBash(t, bash, tc.args)
			if tc.err != "" {
				first, _, _ := strings.Cut(errOut, "\n")
				if code != tc.code || first != tc.err {
					t.Fatalf("bash: exit %d %q; table says exit %d %q", code, first, tc.code, tc.err)
				}
				return
			}
			inv, err := ParseInvocation("bash", tc.args)
			if err != nil {
				t.Fatal(err)
			}
			out2, errOut2, code2 := runBash(t, bash, inv.Argv(bash)[1:])
			if out != out2 || errOut != errOut2 || code != code2 {
				t.Fatalf("bash %q: %q %q %d\nbash %q (Argv): %q %q %d", tc.args, out, errOut, code, inv.Argv(bash), out2, errOut2, code2)
			}
			if tc.want.Command == probe && !strings.Contains(out, "ran:") {
				t.Fatalf("bash did not run the probe as the script: %q %q", out, errOut)
			}
		})
	}
}

func runBash(t *testing.T, bash string, args []string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bash, args...)
	cmd.Args[0] = "bash"
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir()) // no profile or rc file of the machine's
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	return o.String(), e.String(), exitCode(err)
}

// FuzzInvocation: the parser never panics, the script is never lost (with -c it is
// the first operand after the options, as a reference scan finds it), and Argv
// round-trips.
func FuzzInvocation(f *testing.F) {
	for _, tc := range invocationCases {
		f.Add(strings.Join(tc.args, "\x00"))
	}
	f.Fuzz(func(t *testing.T, joined string) {
		args := strings.Split(joined, "\x00")
		inv, err := ParseInvocation("bash", args)
		if err != nil {
			var ue *UsageError
			if !errors.As(err, &ue) || (ue.Code != 1 && ue.Code != 2) {
				t.Fatalf("%q: error %v is not a usage error", args, err)
			}
			return
		}
		if inv.HasCommand {
			if ops := referenceOperands(args); len(ops) == 0 || inv.Command != ops[0] {
				t.Fatalf("%q: Command %q, but the first operand is %q", args, inv.Command, ops)
			}
		}
		checkRoundTrip(t, "bash", inv)
	})
}

// referenceOperands finds the operands the simplest way: skip what bash skips
// (leading long options and the argument of those that take one, then option groups
// with one argument per o or O in them) and stop after "--" or "-".
func referenceOperands(args []string) []string {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		name := strings.TrimPrefix(strings.TrimPrefix(args[i], "-"), "-")
		if _, ok := lookupLong(name); !ok {
			break
		}
		if name == "rcfile" || name == "init-file" {
			i++
		}
		i++
	}
	for i < len(args) && args[i] != "" && (args[i][0] == '-' || args[i][0] == '+') {
		a := args[i]
		i++
		if a == "-" || a == "--" {
			break
		}
		i += strings.Count(a[1:], "o") + strings.Count(a[1:], "O")
	}
	if i > len(args) {
		return nil
	}
	return args[i:]
}
