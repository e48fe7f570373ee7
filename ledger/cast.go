package ledger

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/guard-exec/guard-exec/internal/redact"
)

// maxCast bounds a transcript. The recorder bounds what it keeps; this is
// the ledger's own guard against a caller that did not.
const maxCast = 64 << 20

// WriteCast stores an asciicast v2 transcript for id under
// dir/casts/ev-N.cast (0600) and returns its path relative to the ledger
// directory, for the exit record's Cast field. Each event's text is
// redacted as one stream, so a private key printed across several events
// is dropped whole; the header's strings (title, command, env) are
// redacted too. Lines that are not valid asciicast are redacted as text.
func (l *Ledger) WriteCast(id string, cast []byte) (string, error) {
	if _, ok := ParseID(id); !ok { // also keeps the name inside casts/
		return "", fmt.Errorf("ledger: %q is not an id (ev-N)", id)
	}
	if len(cast) > maxCast {
		return "", fmt.Errorf("ledger: transcript of %d bytes is over the %d MiB limit", len(cast), maxCast>>20)
	}
	rel := filepath.Join(castsDir, id+".cast")
	if err := os.Mkdir(l.path(castsDir), 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("ledger: cast: %w", err)
	}
	f, err := os.OpenFile(l.path(rel), os.O_WRONLY|os.O_CREATE|os.O_EXCL|openFlags, 0o600)
	if err != nil {
		return "", fmt.Errorf("ledger: cast: %w", err)
	}
	_, err = f.Write(l.redactCast(cast))
	if l.opts.Durable && err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(l.path(rel))
		return "", fmt.Errorf("ledger: cast: %w", err)
	}
	return rel, nil
}

// redactCast redacts a transcript line by line. Event text is redacted
// decoded and re-encoded: redacting the JSON text itself could cut an
// escape sequence in half and leave a line no player can read.
func (l *Ledger) redactCast(cast []byte) []byte {
	out := make([]byte, 0, len(cast))
	streams := map[string]*redact.Stream{} // "o" and "i" are separate streams
	for i, ln := range bytes.SplitAfter(cast, []byte("\n")) {
		body := bytes.TrimSuffix(ln, []byte("\n"))
		if len(body) == 0 {
			out = append(out, ln...)
			continue
		}
		var red []byte
		if i == 0 {
			red = l.redactCastHeader(body)
		} else {
			red = l.redactCastEvent(body, streams)
		}
		out = append(out, red...)
		if len(body) < len(ln) {
			out = append(out, '\n')
		}
	}
	return out
}

func (l *Ledger) redactCastEvent(body []byte, streams map[string]*redact.Stream) []byte {
	var ev []json.RawMessage
	var typ, text string
	if json.Unmarshal(body, &ev) != nil || len(ev) != 3 ||
		json.Unmarshal(ev[1], &typ) != nil || json.Unmarshal(ev[2], &text) != nil {
		return []byte(redact.String(string(body), l.opts.Secrets))
	}
	st := streams[typ]
	if st == nil {
		st = &redact.Stream{Extra: l.opts.Secrets}
		streams[typ] = st
	}
	red := st.String(text)
	if red == text {
		return body
	}
	enc, err := json.Marshal(red)
	if err != nil {
		return []byte(redact.String(string(body), l.opts.Secrets))
	}
	var b bytes.Buffer
	b.WriteByte('[')
	b.Write(ev[0])
	b.WriteByte(',')
	b.Write(ev[1])
	b.WriteByte(',')
	b.Write(enc)
	b.WriteByte(']')
	return b.Bytes()
}

func (l *Ledger) redactCastHeader(body []byte) []byte {
	var h map[string]any
	if json.Unmarshal(body, &h) != nil {
		return []byte(redact.String(string(body), l.opts.Secrets))
	}
	changed := false
	redactValues(h, l.opts.Secrets, &changed)
	if !changed {
		return body
	}
	enc, err := json.Marshal(h)
	if err != nil {
		return []byte(redact.String(string(body), l.opts.Secrets))
	}
	return enc
}

// redactValues redacts every string in a decoded JSON value, in place.
func redactValues(v any, secrets []string, changed *bool) any {
	switch v := v.(type) {
	case string:
		r := redact.String(v, secrets)
		*changed = *changed || r != v
		return r
	case map[string]any:
		for k, x := range v {
			v[k] = redactValues(x, secrets, changed)
		}
	case []any:
		for i, x := range v {
			v[i] = redactValues(x, secrets, changed)
		}
	}
	return v
}

// pruneCasts removes the transcripts of commands whose records rotation has
// dropped, so casts/ stays bounded with the segments. It runs only when a
// segment rotates; failing to prune is no reason to fail an append.
func (l *Ledger) pruneCasts() {
	upTo, ok := l.oldestKeptLastID()
	if !ok {
		return
	}
	entries, err := os.ReadDir(l.path(castsDir))
	if err != nil {
		return
	}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".cast")
		if n, valid := ParseID(id); ok && valid && n <= upTo {
			os.Remove(filepath.Join(l.path(castsDir), e.Name()))
		}
	}
}
