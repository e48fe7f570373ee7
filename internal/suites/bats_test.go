package suites

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
)

// batsKnownFailures are the tests of the fixture that pass with bash and
// not yet through the shim, each with what is known of why. The list
// must be exact: a test in it that passes through the shim fails the run
// too, so that a fix takes its test out of the list.
var batsKnownFailures = map[string]string{
	"test/bats.bats: extended syntax":                                                    "the pretty and extended-syntax formatters, and timing output (not yet explained)",
	"test/bats.bats: extended timing syntax":                                             "the pretty and extended-syntax formatters, and timing output (not yet explained)",
	"test/bats.bats: summary passing and failing tests":                                  "the pretty and extended-syntax formatters, and timing output (not yet explained)",
	"test/bats.bats: summary passing and skipping tests":                                 "the pretty and extended-syntax formatters, and timing output (not yet explained)",
	"test/bats.bats: summary passing tests":                                              "the pretty and extended-syntax formatters, and timing output (not yet explained)",
	"test/bats.bats: summary passing, failing and skipping tests":                        "the pretty and extended-syntax formatters, and timing output (not yet explained)",
	"test/bats.bats: time is greater than 0ms for long test":                             "the pretty and extended-syntax formatters, and timing output (not yet explained)",
	"test/formatter.bats: All formatters (except cat) implement the callback interface":  "the pretty and extended-syntax formatters, and timing output (not yet explained)",
	"test/formatter.bats: pretty and tap formats":                                        "the pretty and extended-syntax formatters, and timing output (not yet explained)",
	"test/formatter.bats: pretty formatter bails on invalid tap":                         "the pretty and extended-syntax formatters, and timing output (not yet explained)",
	"test/formatter.bats: skipped test with parens (pretty formatter)":                   "the pretty and extended-syntax formatters, and timing output (not yet explained)",
	"test/pretty-formatter.bats: Mixing timing and timeout":                              "the pretty and extended-syntax formatters, and timing output (not yet explained)",
	"test/pretty-formatter.bats: Timing printout shows milliseconds":                     "the pretty and extended-syntax formatters, and timing output (not yet explained)",
	"test/pretty-formatter.bats: pretty formatter summary is colorized green on success": "the pretty and extended-syntax formatters, and timing output (not yet explained)",
	"test/pretty-formatter.bats: pretty formatter summary is colorized red on failure":   "the pretty and extended-syntax formatters, and timing output (not yet explained)",
	"test/suite.bats: extended syntax in suite":                                          "the pretty and extended-syntax formatters, and timing output (not yet explained)",
	"test/suite.bats: extended timing syntax in suite":                                   "the pretty and extended-syntax formatters, and timing output (not yet explained)",
	"test/suite.bats: running a suite with no test files":                                "the pretty and extended-syntax formatters, and timing output (not yet explained)",
	"test/suite.bats: timing syntax in suite":                                            "the pretty and extended-syntax formatters, and timing output (not yet explained)",
}

// TestBatsCore runs bats-core's own suite twice, with bash and with the
// PATH shim (bash and sh linked to guard-exec) first on PATH in enforce
// mode, and fails when a test that passes with bash fails through the
// shim, or when the guard holds any command. A test that fails through
// the shim is run twice more on its own before it counts: the suite has
// timing tests, and the machine is shared.
//
// BATS_CORE_DIR names another bats-core source tree to run instead of
// the fixture (scripts/bats-suite.sh); batsKnownFailures is only for the
// fixture. The suite takes a few minutes: -short leaves it out.
func TestBatsCore(t *testing.T) {
	needSuites(t)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash on PATH")
	}
	work := t.TempDir()
	src, known := os.Getenv("BATS_CORE_DIR"), map[string]string{}
	if src == "" {
		src, known = filepath.Join(work, "bats-core"), batsKnownFailures
		unpack(t, "testdata/bats-core-v1.8.2.tar.gz", src)
	}
	guard := buildGuard(t, work)
	shimDir := shimDirFor(t, work, guard)
	ledgerDir := filepath.Join(work, "ledger")
	base := cleanEnv(filepath.Join(work, "home"))
	shimEnv := append(append([]string(nil), base...),
		"PATH="+shimDir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GUARD_EXEC_LEDGER_DIR="+ledgerDir) // with no configuration the mode is enforce
	bashEnv := append(append([]string(nil), base...), "PATH="+os.Getenv("PATH"))

	files := batsFiles(t, src)
	var withBash, withShim map[string]bool
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); withBash = runBatsFiles(t, src, bashEnv, files) }()
	go func() { defer wg.Done(); withShim = runBatsFiles(t, src, shimEnv, files) }()
	wg.Wait()
	t.Logf("bats-core suite (%s): %d of %d tests pass with bash (%s), %d through the shim",
		src, count(withBash, true), len(withBash), bash, count(withShim, true))

	var failing []string
	for name, ok := range withBash {
		if ok && !withShim[name] {
			failing = append(failing, name)
		}
	}
	sort.Strings(failing)
	var still []string
	for _, name := range failing {
		// One not known to fail is run alone, twice: a timing test on a
		// loaded machine is not a difference of the shim's.
		if _, ok := known[name]; ok || !runBatsOne(t, src, shimEnv, name) && !runBatsOne(t, src, shimEnv, name) {
			still = append(still, name)
		}
	}
	t.Logf("%d fail through the shim and pass with bash; %d of them again when run alone", len(failing), len(still))
	for _, name := range still {
		if _, ok := known[name]; !ok {
			t.Errorf("passes with bash, fails through the shim: %s", name)
		}
	}
	for name := range known {
		if !contains(still, name) {
			t.Errorf("listed in batsKnownFailures but passes through the shim now (or not with bash): %s", name)
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
	if held := bytes.Count(b, []byte(`"kind":"decision"`)); held > 0 {
		t.Errorf("the guard held %d commands of the suite; rules: %s", held, heldRules(b))
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
	return runBats(t, src, env, "--filter", "^"+regexp.QuoteMeta(name)+"$", file)[name]
}

func count(results map[string]bool, want bool) int {
	n := 0
	for _, ok := range results {
		if ok == want {
			n++
		}
	}
	return n
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// heldRules lists the first rule of each held command in the ledger, with
// where it matched, and counts.
func heldRules(ledger []byte) string {
	n := map[string]int{}
	for _, m := range regexp.MustCompile(`"kind":"decision".*?"rules":\[\{"id":"([^"]*)".*?"pos":"([^"]*)"`).FindAllSubmatch(ledger, -1) {
		pos := string(m[2])
		if i := strings.Index(pos, "/bats-core/"); i >= 0 {
			pos = pos[i+len("/bats-core/"):]
		}
		n[string(m[1])+" at "+pos]++
	}
	var out []string
	for id, c := range n {
		out = append(out, fmt.Sprintf("%s×%d", id, c))
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
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
