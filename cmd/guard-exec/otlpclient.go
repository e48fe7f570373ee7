package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// otlpTarget is where records go: the URL posted to and the headers sent.
type otlpTarget struct {
	url     string
	headers map[string]string // values are secrets as far as any output is concerned
}

// otlpClient posts export requests with the retry rules of the OTLP/HTTP
// specification: 429 and 5xx (and a connection that fails) are retried
// after a backoff that doubles, or after Retry-After when the collector
// sends one; other answers are final.
//
// The request itself is made by curl(1), not by Go's net/http: linking an
// HTTP and TLS stack into guard-exec costs every guarded command about
// 0.5 ms of start-up (the package initialisation of net/http and
// crypto/tls, measured side by side), for a subcommand run once per CI
// job. curl is on every CI runner and most machines, and brings the
// machine's CA certificates, proxies and TLS settings with it. The URL,
// headers and options go to curl in a config on a pipe, never on its
// command line, where any process could read a header's secret.
type otlpClient struct {
	target   *otlpTarget
	curl     string
	timeout  time.Duration
	attempts int
	wait     time.Duration
	sleep    func(context.Context, time.Duration) error
}

// Bounds of a retry: a collector asking for an hour is told no.
const (
	maxRetryWait = 60 * time.Second
	maxReplyBody = 64 << 10
)

func newOTLPClient(t *otlpTarget, attempts int, wait, timeout time.Duration) *otlpClient {
	return &otlpClient{target: t, attempts: attempts, wait: wait, timeout: timeout, sleep: sleepCtx}
}

// postResult is an accepted request's partial success, if any.
type postResult struct {
	rejected int64
	message  string
}

// post sends body until the collector accepts it, refuses it, or the
// attempts run out. Retries are announced on w, without header values.
func (c *otlpClient) post(ctx context.Context, body []byte, w io.Writer) (postResult, error) {
	wait := c.wait
	for attempt := 1; ; attempt++ {
		res, retryAfter, err := c.once(ctx, body)
		var r retryable
		if err == nil || !errors.As(err, &r) || attempt >= c.attempts || ctx.Err() != nil {
			if err != nil && attempt > 1 && errors.As(err, &r) {
				err = fmt.Errorf("%w (after %d tries)", err, attempt)
			}
			return res, err
		}
		d := wait
		if retryAfter > 0 {
			d = min(retryAfter, maxRetryWait)
		}
		fmt.Fprintf(w, "guard-exec: warning: ship: %v; trying again in %s (%d of %d)\n", err, d.Round(time.Millisecond), attempt+1, c.attempts)
		if err := c.sleep(ctx, d); err != nil {
			return res, err
		}
		wait = min(2*wait, maxRetryWait)
	}
}

// retryable marks an error worth another try.
type retryable struct{ error }

func (r retryable) Unwrap() error { return r.error }

// once makes one request. A Retry-After the collector sent comes back
// with a retryable error.
func (c *otlpClient) once(ctx context.Context, body []byte) (postResult, time.Duration, error) {
	resp, err := c.do(ctx, body)
	if err != nil {
		return postResult{}, 0, err
	}
	code := resp.code
	switch {
	case code >= 200 && code < 300:
		res := partialSuccess(resp.body)
		res.message = c.scrub(res.message)
		return res, 0, nil
	case code == 429 || code >= 500:
		return postResult{}, retryAfter(resp.header("Retry-After"), time.Now()),
			retryable{fmt.Errorf("the collector at %s answered %s%s", c.target.url, resp.status, c.scrub(replyMessage(resp.body)))}
	case code >= 300 && code < 400:
		return postResult{}, 0, fmt.Errorf("the collector at %s answered %s (a redirect, not followed: configure the URL it points to)", c.target.url, resp.status)
	}
	return postResult{}, 0, fmt.Errorf("the collector at %s refused the records: %s%s", c.target.url, resp.status, c.scrub(replyMessage(resp.body)))
}

// scrub hides header values in a message from the other side: a
// collector refusing a token may quote it back.
func (c *otlpClient) scrub(msg string) string {
	for _, v := range c.target.headers {
		if len(v) >= 4 {
			msg = strings.ReplaceAll(msg, v, "[header value]")
		}
	}
	return msg
}

// httpTime is the HTTP date format (RFC 9110 IMF-fixdate).
const httpTime = "Mon, 02 Jan 2006 15:04:05 GMT"

// retryAfter reads Retry-After: seconds, or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := time.Parse(httpTime, v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// partialSuccess reads an ExportLogsServiceResponse; a body that is not
// one (a proxy's "OK") means everything was accepted.
func partialSuccess(reply []byte) postResult {
	var r struct {
		PartialSuccess struct {
			RejectedLogRecords json.Number `json:"rejectedLogRecords"`
			ErrorMessage       string      `json:"errorMessage"`
		} `json:"partialSuccess"`
	}
	if json.Unmarshal(reply, &r) != nil {
		return postResult{}
	}
	n, _ := r.PartialSuccess.RejectedLogRecords.Int64()
	return postResult{rejected: n, message: oneLine(r.PartialSuccess.ErrorMessage, 200)}
}

// replyMessage is the message of a google.rpc.Status reply, or the start of
// a text one, for the error line.
func replyMessage(reply []byte) string {
	var st struct {
		Message string `json:"message"`
	}
	msg := ""
	if json.Unmarshal(reply, &st) == nil {
		msg = st.Message
	} else if !bytes.ContainsRune(reply, 0) {
		msg = string(reply)
	}
	msg = strings.TrimSpace(oneLine(msg, 200))
	if msg == "" {
		return ""
	}
	return ": " + msg
}
