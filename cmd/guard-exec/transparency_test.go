package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/guard-exec/guard-exec/internal/transparency"
)

// TestTransparency is the differential test of the whole program: every
// row of the shared table runs as `bash ARGS` and as `guard-exec ARGS`
// (the installed binary, ledger and all), with stdout and stderr as two
// files and as one file, and the two runs must agree byte for byte on
// stdout, stderr and exit status.
func TestTransparency(t *testing.T) {
	cases, err := transparency.Load("../../testdata/transparency/commands.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 40 {
		t.Fatalf("the table has %d cases; the differential test wants at least 40", len(cases))
	}
	guardExe, bash := installedGuard(t), realBashOnPath(t)
	dir := t.TempDir()
	env := append(os.Environ(), "GUARD_EXEC_LEDGER_DIR="+filepath.Join(t.TempDir(), "ledger"),
		"GUARD_EXEC_SESSION=transparency")
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			extra, err := c.Environ(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			c.Env = extra
			for _, merged := range []bool{false, true} {
				want := runOnce(t, bash, "bash", dir, env, c, merged)
				got := runOnce(t, guardExe, "guard-exec", dir, env, c, merged)
				if c.Warns != "" {
					got = expectWarning(t, c.Warns, merged, got)
				}
				if got.status != want.status {
					t.Errorf("merged=%v: exit status %d, bash gave %d", merged, got.status, want.status)
				}
				sameBytes(t, "stdout", merged, want.out, got.out)
				if !merged {
					sameBytes(t, "stderr", merged, want.err, got.err)
				}
			}
		})
	}
}

// installedGuard is the guard-exec that testscript's Main put on PATH.
func installedGuard(t *testing.T) string {
	p, err := exec.LookPath("guard-exec")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// realBashOnPath skips the directory where the test's own bash and sh
// stand-ins live.
func realBashOnPath(t *testing.T) string {
	skip := filepath.Dir(installedGuard(t))
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if d == skip || d == "" {
			continue
		}
		if p := filepath.Join(d, "bash"); isExecutable(p) {
			return p
		}
	}
	t.Fatal("no bash on PATH")
	return ""
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

type runSum struct {
	status   int
	out, err transparency.Output
}

func runOnce(t *testing.T, path, arg0, dir string, env []string, c transparency.Case, merged bool) runSum {
	t.Helper()
	tmp := t.TempDir()
	stdin, err := c.StdinFile(tmp)
	if err != nil {
		t.Fatal(err)
	}
	outPath, errPath := filepath.Join(tmp, "out"), filepath.Join(tmp, "err")
	stdout, err := os.Create(outPath)
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	stderr := stdout
	if !merged {
		if stderr, err = os.Create(errPath); err != nil {
			t.Fatal(err)
		}
		defer stderr.Close()
	}
	cmd := exec.Command(path, c.BashArgs()...)
	cmd.Args[0] = arg0
	cmd.Dir, cmd.Env = dir, append(append([]string(nil), env...), c.Env...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if stdin != nil {
		defer stdin.Close()
		cmd.Stdin = stdin
	}
	err = cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	r := runSum{status: statusOf(cmd.ProcessState), out: sumOf(t, outPath)}
	if !merged {
		r.err = sumOf(t, errPath)
	}
	return r
}

// statusOf is the exit status, or for a death by signal N, -N: the guard must
// die by the signal bash died by, not exit with 128+N.
func statusOf(ps *os.ProcessState) int {
	ws := ps.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return -int(ws.Signal())
	}
	return ws.ExitStatus()
}

func sumOf(t *testing.T, path string) transparency.Output {
	t.Helper()
	o, err := transparency.SumFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// expectWarning checks that the guard's stderr starts with its warning
// line for rule, and returns the run without it.
func expectWarning(t *testing.T, rule string, merged bool, r runSum) runSum {
	t.Helper()
	prefix := "guard-exec: warning: " + rule + ": "
	var ok bool
	if merged {
		r.out, ok = r.out.WithoutFirstLine(prefix)
	} else {
		r.err, ok = r.err.WithoutFirstLine(prefix)
	}
	if !ok {
		t.Errorf("merged=%v: no %q line first on stderr", merged, prefix)
	}
	return r
}

func sameBytes(t *testing.T, stream string, merged bool, want, got transparency.Output) {
	t.Helper()
	if !got.Same(want) {
		t.Errorf("merged=%v: %s differs%s", merged, stream, transparency.Diff(got, want))
	}
}

// TestArgv0FromExecA: a guard started under a name of the caller's choosing
// (`exec -a myname guard-exec -c …`) gives bash that name, for $0 and its
// messages, as bash started that way would have.
func TestArgv0FromExecA(t *testing.T) {
	dir := t.TempDir()
	out, err := os.Create(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	errf, err := os.Create(filepath.Join(dir, "err"))
	if err != nil {
		t.Fatal(err)
	}
	defer errf.Close()
	env := append(os.Environ(), "GUARD_EXEC_LEDGER_DIR="+filepath.Join(dir, "ledger"))
	st := &stdio{in: nil, out: out, err: errf}
	_ = run(context.Background(), []string{"myname", "-c", "echo $0; no-such-cmd-xyz"}, env, st)
	gotOut, _ := os.ReadFile(out.Name())
	gotErr, _ := os.ReadFile(errf.Name())
	if string(gotOut) != "myname\n" || string(gotErr) != "myname: line 1: no-such-cmd-xyz: command not found\n" {
		t.Errorf("stdout %q stderr %q", gotOut, gotErr)
	}
}

// TestShimNamedShIsPOSIXBash: guard-exec called as sh (a shim link named
// sh) runs bash called as sh, in POSIX mode, whatever /bin/sh is: each
// script gives what `bash` started with argv[0] "sh" gives, byte for byte,
// messages and statuses included.
func TestShimNamedShIsPOSIXBash(t *testing.T) {
	guardExe, bash := installedGuard(t), realBashOnPath(t)
	dir := t.TempDir()
	env := append(os.Environ(), "GUARD_EXEC_LEDGER_DIR="+filepath.Join(t.TempDir(), "ledger"))
	for _, args := range [][]string{
		{"-c", `shopt -o posix; echo "$0"; set -o | grep -w posix`},
		{"-c", `[[ -n x ]] && echo bash-syntax; a=(1 2); echo "${a[1]}"`},
		{"-c", `echo "a\tb"; type echo`},
		{"-c", `no-such-cmd-xyz`},
		{"-c", `f() { return 3; }; f; echo $?; kill -l 15`},
		{"-c", `echo "$0 $1"`, "zero", "one"},
	} {
		var want, got [2]string
		var wantCode, gotCode int
		for i, exe := range []string{bash, guardExe} {
			cmd := exec.Command(exe, args...)
			cmd.Args[0] = "sh"
			cmd.Dir, cmd.Env = dir, env
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				t.Fatal(err)
			}
			if i == 0 {
				want, wantCode = [2]string{out.String(), errb.String()}, statusOf(cmd.ProcessState)
			} else {
				got, gotCode = [2]string{out.String(), errb.String()}, statusOf(cmd.ProcessState)
			}
		}
		if got != want || gotCode != wantCode {
			t.Errorf("sh %q: guard gave %q status %d, bash as sh gave %q status %d", args, got, gotCode, want, wantCode)
		}
	}
}

// TestShellNamedAsCalled: bash names itself in its messages by the argv[0]
// it was called by — a shim called by its path, a login shell's "-bash" —
// and so does the guard. (In process: testscript dispatches on argv[0].)
func TestShellNamedAsCalled(t *testing.T) {
	for _, argv0 := range []string{"/opt/shim/bash", "-bash", "/x/sh", "bash"} {
		dir := t.TempDir()
		errf, err := os.Create(filepath.Join(dir, "err"))
		if err != nil {
			t.Fatal(err)
		}
		env := append(os.Environ(), "GUARD_EXEC_LEDGER_DIR="+filepath.Join(dir, "ledger"))
		st := &stdio{out: errf, err: errf}
		err = run(context.Background(), []string{argv0, filepath.Join(dir, "no-such-script")}, env, st)
		errf.Close()
		got, _ := os.ReadFile(errf.Name())
		want := argv0 + ": " + filepath.Join(dir, "no-such-script") + ": No such file or directory\n"
		var se statusError
		if string(got) != want || !errors.As(err, &se) || se.code != 127 {
			t.Errorf("%s: %q, %v; want %q and status 127", argv0, got, err, want)
		}
	}
}
