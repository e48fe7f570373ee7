package ledger

import (
	"errors"
	"math"
	"strconv"

	"github.com/guard-exec/guard-exec/internal/jsonstr"
)

// appendRecord renders r as encoding/json would with HTML escaping off —
// fields in declaration order, omitempty as tagged, strings escaped the
// same way, floats in the same form — so that the bytes, and with them the
// hash chain, do not depend on which encoder wrote a line (TestEncodeMatchesJSON
// and FuzzEncode hold it to that). It exists because the first
// encoding/json Marshal of a type builds its encoder by reflection, about
// 0.15 ms that every guarded command paid for its first record.
func appendRecord(b []byte, r *Record) ([]byte, error) {
	w := objWriter{b: append(b, '{')}
	w.str("kind", string(r.Kind), false)
	w.str("id", r.ID, true)
	w.str("time", r.Time, false)
	w.int("schema", int64(r.Schema), true)
	w.str("last_id", r.LastID, true)
	w.str("session", r.Session, true)
	w.str("cwd", r.Cwd, true)
	w.str("project", r.Project, true)
	w.str("mode", r.Mode, true)
	w.str("io", r.IO, true)
	w.str("command", r.Command, true)
	w.str("raw", r.Raw, true)
	w.str("verdict", r.Verdict, true)
	w.str("enforce", r.Enforce, true)
	if len(r.Rules) > 0 {
		w.key("rules")
		w.b = append(w.b, '[')
		for i := range r.Rules {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.b = appendHit(w.b, &r.Rules[i])
		}
		w.b = append(w.b, ']')
	}
	if len(r.EnvRemoved) > 0 {
		w.key("env_removed")
		w.b = append(w.b, '[')
		for i, s := range r.EnvRemoved {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.b = jsonstr.Append(w.b, s)
		}
		w.b = append(w.b, ']')
	}
	w.str("parent", r.Parent, true)
	w.int("pid", int64(r.PID), true)
	w.str("sandbox", r.Sandbox, true)
	w.int("landlock_abi", int64(r.ABI), true)
	w.str("protect", r.Protect, true)
	if r.Exit != nil {
		w.int("exit", int64(*r.Exit), false)
	}
	w.str("signal", r.Signal, true)
	if r.DurationMS != 0 {
		w.key("duration_ms")
		var err error
		if w.b, err = appendFloat(w.b, r.DurationMS); err != nil {
			return nil, err
		}
	}
	w.stream("stdout", r.Stdout)
	w.stream("stderr", r.Stderr)
	w.str("digest", r.Digest, true)
	w.bool("timed_out", r.TimedOut)
	w.bool("incomplete", r.Incomplete)
	w.str("cast", r.Cast, true)
	w.str("ref", r.Ref, true)
	w.str("expires", r.Expires, true)
	w.str("auth", r.Auth, true)
	w.str("stamp", r.Stamp, true)
	w.str("prev", r.Prev, false)
	return append(w.b, '}'), nil
}

func appendHit(b []byte, h *Hit) []byte {
	w := objWriter{b: append(b, '{')}
	w.str("id", h.ID, false)
	w.str("severity", h.Severity, false)
	w.str("message", h.Message, true)
	w.str("span", h.Span, true)
	w.str("pos", h.Pos, true)
	return append(w.b, '}')
}

// objWriter appends the members of one JSON object.
type objWriter struct {
	b    []byte
	more bool // a member was written: the next one needs a comma
}

func (w *objWriter) key(k string) {
	if w.more {
		w.b = append(w.b, ',')
	}
	w.more = true
	w.b = append(w.b, '"')
	w.b = append(w.b, k...) // keys are plain ASCII
	w.b = append(w.b, '"', ':')
}

func (w *objWriter) str(k, v string, omitEmpty bool) {
	if omitEmpty && v == "" {
		return
	}
	w.key(k)
	w.b = jsonstr.Append(w.b, v)
}

func (w *objWriter) int(k string, v int64, omitEmpty bool) {
	if omitEmpty && v == 0 {
		return
	}
	w.key(k)
	w.b = strconv.AppendInt(w.b, v, 10)
}

func (w *objWriter) bool(k string, v bool) {
	if v { // every bool is omitempty
		w.key(k)
		w.b = append(w.b, "true"...)
	}
}

func (w *objWriter) stream(k string, s *StreamInfo) {
	if s == nil {
		return
	}
	w.key(k)
	o := objWriter{b: append(w.b, '{')}
	o.int("bytes", s.Bytes, false)
	o.str("sha256", s.SHA256, true)
	o.str("sha256_prefix", s.PrefixSHA256, true)
	o.int("hashed", s.Hashed, true)
	w.b = append(o.b, '}')
}

var errNonFinite = errors.New("json: unsupported value: NaN or infinite duration")

// appendFloat formats like encoding/json: %f-style between 1e-6 and 1e21,
// else exponent form without a padded exponent.
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, errNonFinite
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}
