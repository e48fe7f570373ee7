package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/guard-exec/guard-exec/internal/otlp"
	"github.com/guard-exec/guard-exec/ledger"
	"github.com/guard-exec/guard-exec/policy"
)

// guard-exec ship sends the ledger's records that were not shipped yet to
// an OpenTelemetry Collector over OTLP/HTTP (JSON), at least once:
//
//   - a cursor file beside the ledger (ship-<hash of the URL>.cursor, one
//     per endpoint) holds the mark of the last record the collector
//     accepted, and is moved only after the collector accepted a batch;
//   - a crash, a refusal or an unreachable collector leaves the cursor where
//     it was, so the next ship sends the rest again; a batch the collector
//     accepted but whose acknowledgement was lost is sent twice, and each
//     record carries log.record.uid (ledger id / record id / kind) for the
//     backend to drop the copy;
//   - batches hold at most [export] batch records (512) and 4 MiB;
//   - 429 and 5xx answers and network errors are retried with exponential
//     backoff, honouring Retry-After; other answers stop the ship.
//
// Header values (the configured ones, the ones read from the variables
// headers_from_env names, OTEL_EXPORTER_OTLP_HEADERS) go into requests
// only: no message, cursor or record holds one.

const (
	shipMaxBatchBytes = 4 << 20
	// shipPassRecords bounds the records one read of the ledger holds in
	// memory; a larger backlog is read again from the cursor.
	shipPassRecords = 20_000
)

// Exit statuses of ship (doc.go): 0 all shipped; 1 the collector refused
// or could not be reached, and the rest waits for the next ship; 125
// guard-exec's own failure (usage, configuration, an unreadable ledger).
const exitShipIncomplete = exitAttention

var cmdShip = &command{
	name:    "ship",
	summary: "send the records not shipped yet to an OpenTelemetry Collector",
	usage:   []string{"ship [--endpoint URL] [--ledger DIR] [--batch N] [--attempts N] [--retry-wait D]"},
	doc: `
Ship posts the ledger's records that were not shipped yet to an OpenTelemetry
Collector over OTLP/HTTP (JSON), as log records mapped onto OpenTelemetry's
conventions (README, Shipping the ledger). The endpoint is --endpoint, else
[export] otlp_endpoint in the user configuration, else
OTEL_EXPORTER_OTLP_LOGS_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT (plus
/v1/logs). Headers come from OTEL_EXPORTER_OTLP_HEADERS, [export] headers,
and [export] headers_from_env, which names the variable holding a secret
value; no header value is ever printed.

Delivery is at least once: a cursor beside the ledger moves only after the
collector accepted a batch, and each record carries log.record.uid for the
backend to drop a copy. 429, 5xx and network errors are retried with backoff,
honouring Retry-After. Exit status 0 when everything went; 1 when the
collector refused or could not be reached (nothing is lost: the next ship
sends the rest); 125 for guard-exec's own errors.`,
	examples: `
# at the end of a CI job
OTEL_EXPORTER_OTLP_ENDPOINT=https://otel.example.com:4318 guard-exec ship
# a local collector
guard-exec ship --endpoint http://127.0.0.1:4318`,
	run: runShip,
}

func runShip(ctx context.Context, g *guard, args []string) error {
	fs := g.flags("ship")
	endpoint := fs.String("endpoint", "", "the collector's OTLP/HTTP `URL` (else [export] otlp_endpoint, else OTEL_EXPORTER_OTLP_LOGS_ENDPOINT / OTEL_EXPORTER_OTLP_ENDPOINT)")
	dir := fs.String("ledger", "", "ship the ledger in `DIR`")
	batch := fs.Int("batch", 0, "at most `N` records per request (else [export] batch, 512)")
	attempts := fs.Int("attempts", 5, "tries per batch before giving up, on 429, 5xx and network errors")
	retryWait := fs.Duration("retry-wait", 500*time.Millisecond, "the first wait between tries; it doubles, and Retry-After overrides it")
	timeout := fs.Duration("request-timeout", 30*time.Second, "give up on one request after this long")
	if err := g.parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("ship takes no operands (got %q)", fs.Arg(0))
	}
	if *attempts < 1 || *attempts > 100 || *retryWait < 0 || *timeout <= 0 {
		return usagef("ship: --attempts from 1 to 100, --retry-wait ≥ 0 and --request-timeout > 0")
	}
	target, err := g.shipTarget(*endpoint)
	if err != nil {
		return err
	}
	cfg := g.config().Export
	n := cfg.Batch
	if *batch != 0 {
		n = *batch
	}
	if n < 1 || n > 10_000 {
		return usagef("ship: --batch from 1 to 10000, got %d", n)
	}
	led, where, err := g.openForReading(*dir)
	if err != nil {
		return err
	}
	if led == nil {
		g.noLedger(where)
		return nil
	}
	id, err := led.Identity()
	if err != nil {
		return err
	}
	s := &shipper{
		g: g, led: led, mapper: g.newOTLPMapper(id), batch: n,
		client: newOTLPClient(target, *attempts, *retryWait, *timeout),
		cursor: filepath.Join(led.Dir(), cursorName(target.url)),
	}
	return s.run(ctx)
}

// shipTarget resolves where to send: --endpoint, [export] otlp_endpoint,
// then the OpenTelemetry SDK's variables; and the headers.
func (g *guard) shipTarget(flag string) (*otlpTarget, error) {
	cfg := g.config().Export
	endpoint, from := flag, "--endpoint"
	logsURL := ""
	switch {
	case endpoint != "":
	case cfg.OTLPEndpoint != "":
		endpoint, from = cfg.OTLPEndpoint, "[export] otlp_endpoint"
	case g.vars["OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"] != "":
		// The SDK uses the per-signal variable as it is.
		endpoint, from = g.vars["OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"], "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"
		logsURL = endpoint
	case g.vars["OTEL_EXPORTER_OTLP_ENDPOINT"] != "":
		endpoint, from = g.vars["OTEL_EXPORTER_OTLP_ENDPOINT"], "OTEL_EXPORTER_OTLP_ENDPOINT"
		logsURL = strings.TrimRight(endpoint, "/") + "/v1/logs"
	default:
		return nil, usagef("ship: no collector configured: set [export] otlp_endpoint (guard-exec config init shows it), OTEL_EXPORTER_OTLP_ENDPOINT, or pass --endpoint URL")
	}
	if msg := policy.CheckEndpoint(endpoint); msg != "" {
		return nil, fmt.Errorf("ship: the endpoint from %s: %s", from, msg)
	}
	if logsURL == "" {
		logsURL = policy.LogsURL(endpoint)
	}
	t := &otlpTarget{url: logsURL, headers: map[string]string{}}
	// Weakest first: the SDK's variables, then the configuration.
	for _, env := range []string{"OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_LOGS_HEADERS"} {
		if err := parseOTELHeaders(g.vars[env], env, t.headers); err != nil {
			return nil, err
		}
	}
	for k, v := range cfg.Headers {
		t.headers[k] = v
	}
	for k, env := range cfg.HeadersFromEnv {
		v, ok := g.vars[env]
		switch {
		case !ok || v == "":
			return nil, fmt.Errorf("ship: header %s: the variable %s named in [export] headers_from_env is not set", k, env)
		case !policy.ValidHeaderValue(v):
			return nil, fmt.Errorf("ship: header %s: the value of %s holds control characters", k, env)
		}
		t.headers[k] = v
	}
	return t, nil
}

// parseOTELHeaders reads the SDK's header list: key=value pairs separated
// by commas, values percent-encoded. Messages name keys, never values.
func parseOTELHeaders(s, env string, into map[string]string) error {
	for _, kv := range strings.Split(s, ",") {
		if strings.TrimSpace(kv) == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return fmt.Errorf("ship: %s: an entry is not key=value", env)
		}
		dec, err := percentDecode(strings.TrimSpace(v))
		if err != nil || !policy.ValidHeaderValue(dec) {
			return fmt.Errorf("ship: %s: the value of %s is not usable", env, k)
		}
		into[k] = dec
	}
	return nil
}

func percentDecode(s string) (string, error) {
	if !strings.Contains(s, "%") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", errors.New("bad escape")
		}
		v, err := hex.DecodeString(s[i+1 : i+3])
		if err != nil {
			return "", err
		}
		b.Write(v)
		i += 2
	}
	return b.String(), nil
}

// cursorName is one cursor per endpoint: shipping to a second collector
// does not skip what the first one got.
func cursorName(url string) string {
	sum := sha256.Sum256([]byte(url))
	return "ship-" + hex.EncodeToString(sum[:6]) + ".cursor"
}

// cursorFile is what the cursor holds. The URL is not written: it names
// the file, by hash, and a URL may hold something private.
type cursorFile struct {
	Mark    ledger.Mark `json:"mark"`
	ID      string      `json:"id"`   // the record at the mark, for people
	Kind    string      `json:"kind"` // its kind
	Time    string      `json:"time"` // when it was shipped
	Shipped int64       `json:"shipped"`
}

func readCursor(path string) (cursorFile, error) {
	var c cursorFile
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("ship: cursor: %w", err)
	}
	if len(b) > 4096 || json.Unmarshal(b, &c) != nil || len(c.Mark) != 64 && c.Mark != "" {
		return c, fmt.Errorf("ship: the cursor %s is damaged: remove it to ship every kept record again (the backend can drop the copies by log.record.uid)", path)
	}
	return c, nil
}

// writeCursor replaces the cursor whole (a temporary file renamed over
// it). It is not synced: a cursor lost in a crash only means records are
// sent again, which at-least-once allows.
func writeCursor(path string, c cursorFile) error {
	b, _ := json.Marshal(c)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("ship: cursor: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("ship: cursor: %w", err)
	}
	return nil
}

var errShipBusy = errors.New("ship: another guard-exec ship to this endpoint is running on this ledger; try again when it has finished")

// lockCursor keeps two ships to one endpoint from running at once (two CI
// steps, a cron job and a person): they would send the same records and
// race on the cursor. The lock is flock(2) on a file of its own, released
// by the kernel if ship dies.
func lockCursor(cursor string) (func(), error) {
	f, err := os.OpenFile(cursor+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("ship: cursor lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errShipBusy
		}
		return nil, fmt.Errorf("ship: cursor lock: %w", err)
	}
	return func() { f.Close() }, nil
}

// shipper is one run of ship.
type shipper struct {
	g      *guard
	led    *ledger.Ledger
	mapper *otlpMapper
	client *otlpClient
	batch  int
	cursor string

	sent, requests, rejected int64
	first, last              string
	problems                 int
}

// pending is a record read from the ledger, waiting to be sent.
type pending struct {
	rec  ledger.Record
	mark ledger.Mark
}

func (s *shipper) run(ctx context.Context) error {
	unlock, err := lockCursor(s.cursor)
	if errors.Is(err, errShipBusy) {
		fmt.Fprintf(s.g.st.err, "guard-exec: error: %v\n", err)
		return status(exitShipIncomplete)
	}
	if err != nil {
		return err
	}
	defer unlock()
	cur, err := readCursor(s.cursor)
	if err != nil {
		return err
	}
	for {
		recs, more, err := s.read(cur.Mark)
		if err != nil {
			return err
		}
		for len(recs) > 0 {
			n := s.fit(recs)
			if err := s.send(ctx, recs[:n]); err != nil {
				s.report()
				// Printed here: the status is 1, not guard-exec's own 125.
				fmt.Fprintf(s.g.st.err, "guard-exec: error: ship: %v; nothing is lost: the next guard-exec ship sends the records from %s on\n", err, recs[0].rec.ID)
				return status(exitShipIncomplete)
			}
			last := recs[n-1]
			cur = cursorFile{Mark: last.mark, ID: last.rec.ID, Kind: string(last.rec.Kind), Time: ledger.FormatTime(time.Now()), Shipped: cur.Shipped + int64(n)}
			if err := writeCursor(s.cursor, cur); err != nil {
				return err
			}
			recs = recs[n:]
		}
		if !more {
			break
		}
	}
	s.report()
	return nil
}

// read takes the next pass of records after mark.
func (s *shipper) read(mark ledger.Mark) ([]pending, bool, error) {
	var recs []pending
	res, err := s.led.After(mark, func(e ledger.Entry) bool {
		recs = append(recs, pending{rec: e.Record, mark: e.Mark})
		return len(recs) < shipPassRecords
	})
	if err != nil {
		return nil, false, err
	}
	if !res.Found {
		fmt.Fprintf(s.g.st.err, "guard-exec: warning: ship: the last record shipped is no longer in the ledger (rotated away, or the ledger was started again): shipping every kept record\n")
	}
	s.problems += len(res.Problems)
	return recs, res.Stopped, nil
}

// fit is how many of recs go in the next request: at most the batch size,
// and at most shipMaxBatchBytes of encoded records (at least one).
func (s *shipper) fit(recs []pending) int {
	n := min(len(recs), s.batch)
	size := 0
	for i := 0; i < n; i++ {
		size += approxSize(&recs[i].rec)
		if size > shipMaxBatchBytes && i > 0 {
			return i
		}
	}
	return n
}

// approxSize overestimates a record's encoded size: the strings, JSON
// escaping at most doubles them, and a fixed cost for names and framing.
func approxSize(r *ledger.Record) int {
	return 2*(len(r.Raw)+len(r.Command)+len(r.Cwd)+len(r.Project)) + 64*len(r.Rules) + 2048
}

func (s *shipper) send(ctx context.Context, recs []pending) error {
	out := make([]otlp.Record, len(recs))
	for i := range recs {
		out[i] = s.mapper.record(&recs[i].rec)
	}
	body := s.mapper.request(out).Append(make([]byte, 0, 64<<10))
	res, err := s.client.post(ctx, body, s.g.st.err)
	if err != nil {
		return err
	}
	s.requests++
	s.sent += int64(len(recs))
	if s.first == "" {
		s.first = recs[0].rec.ID
	}
	s.last = recs[len(recs)-1].rec.ID
	if res.rejected > 0 {
		s.rejected += res.rejected
		fmt.Fprintf(s.g.st.err, "guard-exec: warning: ship: the collector accepted the request but rejected %d of its %d records: %s\n", res.rejected, len(recs), res.message)
	}
	return nil
}

func (s *shipper) report() {
	if s.problems > 0 {
		fmt.Fprintf(s.g.st.err, "guard-exec: warning: ship: %d unreadable ledger lines skipped (guard-exec log --verify shows where)\n", s.problems)
	}
	if s.sent == 0 {
		fmt.Fprintf(s.g.st.out, "nothing new to ship to %s\n", s.client.target.url)
		return
	}
	fmt.Fprintf(s.g.st.out, "shipped %s (%s … %s) to %s in %s\n", plural(int(s.sent), "record"), s.first, s.last, s.client.target.url, plural(int(s.requests), "request"))
}
