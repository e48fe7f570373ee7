package suites

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/guard-exec/guard-exec/internal/sandbox"
)

// batsKnownFailures are the tests of the fixture that pass with bash and
// not through the shim without a sandbox, each with why. The list must be
// exact: a test in it that passes through the shim fails the run too, so
// that a fix takes its test out of the list.
var batsKnownFailures = map[string]string{}

// batsKnownSandboxFailures are the tests of the fixture that pass with
// bash and not through the shim under the kernel sandbox, with why.
var batsKnownSandboxFailures = map[string]string{
	"test/bats.bats: Debug trap must only override variables that are prefixed with BATS_ (issue #519)": nestedLedger +
		" (`env -i PIPESTATUS= \"$BASH\" -c \"declare -p\"`: without HOME or GUARD_EXEC_LEDGER_DIR the nested guard's ledger is the user database home's, outside the write roots)",
	"test/bats.bats: ensure compatibility with unofficial Bash strict mode": nestedLedger +
		" (a fixture run from another directory: its ledger's .gitignore is under the protected state directory)",
}

// nestedLedger is why a guard started inside a sandboxed command with its
// environment changed fails: it cannot write the ledger it then picks, and
// a command that cannot be recorded is not run (status 125).
const nestedLedger = "a guard inside the sandbox cannot write its ledger and does not run the command"

// batsKnownHolds are the places in the fixture where the guard holds a
// command of the suite without a sandbox, by design, with why: "RULE at
// FILE:LINE:COL" of the held command's first rule. Like batsKnownFailures,
// the list must be exact.
var batsKnownHolds = map[string]string{}

// TestBatsCore runs bats-core's own suite, file by file, three ways at
// once, each in its own copy of the tree: with bash; through the PATH shim
// (bash and sh linked to guard-exec) first on PATH, in enforce mode with no
// configuration; and the same with the kernel sandbox in write mode
// ([sandbox] mode = "write"; left out where Landlock is not there). Every
// test that passes with bash must pass through the shim, except those in
// batsKnownFailures without the sandbox, and no command may be held, except
// at batsKnownHolds without it. A test that fails through the shim, and is
// not known to, is run twice more on its own before it counts: the suite
// has timing tests, and the machine is shared.
//
// BATS_CORE_DIR names another bats-core source tree to run instead of the
// fixture (scripts/bats-suite.sh); the known lists are for the fixture
// only. The suite takes minutes: it runs when GUARD_EXEC_SUITES=1 (.ci/run
// sets it), as the load test does.
func TestBatsCore(t *testing.T) {
	needSuites(t)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash on PATH")
	}
	work := t.TempDir()
	src, knownFail, knownHeld := os.Getenv("BATS_CORE_DIR"), map[string]string{}, map[string]string{}
	if src == "" {
		knownFail, knownHeld = batsKnownFailures, batsKnownHolds
	}
	guard := buildGuard(t, work)
	shimDir := shimDirFor(t, work, guard)

	type pass struct {
		name         string
		tree, ledger string
		env          []string
		results      map[string]bool
		knownFail    map[string]string
		knownHeld    map[string]string
	}
	newPass := func(name string, shim bool, config string) *pass {
		dir := filepath.Join(work, name)
		p := &pass{name: name, tree: filepath.Join(dir, "bats-core"), ledger: filepath.Join(dir, "ledger"),
			knownFail: map[string]string{}, knownHeld: map[string]string{}}
		if src == "" {
			unpack(t, "testdata/bats-core-v1.8.2.tar.gz", p.tree)
		} else if out, err := exec.Command("cp", "-a", src, p.tree).CombinedOutput(); err != nil {
			t.Fatalf("copying %s: %v\n%s", src, err, out)
		}
		home := filepath.Join(dir, "home")
		if config != "" {
			cfg := filepath.Join(home, ".config", "guard-exec", "config.toml")
			if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		p.env = append(cleanEnv(home), "PATH="+os.Getenv("PATH"))
		if shim {
			p.env = append(cleanEnv(home), "PATH="+shimDir+string(os.PathListSeparator)+os.Getenv("PATH"),
				"GUARD_EXEC_LEDGER_DIR="+p.ledger) // with no configuration the mode is enforce
		}
		return p
	}
	plain := newPass("bash", false, "")
	passes := []*pass{plain, newPass("shim", true, "")}
	passes[1].knownFail, passes[1].knownHeld = knownFail, knownHeld
	if sandbox.ABI() > 0 {
		sb := newPass("shim-sandbox", true, "[sandbox]\nmode = \"write\"\n")
		if src == "" {
			sb.knownFail = batsKnownSandboxFailures
		}
		passes = append(passes, sb)
	} else {
		t.Log("no Landlock here: the pass under the kernel sandbox is left out")
	}
	files := batsFiles(t, plain.tree)
	var wg sync.WaitGroup
	for _, p := range passes {
		wg.Add(1)
		go func() { defer wg.Done(); p.results = runBatsFiles(t, p.tree, p.env, files) }()
	}
	wg.Wait()
	for _, p := range passes[1:] {
		checkBatsPass(t, plain.results, p.name, p.tree, p.ledger, p.env, p.results, p.knownFail, p.knownHeld)
	}
	t.Logf("bats-core suite: %d of %d tests pass with bash (%s)", count(plain.results, true), len(plain.results), bash)
}

// checkBatsPass compares one pass through the shim with bash's.
func checkBatsPass(t *testing.T, withBash map[string]bool, name, tree, ledgerDir string, env []string,
	results map[string]bool, knownFail, knownHeld map[string]string) {
	t.Helper()
	var failing []string
	for test, ok := range withBash {
		if ok && !results[test] {
			failing = append(failing, test)
		}
	}
	sort.Strings(failing)
	var still []string
	for _, test := range failing {
		// One not known to fail is run alone, twice: a timing test on a
		// loaded machine is not a difference of the shim's.
		if _, ok := knownFail[test]; ok || !runBatsOne(t, tree, env, test) && !runBatsOne(t, tree, env, test) {
			still = append(still, test)
		}
	}
	t.Logf("%s: %d pass; %d fail that pass with bash, %d of them again when run alone", name, count(results, true), len(failing), len(still))
	for _, test := range still {
		if _, ok := knownFail[test]; !ok {
			t.Errorf("%s: passes with bash, fails through the shim: %s", name, test)
		}
	}
	for test := range knownFail {
		if !slices.Contains(still, test) {
			t.Errorf("%s: listed as failing but passes through the shim now (or not with bash): %s", name, test)
		}
	}
	// The ledger rotates (ledger.jsonl, ledger.1.jsonl, …): every file counts.
	var b []byte
	logs, _ := filepath.Glob(filepath.Join(ledgerDir, "ledger*.jsonl"))
	for _, f := range logs {
		part, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, part...)
	}
	held := heldRules(b)
	for where, n := range held {
		if _, ok := knownHeld[where]; !ok {
			t.Errorf("%s: the guard held %d commands of the suite: %s", name, n, where)
		}
	}
	for where := range knownHeld {
		if _, ok := held[where]; !ok {
			t.Errorf("%s: listed as held but nothing was held there: %s", name, where)
		}
	}
}

// cleanEnv is the test's environment without guard-exec's own variables,
// PATH (each run sets its own), BATS_ and XDG_ ones, with HOME in the
// work directory: no configuration of the user's applies, and nothing is
// written to their home.
func cleanEnv(home string) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "PATH" || k == "HOME" || k == "BASH_ENV" || strings.HasPrefix(k, "XDG_") ||
			strings.HasPrefix(k, "GUARD_EXEC_") || strings.HasPrefix(k, "BATS_") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "HOME="+home)
}

var tapLine = regexp.MustCompile(`^(not )?ok [0-9]+ (.*?)(?: # skip.*)?$`)

// batsFiles lists the suite's test files, relative to src.
func batsFiles(t *testing.T, src string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(src, "test", "*.bats"))
	if err != nil || len(m) == 0 {
		t.Fatalf("no test/*.bats in %s: %v", src, err)
	}
	var files []string
	for _, p := range m {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() { // test/.bats is a directory
			rel, _ := filepath.Rel(src, p)
			files = append(files, rel)
		}
	}
	sort.Strings(files)
	return files
}

// runBatsFiles runs each file with `bin/bats FILE` in src and returns each
// test, named "FILE: NAME", and whether it passed.
func runBatsFiles(t *testing.T, src string, env []string, files []string) map[string]bool {
	t.Helper()
	all := map[string]bool{}
	for _, f := range files {
		for name, ok := range runBats(t, src, env, f) {
			all[f+": "+name] = ok
		}
	}
	return all
}

// runBats runs `bin/bats ARGS…` in src and returns each test's name and
// whether it passed.
func runBats(t *testing.T, src string, env []string, args ...string) map[string]bool {
	t.Helper()
	// The TAP goes to a file, not a pipe: a process a test leaves running
	// in the background would hold a pipe open after bats has exited.
	// (Called from two goroutines at once: errors are t.Error, not t.Fatal.)
	results := map[string]bool{}
	tap, err := os.CreateTemp(t.TempDir(), "tap")
	if err != nil {
		t.Error(err)
		return results
	}
	defer tap.Close()
	cmd := exec.Command(filepath.Join(src, "bin", "bats"), args...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = src, env, tap, tap
	_ = cmd.Run() // a failing test is a status of 1; the TAP says which
	out, err := os.ReadFile(tap.Name())
	if err != nil {
		t.Error(err)
		return results
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if m := tapLine.FindStringSubmatch(sc.Text()); m != nil {
			results[m[2]] = m[1] == ""
		}
	}
	if len(results) == 0 {
		t.Errorf("bats %q printed no test results:\n%s", args, out)
	}
	return results
}

// runBatsOne runs the one test "FILE: NAME" on its own, through bats'
// --filter.
func runBatsOne(t *testing.T, src string, env []string, test string) bool {
	t.Helper()
	file, name, _ := strings.Cut(test, ": ")
	// A session of its own: the loop brake would take a third run of a
	// command that failed twice in one session for a loop, and hold it.
	reruns++
	env = append(append([]string(nil), env...), "GUARD_EXEC_SESSION=bats-rerun-"+strconv.Itoa(reruns))
	return runBats(t, src, env, "--filter", "^"+regexp.QuoteMeta(name)+"$", file)[name]
}

// reruns numbers the sessions of runBatsOne (called from the test's own
// goroutine only).
var reruns int

func count(results map[string]bool, want bool) int {
	n := 0
	for _, ok := range results {
		if ok == want {
			n++
		}
	}
	return n
}

// heldRules counts the held commands in the ledger by their first rule and
// where it matched ("RULE at FILE:LINE:COL", FILE relative to the tree).
func heldRules(ledger []byte) map[string]int {
	n := map[string]int{}
	for _, m := range regexp.MustCompile(`"kind":"decision".*?"rules":\[\{"id":"([^"]*)".*?"pos":"([^"]*)"`).FindAllSubmatch(ledger, -1) {
		pos := string(m[2])
		if i := strings.Index(pos, "/bats-core/"); i >= 0 {
			pos = pos[i+len("/bats-core/"):]
		}
		n[string(m[1])+" at "+pos]++
	}
	return n
}

// unpack extracts a .tar.gz into dir with tar(1), which keeps the
// archive's symbolic links and modes.
func unpack(t *testing.T, archive, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(archive)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("tar", "-xzf", abs, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("unpacking %s: %v\n%s", archive, err, out)
	}
}

// goTool is the go command that runs this test.
func goTool(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	t.Skip("no go command on PATH to build guard-exec with")
	return ""
}

// buildGuard builds guard-exec into dir.
func buildGuard(t *testing.T, dir string) string {
	t.Helper()
	guard := filepath.Join(dir, "guard-exec")
	build := exec.Command(goTool(t), "build", "-o", guard, "github.com/guard-exec/guard-exec/cmd/guard-exec")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return guard
}

// shimDirFor makes dir/shim with bash and sh linked to guard, as
// `guard-exec shim install` does.
func shimDirFor(t *testing.T, dir, guard string) string {
	t.Helper()
	shimDir := filepath.Join(dir, "shim")
	if err := os.Mkdir(shimDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"bash", "sh"} {
		if err := os.Symlink(guard, filepath.Join(shimDir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return shimDir
}

// needSuites skips a suite unless GUARD_EXEC_SUITES=1: each takes minutes,
// more than `go test ./...` should on a newcomer's machine; .ci/run runs
// them.
func needSuites(t *testing.T) {
	t.Helper()
	if os.Getenv("GUARD_EXEC_SUITES") != "1" {
		t.Skip("takes minutes; GUARD_EXEC_SUITES=1 runs it (.ci/run does)")
	}
}
