package suites

import (
	"bufio"
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/guard-exec/guard-exec/internal/sandbox"
)

// batsKnownFailures are the tests of the fixture that pass with bash and
// not through the shim without a sandbox, each with why. The list must be
// exact: a test in it that passes through the shim fails the run too, so
// that a fix takes its test out of the list.
var batsKnownFailures = map[string]string{}

// batsKnownSandboxFailures are the tests of the fixture that pass with
// bash and not through the shim under the kernel sandbox, with why: none
// today. (A guard started inside the sandbox with its environment cleared,
// `env -i … bash -c …`, cannot write the ledger it then picks; the kernel's
// refusal is its proof that the sandbox bounds it, and it runs the command
// unrecorded, its starter being on record: cmd/guard-exec's refused_linux.go.)
var batsKnownSandboxFailures = map[string]string{}

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
// batsKnownFailures without the sandbox (and batsKnownSandboxFailures with
// it), and no command may be held, except at batsKnownHolds without it. A
// test that fails through the shim, and is not known to, is run twice more
// on its own before it counts: the suite has timing tests, and the machine
// is shared.
//
// GUARD_EXEC_BATS_PASSES=shim (a comma-separated choice of bash, shim and
// sandbox; all three by default) runs only those passes; .ci/run runs the
// shim's alone, in a third of the time. Without the bash pass the tests
// the suite has are the recorded list batsTestsFile, and each test that
// fails through the shim is run on its own with bash, here and now: it is
// a difference of the shim's when bash passes it, as in the full run. So
// the test fails in both runs when the shim fails a test bash passes; a
// test missing from the shim's output counts as failing.
//
// BATS_CORE_DIR names another bats-core source tree to run instead of the
// fixture (scripts/bats-suite.sh); the known lists and the recorded list
// are for the fixture only, and such a run has a bash pass. The suite takes
// minutes: it runs when GUARD_EXEC_SUITES=1 (.ci/run sets it), as the load
// test does.
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
	want := batsPasses(t, src != "")
	guard := buildGuard(t, work)
	shimDir := shimDirFor(t, work, guard)
	defer watchTerm(t.Logf)()

	type pass struct {
		name      string
		copies    []batsCopy // the first is where a test runs again alone
		results   map[string]bool
		knownFail map[string]string
		knownHeld map[string]string
	}
	newCopy := func(dir string, shim bool, config string) batsCopy {
		c := batsCopy{tree: filepath.Join(dir, "bats-core"), ledger: filepath.Join(dir, "ledger")}
		if src == "" {
			unpack(t, "testdata/bats-core-v1.8.2.tar.gz", c.tree)
		} else if out, err := exec.Command("cp", "-a", src, c.tree).CombinedOutput(); err != nil {
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
		c.env = append(cleanEnv(home), "PATH="+os.Getenv("PATH"))
		if shim {
			c.env = append(cleanEnv(home), "PATH="+shimDir+string(os.PathListSeparator)+os.Getenv("PATH"),
				"GUARD_EXEC_LEDGER_DIR="+c.ledger) // with no configuration the mode is enforce
		}
		return c
	}
	// Each pass runs its files in jobs copies of its own at once (each with
	// its tree, home and ledger): bats' tests sleep more than they compute,
	// and a pass alone would leave the machine idle. Three passes run one
	// file at a time each.
	k := 0
	for _, name := range []string{"bash", "shim", "sandbox"} {
		if want[name] && (name != "sandbox" || sandbox.ABI() > 0) {
			k++
		}
	}
	jobs := max(1, runtime.NumCPU()/max(k, 1))
	newPass := func(name string, shim bool, config string) *pass {
		p := &pass{name: name, knownFail: map[string]string{}, knownHeld: map[string]string{}}
		for i := range jobs {
			dir := filepath.Join(work, name)
			if i > 0 {
				dir += "-" + strconv.Itoa(i+1)
			}
			p.copies = append(p.copies, newCopy(dir, shim, config))
		}
		return p
	}
	// The bash pass's first copy is also where a test runs with bash alone.
	var plain *pass
	if want["bash"] {
		plain = newPass("bash", false, "")
	} else {
		plain = &pass{name: "bash", copies: []batsCopy{newCopy(filepath.Join(work, "bash"), false, "")}}
	}
	var passes []*pass
	if want["shim"] {
		p := newPass("shim", true, "")
		p.knownFail, p.knownHeld = knownFail, knownHeld
		passes = append(passes, p)
	}
	if want["sandbox"] {
		if sandbox.ABI() > 0 {
			p := newPass("shim-sandbox", true, "[sandbox]\nmode = \"write\"\n")
			if src == "" {
				p.knownFail = batsKnownSandboxFailures
			}
			passes = append(passes, p)
		} else {
			t.Log("no Landlock here: the pass under the kernel sandbox is left out")
		}
	}
	files := batsFiles(t, plain.copies[0].tree)
	run := passes
	if want["bash"] {
		run = append([]*pass{plain}, passes...)
	}
	start := time.Now()
	var wg sync.WaitGroup
	for _, p := range run {
		wg.Add(1)
		go func() { defer wg.Done(); p.results = runBatsFiles(t, p.copies, files) }()
	}
	wg.Wait()
	var names []string
	for _, p := range run {
		names = append(names, p.name)
	}
	t.Logf("bats-core suite: passes %s in %s, %d file(s) at a time each", strings.Join(names, ", "), time.Since(start).Round(time.Second), jobs)

	// Whether a test passes with bash: the bash pass's word, or else its
	// own run with bash now, for a test of the recorded list.
	var withBash func(test string) bool
	tests := slices.Sorted(maps.Keys(plain.results))
	bashTree, bashEnv := plain.copies[0].tree, plain.copies[0].env
	if want["bash"] {
		withBash = func(test string) bool { return plain.results[test] }
		if src == "" {
			checkBatsTestsFile(t, tests)
		}
		t.Logf("bats-core suite: %d of %d tests pass with bash (%s)", count(plain.results, true), len(plain.results), bash)
	} else {
		tests = readBatsTestsFile(t)
		withBash = func(test string) bool { return runBatsOne(t, bashTree, bashEnv, test) }
		t.Logf("bats-core suite: %d tests (%s); no bash pass, a test that fails through the shim runs with bash (%s) alone", len(tests), batsTestsFile, bash)
	}
	for _, p := range passes {
		checkBatsPass(t, tests, withBash, p.name, p.copies, p.results, p.knownFail, p.knownHeld)
	}
}

// batsPasses is GUARD_EXEC_BATS_PASSES as a set, all three by default. A
// run of another tree than the fixture (other) has no recorded list of its
// tests, and so always its bash pass.
func batsPasses(t *testing.T, other bool) map[string]bool {
	t.Helper()
	v := os.Getenv("GUARD_EXEC_BATS_PASSES")
	if v == "" {
		v = "bash,shim,sandbox"
	}
	want := map[string]bool{}
	for _, p := range strings.Split(v, ",") {
		switch p = strings.TrimSpace(p); p {
		case "bash", "shim", "sandbox":
			want[p] = true
		default:
			t.Fatalf("GUARD_EXEC_BATS_PASSES=%q: %q is none of bash, shim, sandbox", v, p)
		}
	}
	if other {
		want["bash"] = true
	}
	return want
}

// batsTestsFile lists the tests of the fixture, "FILE: NAME" a line, as its
// TAP output names them: what a run without the bash pass expects. A full
// run checks it; GUARD_EXEC_UPDATE_GOLDEN=1 rewrites it after the fixture
// changed.
const batsTestsFile = "testdata/bats-core-v1.8.2-tests.txt"

func readBatsTestsFile(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(batsTestsFile)
	if err != nil {
		t.Fatal(err)
	}
	tests := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(tests) < 100 {
		t.Fatalf("%s lists %d tests", batsTestsFile, len(tests))
	}
	return tests
}

// checkBatsTestsFile compares the tests a full run saw with the recorded
// list.
func checkBatsTestsFile(t *testing.T, tests []string) {
	t.Helper()
	text := strings.Join(tests, "\n") + "\n"
	if os.Getenv("GUARD_EXEC_UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(batsTestsFile, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if b, err := os.ReadFile(batsTestsFile); err != nil || string(b) != text {
		t.Errorf("%s is not the list of the fixture's tests (%v); GUARD_EXEC_UPDATE_GOLDEN=1 rewrites it", batsTestsFile, err)
	}
}

// checkBatsPass compares one pass through the shim with bash: every test of
// tests that fails through the shim (or is missing from its output) must
// not pass with bash, unless it is in knownFail, which must be exact.
func checkBatsPass(t *testing.T, tests []string, withBash func(string) bool, name string, copies []batsCopy,
	results map[string]bool, knownFail, knownHeld map[string]string) {
	t.Helper()
	tree, env := copies[0].tree, copies[0].env
	var failing, still []string
	for _, test := range tests {
		if results[test] {
			continue
		}
		if !withBash(test) {
			continue // fails with bash too: no difference of the shim's
		}
		failing = append(failing, test)
		// One not known to fail is run alone, twice: a timing test on a
		// loaded machine is not a difference of the shim's.
		if _, ok := knownFail[test]; ok || !runBatsOne(t, tree, env, test) && !runBatsOne(t, tree, env, test) {
			still = append(still, test)
		}
	}
	for test := range results {
		if !slices.Contains(tests, test) {
			t.Errorf("%s: %q is not a test of the list (%s)", name, test, batsTestsFile)
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
	// The ledger rotates (ledger.jsonl, ledger.1.jsonl, …): every file of
	// every copy counts.
	var b []byte
	var logs []string
	for _, c := range copies {
		m, _ := filepath.Glob(filepath.Join(c.ledger, "ledger*.jsonl"))
		logs = append(logs, m...)
	}
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

// batsRunTimeout bounds one run of bin/bats (one file, or one test): the
// longest file, test/bats.bats, takes about three minutes beside the other
// passes on two cores.
const batsRunTimeout = 15 * time.Minute

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

// batsCopy is one copy of the suite's tree, with the environment it runs
// in and the ledger its guards write.
type batsCopy struct {
	tree, ledger string
	env          []string
}

// runBatsFiles runs each file with `bin/bats FILE`, as many at once as
// there are copies, each in its copy's tree, and returns each test, named
// "FILE: NAME", and whether it passed.
func runBatsFiles(t *testing.T, copies []batsCopy, files []string) map[string]bool {
	t.Helper()
	all := map[string]bool{}
	var mu sync.Mutex
	queue := make(chan string, len(files))
	for _, f := range files {
		queue <- f
	}
	close(queue)
	var wg sync.WaitGroup
	for _, c := range copies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range queue {
				start := time.Now()
				res := runBats(t, c.tree, c.env, f)
				if d := time.Since(start); d > time.Minute {
					t.Logf("%s: %s took %s", filepath.Base(filepath.Dir(c.tree)), f, d.Round(time.Second))
				}
				mu.Lock()
				for name, ok := range res {
					all[f+": "+name] = ok
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
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
	what := strings.TrimPrefix(src, filepath.Dir(filepath.Dir(src))+string(filepath.Separator)) + ": bats " + strings.Join(args, " ")
	if err := runInSession(cmd, what, batsRunTimeout); err != nil { // a failing test is a status of 1; the TAP says which
		if _, ok := err.(*exec.ExitError); !ok {
			t.Errorf("bats %q: %v", args, err)
		}
	}
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
