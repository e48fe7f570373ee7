package shim

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/guard-exec/guard-exec/internal/transparency"
)

// TestTransparency runs every row of the shared table through bash directly and
// through Run (with the argv ParseInvocation and Argv build), with stdout and
// stderr as two files and as one file, and compares them byte for byte.
func TestTransparency(t *testing.T) {
	cases, err := transparency.Load("../testdata/transparency/commands.txt")
	if err != nil {
		t.Fatal(err)
	}
	bash := realBash(t)
	dir := t.TempDir() // one working directory for both runs, for `pwd`
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			env, err := c.Environ(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			c.Env = env
			for _, merged := range []bool{false, true} {
				want := runDirect(t, bash, dir, c, merged)
				got := runShim(t, bash, dir, c, merged)
				compareOutcome(t, merged, want, got)
			}
		})
	}
}

// outcome is one run: the output files' lengths and hashes, their contents when
// small, the exit status, and (for Run) the Result.
type outcome struct {
	out, err transparency.Output
	status   int
	res      *Result
}

func sumFile(t *testing.T, path string) transparency.Output {
	t.Helper()
	o, err := transparency.SumFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// caseFiles creates the output files of one run and opens the case's stdin.
func caseFiles(t *testing.T, c transparency.Case, merged bool) (stdin, stdout, stderr *os.File, outPath, errPath string) {
	t.Helper()
	dir := t.TempDir()
	var err error
	if stdin, err = c.StdinFile(dir); err != nil {
		t.Fatal(err)
	}
	outPath, errPath = filepath.Join(dir, "stdout"), filepath.Join(dir, "stderr")
	if stdout, err = os.Create(outPath); err != nil {
		t.Fatal(err)
	}
	stderr = stdout
	if !merged {
		if stderr, err = os.Create(errPath); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		for _, f := range []*os.File{stdin, stdout, stderr} {
			if f != nil {
				f.Close()
			}
		}
	})
	return
}

func runDirect(t *testing.T, bash, dir string, c transparency.Case, merged bool) outcome {
	t.Helper()
	stdin, stdout, stderr, outPath, errPath := caseFiles(t, c, merged)
	cmd := exec.Command(bash, c.BashArgs()...)
	cmd.Args[0] = "bash" // as when run by name from PATH: $0 and error messages say "bash"
	cmd.Env, cmd.Dir = append(os.Environ(), c.Env...), dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinOf(stdin), stdout, stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	o := outcome{status: waitStatus(cmd.ProcessState)}
	o.out = sumFile(t, outPath)
	if !merged {
		o.err = sumFile(t, errPath)
	}
	return o
}

func waitStatus(ps *os.ProcessState) int {
	ws := ps.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

func runShim(t *testing.T, bash, dir string, c transparency.Case, merged bool) outcome {
	t.Helper()
	stdin, stdout, stderr, outPath, errPath := caseFiles(t, c, merged)
	inv, err := ParseInvocation("bash", c.BashArgs())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), &Spec{
		Path: bash, Argv: inv.Argv(bash), Env: append(os.Environ(), c.Env...), Dir: dir,
		Stdin: stdin, Stdout: stdout, Stderr: stderr, PTY: PTYNever,
	})
	if err != nil {
		t.Fatal(err)
	}
	o := outcome{status: res.ExitCode, res: res}
	o.out = sumFile(t, outPath)
	if !merged {
		o.err = sumFile(t, errPath)
	}
	return o
}

func compareOutcome(t *testing.T, merged bool, want, got outcome) {
	t.Helper()
	mode := "separate"
	if merged {
		mode = "merged"
	}
	if got.status != want.status {
		t.Errorf("%s: exit status %d, bash gave %d", mode, got.status, want.status)
	}
	compareSums(t, mode+" stdout", want.out, got.out)
	if !merged {
		compareSums(t, mode+" stderr", want.err, got.err)
	}
	// The digest must describe what reached the files.
	if got.res.Merged != merged {
		t.Errorf("%s: Result.Merged = %v", mode, got.res.Merged)
	}
	checkDigest(t, mode+" stdout digest", got.out, got.res.Stdout)
	if !merged {
		checkDigest(t, mode+" stderr digest", got.err, got.res.Stderr)
	}
}

func compareSums(t *testing.T, what string, want, got transparency.Output) {
	t.Helper()
	if !got.Same(want) {
		t.Errorf("%s differs%s", what, transparency.Diff(got, want))
	}
}

func checkDigest(t *testing.T, what string, file transparency.Output, s Stream) {
	t.Helper()
	want := file.SHA256
	if s.Hashed != s.Bytes {
		// Hashing gave way to a fast reader (copy.go): the hash is of a prefix of
		// at least hashFloor bytes.
		if s.Hashed < hashFloor || s.Hashed > s.Bytes {
			t.Errorf("%s: %d of %d bytes hashed", what, s.Hashed, s.Bytes)
		}
		want = prefixSum(t, file.Path, s.Hashed)
	}
	if s.Bytes != file.Size || s.SHA256 != want {
		t.Errorf("%s: %d bytes %s (of the first %d), the file has %d bytes %s", what, s.Bytes, s.SHA256, s.Hashed, file.Size, want)
	}
	if file.Data != nil && !s.Truncated && string(s.Head)+string(s.Tail) != string(file.Data) {
		t.Errorf("%s: head+tail %q, file %q", what, string(s.Head)+string(s.Tail), file.Data)
	}
}

// prefixSum is the hex SHA-256 of the first n bytes of a file.
func prefixSum(t *testing.T, path string, n int64) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.CopyN(h, f, n); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// stdinOf keeps a nil *os.File out of exec.Cmd's io.Reader (which would close the
// child's stdin instead of opening /dev/null).
func stdinOf(f *os.File) io.Reader {
	if f == nil {
		return nil
	}
	return f
}
