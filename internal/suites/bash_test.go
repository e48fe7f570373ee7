package suites

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// bashKnownDifferences are the scripts of bash's tests/ whose output
// through guard-exec differs from bash's, each with why. The list must be
// exact: a script in it that agrees with bash fails the run too.
var bashKnownDifferences = map[string]string{
	"cond": "held: mvdan/sh rejects `${H*}` (line 87), and the text of a script that does not parse " +
		"names a risky command (parse-error-risky)",
	"exportfunc": "held by design: the CVE-2014-6271/7169 checks put BASH_FUNC_ values that do not " +
		"parse in the environment, and code bash takes from the environment that cannot be read holds",
	"extglob": "denied: mvdan/sh rejects the file, and its text names /dev/udp/ (a case pattern), which " +
		"the fallback for scripts that do not parse takes for a network send",
	"ifs-posix": "held: 6856 cases, each an eval of computed text, exhaust the depth of nested code the " +
		"analysis follows (dynamic-too-deep); on a loaded machine bash itself outruns the time bound and it is not compared",
}

// bashUncomparable are scripts left out of the comparison: their output
// depends on timing, which the guard's own start-up changes.
var bashUncomparable = map[string]string{
	"coproc": "`coproc xcase` (a helper of bash's build tree, missing here) races the echo of ${COPROC[@]} after it",
	"read":   "read -t timeouts race sleeps and pipelines (`sleep 1 | read -t 0.25`) on a loaded machine",
}

// bashScriptTimeout bounds one script; a script that runs out of it under
// bash is left out (it waits for something this machine does not have).
const bashScriptTimeout = 20 * time.Second

// TestBashTests is a differential test over bash-5.2's own tests/: every
// NAME.tests script runs as `bash ./NAME.tests` and as `guard-exec
// ./NAME.tests` (THIS_SH, which the scripts use to start the shell again,
// and PATH's bash are the guard too), each in its own copy of the
// directory, and the two must agree byte for byte on the merged output and
// on the status. The guard's own warnings (lines starting "guard-exec:
// warning: ") are the one thing it may add: the suite is full of code the
// analysis cannot know (eval of variables, scripts the parser rejects on
// purpose). A script whose output under bash is not the same twice in a
// row (times, pids) is left out, and so is one that bash cannot finish
// and those in bashUncomparable.
//
// BASH_TESTS=read,glob runs only the scripts named.
//
// The scripts are compared with bash, not with their .right files: they
// want helper programs (recho, zecho) from bash's build tree, and fail the
// same way under both shells without them.
func TestBashTests(t *testing.T) {
	needSuites(t)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash on PATH")
	}
	work := t.TempDir()
	guard := buildGuard(t, work)
	shimDir := shimDirFor(t, work, guard)
	bashTree, guardTree := filepath.Join(work, "bash"), filepath.Join(work, "guard")
	unpack(t, "testdata/bash-5.2-tests.tar.gz", bashTree)
	unpack(t, "testdata/bash-5.2-tests.tar.gz", guardTree)
	all := bashTestNames(t, filepath.Join(bashTree, "tests"))
	names := all
	if only := os.Getenv("BASH_TESTS"); only != "" { // BASH_TESTS=read,glob: just those
		names = strings.Split(only, ",")
	}

	base := cleanEnv(filepath.Join(work, "home"))
	type result struct {
		name, why string
		skipped   bool
	}
	results := make([]result, len(names))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i].name = name
			dir := filepath.Join(work, "run", name)
			env := func(who, sh, path string) []string {
				tmp := filepath.Join(dir, who)
				if err := os.MkdirAll(tmp, 0o755); err != nil {
					t.Error(err)
				}
				return append(append([]string(nil), base...), "THIS_SH="+sh, "PATH="+path, "TMPDIR="+tmp,
					"BASH_TSTOUT="+filepath.Join(tmp, "tstout"), "GUARD_EXEC_LEDGER_DIR="+filepath.Join(dir, "ledger"))
			}
			if _, ok := bashUncomparable[name]; ok {
				results[i].skipped = true
				return
			}
			bashEnv := env("bash", bash, os.Getenv("PATH"))
			want, wantCode, ok := runScript(bash, filepath.Join(bashTree, "tests"), name, bashEnv)
			again, againCode, ok2 := runScript(bash, filepath.Join(bashTree, "tests"), name, bashEnv)
			if !ok || !ok2 || !bytes.Equal(want, again) || wantCode != againCode {
				results[i].skipped = true
				return
			}
			guardEnv := env("guard", filepath.Join(shimDir, "bash"), shimDir+string(os.PathListSeparator)+os.Getenv("PATH"))
			got, gotCode, _ := runScript(filepath.Join(shimDir, "bash"), filepath.Join(guardTree, "tests"), name, guardEnv)
			// The scripts print $THIS_SH and bash's messages name it: the two
			// runs call it by different paths, which are made one word.
			want = bytes.ReplaceAll(want, []byte(bash), []byte("$THIS_SH"))
			got = bytes.ReplaceAll(withoutWarnings(got), []byte(filepath.Join(shimDir, "bash")), []byte("$THIS_SH"))
			switch {
			case gotCode != wantCode:
				results[i].why = "status " + strconv.Itoa(gotCode) + ", bash " + strconv.Itoa(wantCode) + firstDifference(want, got)
			case !bytes.Equal(want, got):
				results[i].why = "output differs" + firstDifference(want, got)
			}
		}()
	}
	wg.Wait()
	compared, same := 0, 0
	for _, r := range results {
		if r.skipped {
			continue
		}
		compared++
		_, known := bashKnownDifferences[r.name]
		switch {
		case r.why == "":
			same++
			if known {
				t.Errorf("%s: listed in bashKnownDifferences but agrees with bash now", r.name)
			}
		case !known:
			t.Errorf("%s.tests through guard-exec: %s", r.name, r.why)
		}
	}
	for _, list := range []map[string]string{bashKnownDifferences, bashUncomparable} {
		for name := range list {
			if !slices.Contains(all, name) {
				t.Errorf("%s is not a script of the fixture", name)
			}
		}
	}
	t.Logf("bash-5.2 tests/: %d scripts, %d compared (the rest are not the same twice under bash), %d agree byte for byte", len(names), compared, same)
	if len(names) == len(all) && compared < len(names)/2 {
		t.Errorf("only %d of %d scripts could be compared", compared, len(names))
	}
}

// bashTestNames lists NAME for each NAME.tests in dir.
func bashTestNames(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*.tests"))
	if err != nil || len(m) == 0 {
		t.Fatalf("no .tests scripts in %s: %v", dir, err)
	}
	var names []string
	for _, p := range m {
		names = append(names, strings.TrimSuffix(filepath.Base(p), ".tests"))
	}
	sort.Strings(names)
	return names
}

// runScript runs `sh ./NAME.tests` in dir with stdout and stderr merged
// into one file, and stdin /dev/null. ok is false when it ran out of time.
func runScript(sh, dir, name string, env []string) (out []byte, code int, ok bool) {
	ctx, cancel := context.WithTimeout(context.Background(), bashScriptTimeout)
	defer cancel()
	f, err := os.CreateTemp("", "out")
	if err != nil {
		return nil, -1, false
	}
	defer os.Remove(f.Name())
	defer f.Close()
	cmd := exec.CommandContext(ctx, sh, "./"+name+".tests")
	cmd.Args[0] = "bash"
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, env, f, f
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return nil, -1, false
	}
	if ctx.Err() != nil {
		return nil, -1, false
	}
	out, _ = os.ReadFile(f.Name())
	return out, cmd.ProcessState.ExitCode(), true
}

// withoutWarnings drops the guard's warning lines.
func withoutWarnings(b []byte) []byte {
	var out []byte
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		if !bytes.HasPrefix(line, []byte("guard-exec: warning: ")) {
			out = append(out, line...)
		}
	}
	return out
}

// firstDifference quotes the first line where got and want part.
func firstDifference(want, got []byte) string {
	w, g := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl []byte
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if !bytes.Equal(wl, gl) {
			return "; line " + strconv.Itoa(i+1) + ": guard " + quote(gl) + ", bash " + quote(wl)
		}
	}
	return ""
}

func quote(b []byte) string {
	if len(b) > 160 {
		b = b[:160]
	}
	return strconv.Quote(string(b))
}
