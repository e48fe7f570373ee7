package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/guard-exec/guard-exec/ledger"
)

// These tests drive ship against an HTTP server that plays a collector's
// answers (refusals, overload, lost connections), which a real collector
// cannot be made to give on demand. That ship's requests are what a real
// collector accepts is proved by the test in scripts/otelcol.

const testToken = "Bearer tok-0123456789-very-secret"

// shipEnv is a ledger with n exec/exit pairs, a user configuration with
// a secret header, and the environment to run ship in.
type shipEnv struct {
	t   *testing.T
	dir string
	env []string
}

func newShipEnv(t *testing.T, pairs int) *shipEnv {
	t.Helper()
	dir := t.TempDir()
	cfgDir := filepath.Join(dir, "config", "guard-exec")
	if err := os.MkdirAll(cfgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "[export]\nbatch = 100\n[export.headers]\nX-Tenant = \"team-a\"\n[export.headers_from_env]\nAuthorization = \"SHIP_TEST_AUTH\"\n"
	if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	led, err := ledger.Open(filepath.Join(dir, "ledger"), ledger.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < pairs; i++ {
		id, err := led.Append(&ledger.Record{Kind: ledger.KindExec, Session: "s1", Cwd: "/src",
			Raw: fmt.Sprintf("make test N=%d", i), Command: fmt.Sprintf("make test N=%d", i), Verdict: "allow", Mode: "shell"})
		if err != nil {
			t.Fatal(err)
		}
		code := i % 3
		if _, err := led.Append(&ledger.Record{Kind: ledger.KindExit, ID: id, Exit: &code, DurationMS: 12}); err != nil {
			t.Fatal(err)
		}
	}
	return &shipEnv{t: t, dir: dir, env: []string{
		"HOME=" + dir, "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"GUARD_EXEC_LEDGER_DIR=" + filepath.Join(dir, "ledger"), "SHIP_TEST_AUTH=" + testToken, "PATH=" + os.Getenv("PATH"),
	}}
}

// ship runs guard-exec ship in-process and returns its status and output.
func (e *shipEnv) ship(args ...string) (int, string, string) {
	e.t.Helper()
	out, _ := os.CreateTemp(e.dir, "out")
	errf, _ := os.CreateTemp(e.dir, "err")
	defer out.Close()
	defer errf.Close()
	st := &stdio{in: os.Stdin, out: out, err: errf}
	code := exitCode(run(context.Background(), append([]string{"guard-exec", "ship"}, args...), e.env, st), st)
	o, _ := os.ReadFile(out.Name())
	r, _ := os.ReadFile(errf.Name())
	for _, s := range []string{string(o), string(r)} {
		if strings.Contains(s, "tok-0123456789") {
			e.t.Errorf("a header value appears in the output:\n%s", s)
		}
	}
	return code, string(o), string(r)
}

// collector records what it accepted; answer decides each reply.
type collector struct {
	mu       sync.Mutex
	uids     map[string]int
	requests int
	answer   func(n int, w http.ResponseWriter) bool // false: reply was written, records not accepted
	headers  []http.Header
}

func newCollector(t *testing.T, answer func(int, http.ResponseWriter) bool) (*collector, string) {
	c := &collector{uids: map[string]int{}, answer: answer}
	srv := httptest.NewServer(http.HandlerFunc(c.serve))
	t.Cleanup(srv.Close)
	return c, srv.URL
}

func (c *collector) serve(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests++
	c.headers = append(c.headers, r.Header.Clone())
	body, _ := io.ReadAll(r.Body)
	if r.URL.Path != "/v1/logs" || r.Header.Get("Content-Type") != "application/json" {
		http.Error(w, "bad request", 400)
		return
	}
	if c.answer != nil && !c.answer(c.requests, w) {
		return
	}
	var req struct {
		ResourceLogs []struct {
			ScopeLogs []struct {
				LogRecords []struct {
					Attributes []struct {
						Key   string
						Value struct{ StringValue string }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	for _, rl := range req.ResourceLogs {
		for _, sl := range rl.ScopeLogs {
			for _, lr := range sl.LogRecords {
				for _, a := range lr.Attributes {
					if a.Key == "log.record.uid" {
						c.uids[a.Value.StringValue]++
					}
				}
			}
		}
	}
	w.Write([]byte(`{"partialSuccess":{}}`))
}

func (c *collector) check(t *testing.T, want int) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.uids) != want {
		t.Errorf("collector has %d distinct records, want %d", len(c.uids), want)
	}
	for uid, n := range c.uids {
		if n != 1 {
			t.Errorf("%s arrived %d times", uid, n)
		}
	}
}

func TestShipBatchesAndCursor(t *testing.T) {
	e := newShipEnv(t, 125) // 250 records: batches of 100, 100, 50
	c, url := newCollector(t, nil)
	code, out, stderr := e.ship("--endpoint", url)
	if code != 0 || stderr != "" {
		t.Fatalf("status %d, stderr %s", code, stderr)
	}
	if !strings.Contains(out, "shipped 250 records (ev-0001 … ev-0125)") || !strings.Contains(out, "in 3 requests") {
		t.Errorf("summary: %s", out)
	}
	c.check(t, 250)
	for _, h := range c.headers {
		if h.Get("Authorization") != testToken || h.Get("X-Tenant") != "team-a" {
			t.Fatalf("headers not sent: %v", h)
		}
	}
	code, out, _ = e.ship("--endpoint", url)
	if code != 0 || !strings.Contains(out, "nothing new") || c.requests != 3 {
		t.Errorf("second ship: status %d, %d requests, %s", code, c.requests, out)
	}
}

func TestShipRetriesOverload(t *testing.T) {
	e := newShipEnv(t, 10)
	c, url := newCollector(t, func(n int, w http.ResponseWriter) bool {
		switch n {
		case 1:
			w.Header().Set("Retry-After", "0")
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return false
		case 2:
			http.Error(w, `{"code":14,"message":"memory limiter"}`, http.StatusServiceUnavailable)
			return false
		}
		return true
	})
	code, _, stderr := e.ship("--endpoint", url, "--retry-wait", "1ms")
	if code != 0 {
		t.Fatalf("status %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "429 Too Many Requests") || !strings.Contains(stderr, "503 Service Unavailable: memory limiter") {
		t.Errorf("retries not announced: %s", stderr)
	}
	c.check(t, 20)
}

// A refusal stops the ship with status 1; the cursor stays after the
// last accepted batch, and the next ship sends the rest: nothing lost,
// nothing twice.
func TestShipRefusedKeepsTheRest(t *testing.T) {
	e := newShipEnv(t, 150) // 300 records
	refuse := true
	c, url := newCollector(t, func(n int, w http.ResponseWriter) bool {
		if n == 2 && refuse {
			http.Error(w, `{"code":3,"message":"payload rejected: `+testToken+`"}`, http.StatusBadRequest)
			return false
		}
		return true
	})
	code, out, stderr := e.ship("--endpoint", url)
	if code != 1 {
		t.Fatalf("status %d, want 1", code)
	}
	if !strings.Contains(stderr, "refused the records: 400 Bad Request: payload rejected: [header value]") ||
		!strings.Contains(stderr, "the next guard-exec ship sends the records from ev-0051 on") {
		t.Errorf("stderr: %s", stderr)
	}
	if !strings.Contains(out, "shipped 100 records") {
		t.Errorf("stdout: %s", out)
	}
	c.check(t, 100)
	refuse = false
	if code, _, stderr := e.ship("--endpoint", url); code != 0 {
		t.Fatalf("second ship: %d %s", code, stderr)
	}
	c.check(t, 300)
}

func TestShipUnreachable(t *testing.T) {
	e := newShipEnv(t, 3)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	code, _, stderr := e.ship("--endpoint", url, "--attempts", "2", "--retry-wait", "1ms")
	if code != 1 || !strings.Contains(stderr, "cannot reach the collector at "+url+"/v1/logs") ||
		!strings.Contains(stderr, "(after 2 tries)") || !strings.Contains(stderr, "from ev-0001 on") {
		t.Fatalf("status %d: %s", code, stderr)
	}
	matches, _ := filepath.Glob(filepath.Join(e.dir, "ledger", "ship-*.cursor"))
	if len(matches) != 0 {
		t.Errorf("a cursor was written though nothing was accepted: %v", matches)
	}
}

func TestShipConfigErrors(t *testing.T) {
	e := newShipEnv(t, 1)
	e.env = append(e.env, "SHIP_TEST_AUTH=") // set but empty
	code, _, stderr := e.ship("--endpoint", "http://127.0.0.1:1")
	if code != 125 || !strings.Contains(stderr, "header Authorization: the variable SHIP_TEST_AUTH named in [export] headers_from_env is not set") {
		t.Errorf("status %d: %s", code, stderr)
	}
	e = newShipEnv(t, 1)
	code, _, stderr = e.ship("--endpoint", "http://user:pw-secret@127.0.0.1:1")
	if code != 125 || strings.Contains(stderr, "pw-secret") || !strings.Contains(stderr, "credentials in the URL") {
		t.Errorf("status %d: %s", code, stderr)
	}
	code, _, stderr = e.ship()
	if code != 125 || !strings.Contains(stderr, "no collector configured") {
		t.Errorf("status %d: %s", code, stderr)
	}
}

// What redaction removed when the record was written is not in what is
// shipped: ship sends the stored text.
func TestShipSendsRedactedText(t *testing.T) {
	e := newShipEnv(t, 0)
	led, _ := ledger.Open(filepath.Join(e.dir, "ledger"), ledger.Options{})
	secret := "ghp_" + strings.Repeat("a1B2", 9)
	if _, err := led.Append(&ledger.Record{Kind: ledger.KindExec, Raw: "git push https://x:" + secret + "@github.com/o/r; GITHUB_TOKEN=" + secret + " gh pr list",
		Command: "GITHUB_TOKEN=" + secret + " gh pr list", Verdict: "allow"}); err != nil {
		t.Fatal(err)
	}
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
	}))
	defer srv.Close()
	if code, _, stderr := e.ship("--endpoint", srv.URL); code != 0 {
		t.Fatal(stderr)
	}
	if strings.Contains(string(body), secret) || !strings.Contains(string(body), "REDACTED") {
		t.Errorf("shipped body:\n%s", body)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"": 0, "7": 7 * time.Second, "-1": 0, "soon": 0,
		now.Add(90 * time.Second).Format(http.TimeFormat): 90 * time.Second,
		now.Add(-time.Hour).Format(http.TimeFormat):       0,
	} {
		if got := retryAfter(v, now); got != want {
			t.Errorf("Retry-After %q = %v, want %v", v, got, want)
		}
	}
}

func TestOTELHeaders(t *testing.T) {
	h := map[string]string{}
	if err := parseOTELHeaders("api-key=abc%3D%3D, x-tenant = t1 ,", "OTEL_EXPORTER_OTLP_HEADERS", h); err != nil {
		t.Fatal(err)
	}
	if h["api-key"] != "abc==" || h["x-tenant"] != "t1" {
		t.Errorf("%v", h)
	}
	err := parseOTELHeaders("k=bad%0Avalue-secret", "OTEL_EXPORTER_OTLP_HEADERS", h)
	if err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("err = %v", err)
	}
}

func TestShipOneAtATime(t *testing.T) {
	e := newShipEnv(t, 2)
	_, url := newCollector(t, nil)
	unlock, err := lockCursor(filepath.Join(e.dir, "ledger", cursorName(url+"/v1/logs")))
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := e.ship("--endpoint", url)
	if code != 1 || !strings.Contains(stderr, "another guard-exec ship to this endpoint is running") {
		t.Errorf("status %d: %s", code, stderr)
	}
	unlock()
	if code, _, stderr := e.ship("--endpoint", url); code != 0 {
		t.Errorf("after the other finished: %d %s", code, stderr)
	}
}
