package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/guard-exec/guard-exec/internal/redact"
)

// Bounds on what one record keeps. JSON escaping can grow a byte to six
// (\u0000), and even then a record stays under maxLine, so every record
// Append writes can be read back.
const (
	maxText    = 32 << 10 // Command, Raw
	maxDigest  = 8 << 10  // the caller's digest is 4 KiB of output
	maxField   = 4 << 10  // paths, session, stamp and other short fields
	maxHitText = 512      // a rule hit's message and span
	maxHits    = 32
	maxNames   = 64 // env_removed
	maxName    = 256
)

// prepare checks r and returns the copy Append writes: secrets redacted,
// fields bounded, time filled in. The caller's record is left as it was.
func (l *Ledger) prepare(r *Record) (*Record, error) {
	switch r.Kind {
	case KindExec, KindExit, KindDecision, KindApproval:
	case KindHeader:
		return nil, errors.New("ledger: headers are written by the ledger itself")
	default:
		return nil, fmt.Errorf("ledger: unknown record kind %q", r.Kind)
	}
	if r.Kind == KindExit && r.ID == "" {
		return nil, errors.New("ledger: an exit record needs the id of its exec")
	}
	if _, ok := ParseID(r.ID); r.ID != "" && !ok {
		return nil, fmt.Errorf("ledger: %q is not an id (ev-N)", r.ID)
	}
	rec := *r
	if rec.Time == "" {
		rec.Time = FormatTime(l.opts.Now())
	}
	secrets := l.opts.Secrets
	rec.Command = bound(redact.String(rec.Command, secrets), maxText)
	rec.Raw = bound(redact.String(rec.Raw, secrets), maxText)
	// Stripping again costs one byte search when the caller already did.
	rec.Digest = bound(redact.String(string(redact.StripANSI([]byte(rec.Digest))), secrets), maxDigest)
	rec.Rules = hits(rec.Rules, secrets)
	rec.EnvRemoved = names(rec.EnvRemoved)
	for _, f := range []*string{&rec.Time, &rec.Session, &rec.Cwd, &rec.Project, &rec.Mode, &rec.IO,
		&rec.Verdict, &rec.Enforce, &rec.Parent, &rec.Signal, &rec.Cast, &rec.Ref, &rec.Expires, &rec.Stamp,
		&rec.Sandbox, &rec.Protect} {
		*f = bound(*f, maxField)
	}
	rec.Schema, rec.LastID, rec.Prev = 0, "", ""
	return &rec, nil
}

func hits(in []Hit, secrets []string) []Hit {
	if len(in) == 0 {
		return nil
	}
	out := make([]Hit, 0, min(len(in), maxHits))
	for _, h := range in[:min(len(in), maxHits)] {
		out = append(out, Hit{
			ID:       bound(h.ID, maxName),
			Severity: bound(h.Severity, maxName),
			Message:  redactShort(h.Message, secrets),
			Span:     redactShort(h.Span, secrets),
			Pos:      bound(h.Pos, maxName),
		})
	}
	return out
}

// redactShort redacts and bounds a rule hit's text. Such text is short by
// nature (a message, a span of the command, which is itself recorded in
// full), so a huge one is cut well beyond the bound before redaction
// rather than scanned whole.
func redactShort(s string, secrets []string) string {
	if len(s) > 8*maxHitText {
		s = s[:runeCut(s, 8*maxHitText)]
	}
	return bound(redact.String(s, secrets), maxHitText)
}

func names(in []string) []string {
	if len(in) == 0 {
		return nil
	}
	out := make([]string, 0, min(len(in), maxNames))
	for _, n := range in[:min(len(in), maxNames)] {
		out = append(out, bound(n, maxName))
	}
	return out
}

// bound cuts s to at most n bytes (at a UTF-8 boundary) and says so. The
// marker carries the length and a hash of the whole text, so two long
// commands that differ only after the cut stay different (the loop brake
// compares them). Text is redacted before it is bounded, so the hash is of
// redacted text too.
func bound(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := runeCut(s, n)
	sum := sha256.Sum256([]byte(s))
	return s[:cut] + "…[truncated " + strconv.Itoa(len(s)-cut) + " bytes, sha256:" + hex.EncodeToString(sum[:8]) + "]"
}

// runeCut returns the largest index <= n (n < len(s)) that does not split a
// UTF-8 sequence.
func runeCut(s string, n int) int {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}
