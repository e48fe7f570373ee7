package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/guard-exec/guard-exec/ledger"
)

// These tests ship a ledger to a real OpenTelemetry Collector: this
// module's main, built from the official receiver and exporter, listening
// on 127.0.0.1 and writing what it accepts to a file, which the tests read
// back. `go test` here builds both programs first (the collector's build
// time is logged).

var (
	collectorBin string
	guardBin     string
)

func TestMain(m *testing.M) {
	tmp, err := os.MkdirTemp("", "otelcol-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	collectorBin = filepath.Join(tmp, "otelcol")
	guardBin = filepath.Join(tmp, "guard-exec")
	start := time.Now()
	if err := build(".", collectorBin, "."); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "collector built in %s\n", time.Since(start).Round(100*time.Millisecond))
	if err := build("../..", guardBin, "./cmd/guard-exec"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

func build(dir, out, pkg string) error {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
	}
	return nil
}

// collector is one run of the real collector.
type collector struct {
	t    *testing.T
	addr string
	out  string // the file exporter's output
	cmd  *exec.Cmd
	logs *bytes.Buffer
}

func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startCollector runs the collector on addr, writing to out.
func startCollector(t *testing.T, addr, out string) *collector {
	t.Helper()
	cfg := fmt.Sprintf(`receivers:
  otlp:
    protocols:
      http:
        endpoint: %s
exporters:
  file:
    path: %s
    flush_interval: 100ms
service:
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
  pipelines:
    logs:
      receivers: [otlp]
      exporters: [file]
`, addr, out)
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	c := &collector{t: t, addr: addr, out: out, logs: &bytes.Buffer{}}
	c.cmd = exec.Command(collectorBin, "--config", "file:"+path)
	c.cmd.Stdout, c.cmd.Stderr = c.logs, c.logs
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.stop() })
	// Ready when it accepts connections; a collector that died says why.
	for i := 0; ; i++ {
		if conn, err := net.Dial("tcp", addr); err == nil {
			conn.Close()
			return c
		}
		if i == 600 {
			t.Fatalf("the collector did not start listening on %s:\n%s", addr, c.logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop ends the collector the way a service manager does (SIGTERM: it
// drains its receivers and flushes its exporters) and waits for it.
func (c *collector) stop() {
	if c.cmd.ProcessState != nil {
		return
	}
	c.cmd.Process.Signal(syscall.SIGTERM)
	c.cmd.Wait()
}

// arrived is one log record the collector wrote.
type arrived struct {
	resource map[string]any
	event    string
	severity int
	body     string
	attrs    map[string]any
}

// readOutput parses the file exporter's lines (one export request each).
func readOutput(t *testing.T, paths ...string) map[string][]arrived {
	t.Helper()
	got := map[string][]arrived{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		// The exporter may be half way through writing a line: read the
		// complete ones.
		data = data[:bytes.LastIndexByte(data, '\n')+1]
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var req exportRequest
			if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			for _, rl := range req.ResourceLogs {
				res := values(rl.Resource.Attributes)
				for _, sl := range rl.ScopeLogs {
					for _, lr := range sl.LogRecords {
						a := arrived{resource: res, event: lr.EventName, severity: lr.SeverityNumber, body: str(lr.Body.value()), attrs: values(lr.Attributes)}
						uid, _ := a.attrs["log.record.uid"].(string)
						got[uid] = append(got[uid], a)
					}
				}
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return got
}

type exportRequest struct {
	ResourceLogs []struct {
		Resource struct {
			Attributes []keyValue `json:"attributes"`
		} `json:"resource"`
		ScopeLogs []struct {
			LogRecords []struct {
				EventName      string     `json:"eventName"`
				SeverityNumber int        `json:"severityNumber"`
				Body           anyValue   `json:"body"`
				Attributes     []keyValue `json:"attributes"`
			} `json:"logRecords"`
		} `json:"scopeLogs"`
	} `json:"resourceLogs"`
}

type keyValue struct {
	Key   string   `json:"key"`
	Value anyValue `json:"value"`
}

type anyValue struct {
	StringValue *string  `json:"stringValue"`
	IntValue    *string  `json:"intValue"`
	DoubleValue *float64 `json:"doubleValue"`
	BoolValue   *bool    `json:"boolValue"`
	ArrayValue  *struct {
		Values []anyValue `json:"values"`
	} `json:"arrayValue"`
}

// value is the Go form: string, int64 (from OTLP's string), float64,
// bool, []any.
func (v anyValue) value() any {
	switch {
	case v.StringValue != nil:
		return *v.StringValue
	case v.IntValue != nil:
		n, _ := strconv.ParseInt(*v.IntValue, 10, 64)
		return n
	case v.DoubleValue != nil:
		return *v.DoubleValue
	case v.BoolValue != nil:
		return *v.BoolValue
	case v.ArrayValue != nil:
		var out []any
		for _, e := range v.ArrayValue.Values {
			out = append(out, e.value())
		}
		return out
	}
	return nil
}

func values(kvs []keyValue) map[string]any {
	m := map[string]any{}
	for _, kv := range kvs {
		m[kv.Key] = kv.Value.value()
	}
	return m
}

// waitFor polls the output until want records arrived (the exporter
// flushes every 100 ms), or a minute passed.
func waitFor(t *testing.T, want int, paths ...string) map[string][]arrived {
	t.Helper()
	var got map[string][]arrived
	for i := 0; i < 600; i++ {
		got = readOutput(t, paths...)
		if len(got) >= want {
			return got
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%d records arrived, want %d", len(got), want)
	return nil
}

// guard runs the built guard-exec with env added.
func guard(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(guardBin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

// appendPairs writes n exec/exit pairs straight through the ledger package
// (commands through guard-exec itself are too slow for thousands).
func appendPairs(t *testing.T, dir string, n int) {
	t.Helper()
	led, err := ledger.Open(dir, ledger.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		id, err := led.Append(&ledger.Record{Kind: ledger.KindExec, Session: "bulk", Cwd: "/src", Mode: "shell",
			Raw: fmt.Sprintf("go test ./pkg%d", i), Command: fmt.Sprintf("go test ./pkg%d", i), Verdict: "allow", Enforce: "enforce"})
		if err != nil {
			t.Fatal(err)
		}
		code := i % 2
		if _, err := led.Append(&ledger.Record{Kind: ledger.KindExit, ID: id, Exit: &code, DurationMS: 250}); err != nil {
			t.Fatal(err)
		}
	}
}

const secret = "ghp_0123456789abcdefABCDEF0123456789abcd"

func TestShipToCollector(t *testing.T) {
	work := t.TempDir()
	ledgerDir := filepath.Join(work, "ledger")
	env := []string{
		"GUARD_EXEC_LEDGER_DIR=" + ledgerDir, "HOME=" + work, "XDG_CONFIG_HOME=" + filepath.Join(work, "config"),
		"GUARD_EXEC_SESSION=collector-test", "SHIP_TOKEN=Bearer header-secret-0123456789",
		"GITHUB_ACTIONS=true", "GITHUB_WORKFLOW=ci", "GITHUB_RUN_ID=777", "GITHUB_RUN_ATTEMPT=3", "GITHUB_JOB=agents",
		"GITHUB_SERVER_URL=https://github.com", "GITHUB_REPOSITORY=octo/repo",
	}
	os.MkdirAll(filepath.Join(work, "config", "guard-exec"), 0o755)
	os.WriteFile(filepath.Join(work, "config", "guard-exec", "config.toml"),
		[]byte("[export.headers_from_env]\nAuthorization = \"SHIP_TOKEN\"\n"), 0o600)

	// Real commands: allowed, failing, held, and one whose text holds a
	// token that redaction removes before the ledger is written.
	for _, c := range []struct {
		cmd  string
		code int
	}{{"echo hello", 0}, {"exit 3", 3}, {"rm -rf /", 126}, {"GITHUB_TOKEN=" + secret + " true", 0}} {
		if code, _, stderr := guard(t, env, "-c", c.cmd); code != c.code {
			t.Fatalf("%s: status %d, want %d: %s", c.cmd, code, c.code, stderr)
		}
	}
	appendPairs(t, ledgerDir, 1000)
	const total = 3*2 + 1 + 2000 // three commands that ran, one held, the bulk

	addr := freePort(t)
	out := filepath.Join(work, "received.jsonl")
	col := startCollector(t, addr, out)
	endpoint := "http://" + addr
	code, stdout, stderr := guard(t, env, "ship", "--endpoint", endpoint, "--batch", "100")
	if code != 0 {
		t.Fatalf("ship: status %d\n%s%s\ncollector:\n%s", code, stdout, stderr, col.logs)
	}
	for _, s := range []string{stdout, stderr, col.logs.String()} {
		if strings.Contains(s, "header-secret") {
			t.Errorf("a header value appears in output:\n%s", s)
		}
	}
	got := waitFor(t, total, out)
	checkOnce(t, got, total)
	raw, _ := os.ReadFile(out)
	if bytes.Contains(raw, []byte(secret)) {
		t.Error("the collector received a token that redaction removed")
	}
	checkMapping(t, got)

	// Nothing new: nothing sent.
	if code, stdout, _ := guard(t, env, "ship", "--endpoint", endpoint); code != 0 || !strings.Contains(stdout, "nothing new") {
		t.Errorf("second ship: %d %s", code, stdout)
	}
}

// checkOnce: every record arrived, and exactly once.
func checkOnce(t *testing.T, got map[string][]arrived, want int) {
	t.Helper()
	if len(got) != want {
		t.Errorf("%d distinct records arrived, want %d", len(got), want)
	}
	dups := 0
	for uid, recs := range got {
		if uid == "" {
			t.Errorf("%d records without log.record.uid", len(recs))
		}
		if len(recs) > 1 {
			dups++
			if dups < 5 {
				t.Errorf("%s arrived %d times", uid, len(recs))
			}
		}
	}
	if dups > 0 {
		t.Errorf("%d records arrived more than once", dups)
	}
}

func find(t *testing.T, got map[string][]arrived, suffix string) arrived {
	t.Helper()
	for uid, recs := range got {
		if strings.HasSuffix(uid, suffix) {
			return recs[0]
		}
	}
	t.Fatalf("no record %s arrived", suffix)
	return arrived{}
}

func checkMapping(t *testing.T, got map[string][]arrived) {
	t.Helper()
	echo := find(t, got, "/ev-0001/exec")
	want := map[string]any{
		"process.command_line": "echo hello", "session.id": "collector-test", "guard_exec.verdict": "allow",
		"guard_exec.record.id": "ev-0001", "guard_exec.invocation": "shell",
	}
	for k, v := range want {
		if echo.attrs[k] != v {
			t.Errorf("ev-0001 exec: %s = %v, want %v", k, echo.attrs[k], v)
		}
	}
	if echo.event != "guard_exec.exec" || echo.severity != 9 || echo.body != "echo hello" {
		t.Errorf("ev-0001 exec: event %q severity %d body %q", echo.event, echo.severity, echo.body)
	}
	res := map[string]any{
		"service.name": "guard-exec", "cicd.pipeline.name": "ci", "cicd.pipeline.run.id": "777",
		"cicd.pipeline.run.attempt": "3", "cicd.pipeline.task.name": "agents", "vcs.repository.url.full": "https://github.com/octo/repo",
	}
	for k, v := range res {
		if echo.resource[k] != v {
			t.Errorf("resource %s = %v, want %v", k, echo.resource[k], v)
		}
	}
	if h, _ := echo.resource["host.name"].(string); h == "" {
		t.Error("no host.name")
	}
	exit := find(t, got, "/ev-0002/exit")
	if exit.attrs["process.exit.code"] != int64(3) || exit.event != "guard_exec.exit" {
		t.Errorf("ev-0002 exit: %v %q", exit.attrs["process.exit.code"], exit.event)
	}
	if d, _ := exit.attrs["guard_exec.duration"].(float64); d <= 0 {
		t.Errorf("ev-0002 duration %v", exit.attrs["guard_exec.duration"])
	}
	held := find(t, got, "/ev-0003/decision")
	ids, _ := held.attrs["guard_exec.rule.ids"].([]any)
	if held.severity != 13 || held.attrs["guard_exec.verdict"] != "hold" || len(ids) == 0 || ids[0] != "rm-recursive-dangerous" {
		t.Errorf("ev-0003 decision: severity %d, verdict %v, rules %v", held.severity, held.attrs["guard_exec.verdict"], ids)
	}
	tok := find(t, got, "/ev-0004/exec")
	if cl, _ := tok.attrs["process.command_line"].(string); !strings.Contains(cl, "[REDACTED") {
		t.Errorf("ev-0004: %q", cl)
	}
}

// The collector stops while ship is sending: ship fails with status 1,
// and after the collector is back the next ship sends the rest, so that
// across both runs every record arrived once.
func TestShipSurvivesCollectorRestart(t *testing.T) {
	work := t.TempDir()
	ledgerDir := filepath.Join(work, "ledger")
	env := []string{"GUARD_EXEC_LEDGER_DIR=" + ledgerDir, "HOME=" + work, "XDG_CONFIG_HOME=" + filepath.Join(work, "config")}
	const pairs = 10_000
	appendPairs(t, ledgerDir, pairs)

	addr := freePort(t)
	first := filepath.Join(work, "first.jsonl")
	col := startCollector(t, addr, first)
	endpoint := "http://" + addr

	ship := exec.Command(guardBin, "ship", "--endpoint", endpoint, "--batch", "20", "--attempts", "2", "--retry-wait", "50ms")
	ship.Env = append(os.Environ(), env...)
	var sout, serr bytes.Buffer
	ship.Stdout, ship.Stderr = &sout, &serr
	if err := ship.Start(); err != nil {
		t.Fatal(err)
	}
	// Stop the collector once ship is well under way: the cursor has moved.
	cursorMoved := false
	for i := 0; i < 600 && !cursorMoved; i++ {
		matches, _ := filepath.Glob(filepath.Join(ledgerDir, "ship-*.cursor"))
		cursorMoved = len(matches) == 1
		if !cursorMoved {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if !cursorMoved {
		t.Fatal("ship never moved its cursor")
	}
	col.stop()
	err := ship.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("ship with the collector gone: %v, want status 1\n%s%s", err, sout.String(), serr.String())
	}
	if !strings.Contains(serr.String(), "cannot reach the collector") || !strings.Contains(serr.String(), "nothing is lost") {
		t.Errorf("stderr: %s", serr.String())
	}
	partial := readOutput(t, first)
	if len(partial) == 0 || len(partial) >= 2*pairs {
		t.Fatalf("%d records arrived before the stop: the stop was not mid-ship", len(partial))
	}
	t.Logf("%d of %d records arrived before the collector stopped", len(partial), 2*pairs)

	second := filepath.Join(work, "second.jsonl")
	startCollector(t, addr, second)
	code, stdout, stderr := guard(t, env, "ship", "--endpoint", endpoint, "--batch", "500")
	if code != 0 {
		t.Fatalf("ship after the restart: %d\n%s%s", code, stdout, stderr)
	}
	got := waitFor(t, 2*pairs, first, second)
	checkOnce(t, got, 2*pairs)
}

func str(v any) string { s, _ := v.(string); return s }

// TestShipMeasure ships 100,000 records to the collector and logs the
// rate and guard-exec's peak memory (README, Shipping the ledger). It
// measures; it asserts only that everything arrived once. Run it with
// GUARD_EXEC_SHIP_MEASURE=1 go test -run TestShipMeasure -v .
func TestShipMeasure(t *testing.T) {
	if os.Getenv("GUARD_EXEC_SHIP_MEASURE") == "" {
		t.Skip("set GUARD_EXEC_SHIP_MEASURE=1 to measure")
	}
	work := t.TempDir()
	ledgerDir := filepath.Join(work, "ledger")
	led, err := ledger.Open(ledgerDir, ledger.Options{MaxBytes: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	const pairs = 50_000
	for i := 0; i < pairs; i++ {
		id, err := led.Append(&ledger.Record{Kind: ledger.KindExec, Session: "bulk", Cwd: "/src/project", Project: "/src/project", Mode: "shell", IO: "pipe",
			Raw: fmt.Sprintf("go test -run TestThing%d ./internal/pkg%d/...", i, i%50), Command: fmt.Sprintf("go test -run TestThing%d ./internal/pkg%d/...", i, i%50),
			Verdict: "allow", Enforce: "enforce", PID: 4242})
		if err != nil {
			t.Fatal(err)
		}
		code := i % 2
		if _, err := led.Append(&ledger.Record{Kind: ledger.KindExit, ID: id, Exit: &code, DurationMS: 250,
			Stdout: &ledger.StreamInfo{Bytes: 1234, SHA256: strings.Repeat("ab", 32)}, Stderr: &ledger.StreamInfo{Bytes: 0, SHA256: strings.Repeat("cd", 32)}}); err != nil {
			t.Fatal(err)
		}
	}
	fi, _ := os.Stat(filepath.Join(ledgerDir, "ledger.jsonl"))
	addr := freePort(t)
	out := filepath.Join(work, "received.jsonl")
	col := startCollector(t, addr, out)
	env := []string{"GUARD_EXEC_LEDGER_DIR=" + ledgerDir, "HOME=" + work}
	for _, batch := range []string{"512", "2000"} {
		matches, _ := filepath.Glob(filepath.Join(ledgerDir, "ship-*.cursor"))
		for _, m := range matches {
			os.Remove(m)
		}
		cmd := exec.Command(guardBin, "ship", "--endpoint", "http://"+addr, "--batch", batch)
		cmd.Env = append(os.Environ(), env...)
		var so, se bytes.Buffer
		cmd.Stdout, cmd.Stderr = &so, &se
		start := time.Now()
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v\n%s%s\n%s", err, so.String(), se.String(), col.logs)
		}
		d := time.Since(start)
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		t.Logf("batch %s: %d records (ledger %d MiB) in %s: %.0f records/s; guard-exec peak RSS %d MiB, CPU %.2fs user + %.2fs sys",
			batch, 2*pairs, fi.Size()>>20, d.Round(time.Millisecond), float64(2*pairs)/d.Seconds(), ru.Maxrss>>10,
			time.Duration(ru.Utime.Nano()).Seconds(), time.Duration(ru.Stime.Nano()).Seconds())
	}
	col.stop()
	got := readOutput(t, out)
	if len(got) != 2*pairs {
		t.Errorf("%d distinct records arrived, want %d", len(got), 2*pairs)
	}
}
