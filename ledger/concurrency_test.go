package ledger

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"
)

// TestConcurrentProcesses is the reliability bar: 32 processes × 200 commands
// (an exec and an exit each) against one directory. Every id is unique and
// consecutive, every line is valid JSON, the chain holds; segments rotate on
// the way (256 KiB each), so rotation is exercised under contention too.
func TestConcurrentProcesses(t *testing.T) {
	procs, pairs := 32, 200
	if testing.Short() {
		procs, pairs = 8, 50
	}
	dir := filepath.Join(t.TempDir(), "ledger")
	opts := Options{MaxBytes: 256 << 10, Keep: 20}
	l, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	runHelpers(t, procs, "append", dir, pairs, opts)
	t.Logf("%d processes × %d pairs: %v", procs, pairs, time.Since(start))

	total := procs * pairs
	execs, exits := readAll(t, l)
	if len(execs) != total || len(exits) != total {
		t.Fatalf("%d execs and %d exits, want %d of each", len(execs), len(exits), total)
	}
	sort.Slice(execs, func(i, j int) bool { return execs[i] < execs[j] })
	for i, n := range execs {
		if n != int64(i+1) {
			t.Fatalf("exec ids not unique and consecutive: position %d holds ev-%d", i, n)
		}
	}
	rep := mustVerify(t, l)
	if !rep.OK || rep.Records != 2*total {
		t.Fatalf("verify: OK=%v records=%d segments=%d problems=%v", rep.OK, rep.Records, rep.Segments, rep.Problems)
	}
	t.Logf("%d records in %d segments", rep.Records, rep.Segments)
}

func runHelpers(t *testing.T, procs int, helper, dir string, pairs int, opts Options) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmds := make([]*exec.Cmd, procs)
	for i := range cmds {
		c := exec.Command(self)
		c.Env = append(os.Environ(), helperEnv+"="+helper, "HELPER_DIR="+dir,
			"HELPER_PAIRS="+strconv.Itoa(pairs),
			"HELPER_MAX_BYTES="+strconv.FormatInt(opts.MaxBytes, 10),
			"HELPER_KEEP="+strconv.Itoa(opts.Keep))
		c.Stderr = os.Stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i] = c
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("helper %d: %v", i, err)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}

// readAll reads every segment line by line as plain JSON, independently of
// the package's readers, and returns the exec and exit ids.
func readAll(t *testing.T, l *Ledger) (execs, exits []int64) {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(l.Dir(), "ledger*.jsonl"))
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, maxLine)
		for n := 1; sc.Scan(); n++ {
			var r Record
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("%s:%d: not valid JSON: %v", name, n, err)
			}
			id, _ := ParseID(r.ID)
			switch r.Kind {
			case KindExec:
				execs = append(execs, id)
			case KindExit:
				exits = append(exits, id)
			case KindHeader:
			default:
				t.Fatalf("%s:%d: unexpected kind %q", name, n, r.Kind)
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(fmt.Errorf("%s: %w", name, err))
		}
	}
	return execs, exits
}
