package ledger

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// The test binary doubles as the helper process of the concurrency and
// crash tests: with helperEnv set it runs the named helper instead of the
// tests and exits.
const helperEnv = "GUARD_EXEC_LEDGER_TEST_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		os.Exit(m.Run())
	case "append":
		os.Exit(helperAppend())
	case "torn":
		os.Exit(helperTorn())
	default:
		fmt.Fprintln(os.Stderr, "unknown helper", os.Getenv(helperEnv))
		os.Exit(2)
	}
}

// helperAppend appends HELPER_PAIRS exec+exit pairs to HELPER_DIR.
func helperAppend() int {
	l, err := Open(os.Getenv("HELPER_DIR"), helperOptions())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	pairs, _ := strconv.Atoi(os.Getenv("HELPER_PAIRS"))
	for i := 0; i < pairs; i++ {
		id, err := l.Append(&Record{Kind: KindExec, Command: "make test", Cwd: "/src", PID: os.Getpid()})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		code := i % 2
		if _, err := l.Append(&Record{Kind: KindExit, ID: id, Exit: &code, DurationMS: 1.5}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// helperTorn appends one record but stops half way through its write, tells
// the test so on stdout, and waits to be killed.
func helperTorn() int {
	l, err := Open(os.Getenv("HELPER_DIR"), helperOptions())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	writeLine = func(f rawFile, b []byte) error {
		if err := f.write(b[:len(b)/2]); err != nil {
			return err
		}
		fmt.Println("torn")
		time.Sleep(time.Minute)
		return nil
	}
	_, err = l.Append(&Record{Kind: KindExec, Command: "sleep 1000"})
	fmt.Fprintln(os.Stderr, "not killed:", err)
	return 1
}

func helperOptions() Options {
	maxBytes, _ := strconv.ParseInt(os.Getenv("HELPER_MAX_BYTES"), 10, 64)
	keep, _ := strconv.Atoi(os.Getenv("HELPER_KEEP"))
	return Options{MaxBytes: maxBytes, Keep: keep}
}

// clock is a fake time that moves one millisecond per reading.
func clock() func() time.Time {
	t := time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	return func() time.Time {
		t = t.Add(time.Millisecond)
		return t
	}
}

// newLedger opens a ledger in a fresh directory.
func newLedger(t testing.TB, opts Options) *Ledger {
	t.Helper()
	if opts.Now == nil {
		opts.Now = clock()
	}
	l, err := Open(filepath.Join(t.TempDir(), "ledger"), opts)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// mustAppend appends and fails the test on error.
func mustAppend(t testing.TB, l *Ledger, r *Record) string {
	t.Helper()
	id, err := l.Append(r)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// pair appends an exec and its exit.
func pair(t testing.TB, l *Ledger, command string, code int) string {
	t.Helper()
	id := mustAppend(t, l, &Record{Kind: KindExec, Command: command})
	mustAppend(t, l, &Record{Kind: KindExit, ID: id, Exit: &code})
	return id
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// mustVerify runs Verify and fails the test on error.
func mustVerify(t testing.TB, l *Ledger) *Report {
	t.Helper()
	rep, err := l.Verify()
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
