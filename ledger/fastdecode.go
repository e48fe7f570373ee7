package ledger

import (
	"strconv"

	"github.com/guard-exec/guard-exec/internal/jsonstr"
)

// decodeFast parses a line in the exact shape Append writes — known
// lowercase keys, no whitespace, no nulls, no \u escapes — about four times
// faster than encoding/json, which matters because readers (the loop brake
// among them) decode records on every command. It reports false for
// anything else, and the caller falls back to encoding/json; when it
// reports true, the record is exactly what encoding/json would have made of
// the line (FuzzDecodeFast holds it to that), so the definition of a valid
// line stays encoding/json's.
func decodeFast(line []byte, r *Record) bool {
	p := fastParser{b: line}
	if !p.eat('{') {
		return false
	}
	var seen uint64
	for first := true; ; first = false {
		if first && p.eat('}') {
			break
		}
		kb, ok := p.key()
		if !ok {
			return false
		}
		i, ok := recordKeyIndex[string(kb)]
		if !ok || seen&(1<<i) != 0 { // unknown or repeated: let encoding/json decide
			return false
		}
		seen |= 1 << i
		if !p.eat(':') || !p.recordField(recordKeys[i], r) {
			return false
		}
		if p.eat('}') {
			break
		}
		if !p.eat(',') {
			return false
		}
	}
	return p.i == len(p.b)
}

// recordKeys are Record's JSON keys; recordKeyIndex maps each to its index.
var (
	recordKeys = []string{"kind", "id", "time", "schema", "last_id", "session", "cwd", "project", "mode", "io",
		"command", "raw", "verdict", "enforce", "rules", "env_removed", "parent", "pid", "exit", "signal",
		"duration_ms", "stdout", "stderr", "digest", "timed_out", "incomplete", "cast", "ref", "expires", "auth", "stamp", "prev",
		"sandbox", "landlock_abi", "protect"}
	recordKeyIndex = func() map[string]int {
		m := map[string]int{}
		for i, k := range recordKeys {
			m[k] = i
		}
		return m
	}()
)

type fastParser struct {
	b []byte
	i int
}

func (p *fastParser) recordField(key string, r *Record) bool {
	if s := stringField(key, r); s != nil {
		v, ok := p.str()
		*s = v
		return ok
	}
	switch key {
	case "kind":
		v, ok := p.str()
		r.Kind = Kind(v)
		return ok
	case "schema":
		return p.int(&r.Schema)
	case "pid":
		return p.int(&r.PID)
	case "landlock_abi":
		return p.int(&r.ABI)
	case "exit":
		r.Exit = new(int)
		return p.int(r.Exit)
	case "duration_ms":
		return p.float(&r.DurationMS)
	case "timed_out":
		return p.bool(&r.TimedOut)
	case "incomplete":
		return p.bool(&r.Incomplete)
	case "stdout":
		r.Stdout = new(StreamInfo)
		return p.stream(r.Stdout)
	case "stderr":
		r.Stderr = new(StreamInfo)
		return p.stream(r.Stderr)
	case "rules":
		return p.hits(&r.Rules)
	case "env_removed":
		return p.strings(&r.EnvRemoved)
	}
	return false
}

func stringField(key string, r *Record) *string {
	switch key {
	case "id":
		return &r.ID
	case "time":
		return &r.Time
	case "last_id":
		return &r.LastID
	case "session":
		return &r.Session
	case "cwd":
		return &r.Cwd
	case "project":
		return &r.Project
	case "mode":
		return &r.Mode
	case "io":
		return &r.IO
	case "command":
		return &r.Command
	case "raw":
		return &r.Raw
	case "verdict":
		return &r.Verdict
	case "enforce":
		return &r.Enforce
	case "parent":
		return &r.Parent
	case "signal":
		return &r.Signal
	case "digest":
		return &r.Digest
	case "cast":
		return &r.Cast
	case "ref":
		return &r.Ref
	case "expires":
		return &r.Expires
	case "auth":
		return &r.Auth
	case "stamp":
		return &r.Stamp
	case "prev":
		return &r.Prev
	case "sandbox":
		return &r.Sandbox
	case "protect":
		return &r.Protect
	}
	return nil
}

func (p *fastParser) eat(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// key reads an object key of lowercase letters, digits and underscores.
func (p *fastParser) key() ([]byte, bool) {
	if !p.eat('"') {
		return nil, false
	}
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			break
		}
		p.i++
	}
	k := p.b[start:p.i]
	return k, p.eat('"')
}

// str reads a string with the escapes Append's encoder writes other than
// \u. Raw bytes must be valid UTF-8 and no control characters.
func (p *fastParser) str() (string, bool) {
	v, next, ok := jsonstr.Simple(p.b, p.i)
	p.i = next
	return v, ok
}

// number returns the next JSON number token, checked against the grammar.
func (p *fastParser) number(integer bool) (string, bool) {
	start := p.i
	p.eat('-')
	switch {
	case p.eat('0'):
	case p.i < len(p.b) && p.b[p.i] >= '1' && p.b[p.i] <= '9':
		p.digits()
	default:
		return "", false
	}
	if !integer && p.eat('.') && !p.digits() {
		return "", false
	}
	if !integer && (p.eat('e') || p.eat('E')) {
		if !p.eat('+') {
			p.eat('-')
		}
		if !p.digits() {
			return "", false
		}
	}
	return string(p.b[start:p.i]), true
}

func (p *fastParser) digits() bool {
	start := p.i
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}

func (p *fastParser) int(v *int) bool {
	s, ok := p.number(true)
	if !ok {
		return false
	}
	n, err := strconv.ParseInt(s, 10, strconv.IntSize)
	*v = int(n)
	return err == nil
}

func (p *fastParser) int64(v *int64) bool {
	s, ok := p.number(true)
	if !ok {
		return false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	*v = n
	return err == nil
}

func (p *fastParser) float(v *float64) bool {
	s, ok := p.number(false)
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(s, 64)
	*v = f
	return err == nil
}

func (p *fastParser) bool(v *bool) bool {
	rest := p.b[p.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		*v, p.i = true, p.i+4
	case len(rest) >= 5 && string(rest[:5]) == "false":
		*v, p.i = false, p.i+5
	default:
		return false
	}
	return true
}

// object reads {"k":v,…} calling field for each key, refusing repeats.
// Keys are matched with switch string(key), which does not allocate.
func (p *fastParser) object(field func(key []byte) bool) bool {
	if !p.eat('{') {
		return false
	}
	if p.eat('}') {
		return true
	}
	var seen [8][]byte
	n := 0
	for {
		key, ok := p.key()
		if !ok || n == len(seen) {
			return false
		}
		for _, s := range seen[:n] {
			if string(s) == string(key) {
				return false
			}
		}
		seen[n] = key
		n++
		if !p.eat(':') || !field(key) {
			return false
		}
		if p.eat('}') {
			return true
		}
		if !p.eat(',') {
			return false
		}
	}
}

// array reads […] calling elem for each element.
func (p *fastParser) array(elem func() bool) bool {
	if !p.eat('[') {
		return false
	}
	if p.eat(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if p.eat(']') {
			return true
		}
		if !p.eat(',') {
			return false
		}
	}
}

func (p *fastParser) stream(s *StreamInfo) bool {
	return p.object(func(key []byte) bool {
		switch string(key) {
		case "bytes":
			return p.int64(&s.Bytes)
		case "sha256":
			v, ok := p.str()
			s.SHA256 = v
			return ok
		case "sha256_prefix":
			v, ok := p.str()
			s.PrefixSHA256 = v
			return ok
		case "hashed":
			return p.int64(&s.Hashed)
		}
		return false
	})
}

func (p *fastParser) hits(hs *[]Hit) bool {
	*hs = []Hit{}
	return p.array(func() bool {
		var h Hit
		ok := p.object(func(key []byte) bool {
			var dst *string
			switch string(key) {
			case "id":
				dst = &h.ID
			case "severity":
				dst = &h.Severity
			case "message":
				dst = &h.Message
			case "span":
				dst = &h.Span
			case "pos":
				dst = &h.Pos
			default:
				return false
			}
			v, ok := p.str()
			*dst = v
			return ok
		})
		*hs = append(*hs, h)
		return ok
	})
}

func (p *fastParser) strings(ss *[]string) bool {
	*ss = []string{}
	return p.array(func() bool {
		v, ok := p.str()
		*ss = append(*ss, v)
		return ok
	})
}
