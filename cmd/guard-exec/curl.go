package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// httpReply is what curl reports of one response.
type httpReply struct {
	code    int
	status  string // "429 Too Many Requests"
	headers []string
	body    []byte
}

func (r *httpReply) header(name string) string {
	for _, h := range r.headers {
		if k, v, ok := strings.Cut(h, ":"); ok && strings.EqualFold(strings.TrimSpace(k), name) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// curl exit statuses that mean the request may not have reached the
// collector or its answer was lost, and a retry may do better: could not
// resolve (6), connect (7), timed out (28), TLS handshake (35), empty
// reply (52), send or receive failed (55, 56).
func curlRetryable(code int) bool {
	switch code {
	case 6, 7, 28, 35, 52, 55, 56:
		return true
	}
	return false
}

// do posts body with curl. The config (URL, headers) goes on fd 3 and the
// body on stdin; the response, headers included, comes back on stdout.
func (c *otlpClient) do(ctx context.Context, body []byte) (*httpReply, error) {
	if c.curl == "" {
		p, err := exec.LookPath("curl")
		if err != nil {
			return nil, errors.New("guard-exec ship sends with curl, which is not on PATH: install curl")
		}
		c.curl = p
	}
	cfgR, cfgW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer cfgR.Close()
	// -q first: no .curlrc, whose options (a -L following redirects
	// with our headers) nobody here chose.
	cmd := exec.CommandContext(ctx, c.curl, "-q", "--config", "/dev/fd/3")
	cmd.ExtraFiles = []*os.File{cfgR}
	cmd.Stdin = bytes.NewReader(body)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &limitedBuffer{buf: &out, max: maxReplyBody + 64<<10}, &limitedBuffer{buf: &errb, max: 4096}
	if err := cmd.Start(); err != nil {
		cfgW.Close()
		return nil, fmt.Errorf("cannot start curl: %w", err)
	}
	cfg := c.curlConfig()
	_, werr := cfgW.WriteString(cfg)
	cfgW.Close()
	err = cmd.Wait()
	if werr != nil && err == nil {
		err = werr
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		reason := c.scrub(strings.TrimSpace(strings.TrimPrefix(oneLine(errb.String(), 300), "curl: ")))
		e := fmt.Errorf("cannot reach the collector at %s: %s", c.target.url, reason)
		if curlRetryable(ee.ExitCode()) {
			return nil, retryable{e}
		}
		return nil, e
	}
	if err != nil {
		return nil, fmt.Errorf("curl: %w", err)
	}
	return parseReply(out.Bytes())
}

// curlConfig is the request as a curl config file: no progress meter,
// errors shown, the body from stdin as it is, no redirect followed (a
// redirect would carry our headers to a host nobody configured), no
// "Expect: 100-continue" round trip, and the response headers included.
func (c *otlpClient) curlConfig() string {
	var b strings.Builder
	line := func(k, v string) { fmt.Fprintf(&b, "%s = %s\n", k, curlQuote(v)) }
	b.WriteString("silent\nshow-error\ninclude\nproto = \"=http,https\"\n")
	line("url", c.target.url)
	line("request", "POST")
	line("data-binary", "@-")
	line("max-time", strconv.FormatFloat(c.timeout.Seconds(), 'f', 3, 64))
	line("connect-timeout", strconv.FormatFloat(min(c.timeout, 10*time.Second).Seconds(), 'f', 3, 64))
	line("header", "Content-Type: application/json")
	line("header", "Expect:")
	line("user-agent", "guard-exec/"+guardVersion())
	for k, v := range c.target.headers {
		line("header", k+": "+v)
	}
	return b.String()
}

// curlQuote quotes a value for a curl config file: in double quotes,
// backslash and quote escaped (header values have no control characters).
func curlQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// parseReply reads what curl --include wrote: a status line, headers, an
// empty line, the body. Interim responses (1xx) come first and are passed
// over.
func parseReply(b []byte) (*httpReply, error) {
	r := bufio.NewReader(bytes.NewReader(b))
	for {
		status, err := r.ReadString('\n')
		if err != nil {
			return nil, errors.New("the collector's answer could not be read (no HTTP status)")
		}
		proto, rest, _ := strings.Cut(strings.TrimSpace(status), " ")
		codeText, _, _ := strings.Cut(rest, " ")
		code, cerr := strconv.Atoi(codeText)
		if !strings.HasPrefix(proto, "HTTP/") || cerr != nil {
			return nil, errors.New("the collector's answer could not be read (no HTTP status)")
		}
		reply := &httpReply{code: code, status: strings.TrimSpace(rest)}
		for {
			h, err := r.ReadString('\n')
			h = strings.TrimRight(h, "\r\n")
			if h == "" || err != nil {
				break
			}
			reply.headers = append(reply.headers, h)
		}
		if code >= 100 && code < 200 {
			continue
		}
		reply.body, _ = io.ReadAll(io.LimitReader(r, maxReplyBody))
		return reply, nil
	}
}

// limitedBuffer keeps the first max bytes written and drops the rest.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
