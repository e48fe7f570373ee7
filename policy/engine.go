package policy

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/guard-exec/guard-exec/internal/redact"
	"github.com/guard-exec/guard-exec/parse"
)

// Engine holds a rule set indexed for fast matching. It is safe for
// concurrent use once built.
type Engine struct {
	rules    []*Rule
	names    nameIndex // Command rules by program name (engine_index.go)
	anyName  []*Rule   // Command rules for every command
	dynamic  []*Rule
	script   []*Rule
	severity map[string]Severity // severities configured over the rules' own, by rule id
	// hasLoopBrake: the loop-brake rule is in the set (not exempted).
	hasLoopBrake bool
	Mode         Mode
}

// NewEngine indexes rules. Rules with the same id: the later one wins, so
// configuration can replace a built-in.
func NewEngine(rules []*Rule) *Engine { return newEngine(rules, 0) }

// newEngine is NewEngine for rules whose first unique entries are known to
// have distinct ids (the built-in set: TestRulesAreData), so that
// only the rest are looked up: the engine is built on every command, and
// hashing every id into maps was most of its cost. The severity map holds
// only what configuration sets over a rule's own.
func newEngine(rules []*Rule, unique int) *Engine {
	e := &Engine{rules: dedupeRules(rules, unique)}
	for _, r := range e.rules {
		if r.ID == ruleLoopBrake.ID {
			e.hasLoopBrake = true
		}
		if r.Command != nil {
			if len(r.Programs) == 0 {
				e.anyName = append(e.anyName, r)
			}
			if len(r.Programs) > 0 {
				e.names.rules = append(e.names.rules, r)
			}
		}
		if r.Dynamic != nil {
			e.dynamic = append(e.dynamic, r)
		}
		if r.Script != nil || r.finding != fNone {
			e.script = append(e.script, r)
		}
	}
	return e
}

// dedupeRules keeps one rule per id, in the order of each id's first
// appearance, the last rule of that id in its place. rules[:unique] have
// distinct ids.
func dedupeRules(rules []*Rule, unique int) []*Rule {
	out := make([]*Rule, 0, len(rules))
	if unique >= len(rules) {
		return append(out, rules...)
	}
	last := make(map[string]int, len(rules)-unique) // id → index of its last rule, for ids seen after the prefix
	for i := unique; i < len(rules); i++ {
		last[rules[i].ID] = i
	}
	var placed map[string]bool // ids of last already placed
	for _, r := range rules {
		j, ok := last[r.ID]
		if !ok {
			out = append(out, r)
			continue
		}
		if placed[r.ID] {
			continue
		}
		if placed == nil {
			placed = make(map[string]bool, len(last))
		}
		placed[r.ID] = true
		out = append(out, rules[j])
	}
	return out
}

// has reports whether a rule of this id is in the set.
func (e *Engine) has(id string) bool {
	for _, r := range e.rules {
		if r.ID == id {
			return true
		}
	}
	return false
}

// Rules returns the rule set in registration order.
func (e *Engine) Rules() []*Rule { return e.rules }

// SeverityOf returns a rule's severity as configured.
func (e *Engine) SeverityOf(r *Rule) Severity {
	if s, ok := e.severity[r.ID]; ok {
		return s
	}
	return r.Severity
}

// Rule returns the rule with the given id, or nil.
func (e *Engine) Rule(id string) *Rule {
	for _, r := range e.rules {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// Decision is the outcome for one command line.
type Decision struct {
	// Verdict is the highest severity among Hits, after Mode is applied.
	Verdict Severity
	// Severity is the highest severity before the mode.
	Severity   Severity
	Mode       Mode
	Hits       []Hit
	ParseError *parse.Error
}

// Decide judges an analysis. It never fails: a problem in the analysis is
// itself a verdict (see fallback.go).
func (e *Engine) Decide(a *parse.Analysis, x *Ctx) (d *Decision) {
	defer func() {
		if r := recover(); r != nil {
			d = e.panicked(a, r) // recover.go
		}
	}()
	if x == nil {
		x = &Ctx{}
	}
	x.a, x.e = a, e
	if x.bnd != nil && x.nested == 0 {
		x.bnd.looked, x.bnd.lstated = nil, nil // a Ctx used again, for another decision, sees the disk anew
	}
	d = &Decision{Mode: e.Mode, ParseError: a.Err}
	if a.Err != nil {
		d.Hits = e.fallback(a)
	} else {
		d.Hits = e.match(a, x)
	}
	d.Hits = e.loopBrake(a, x, d.Hits)
	d.Hits = dedupe(d.Hits)
	for _, h := range d.Hits {
		if h.Severity > d.Severity {
			d.Severity = h.Severity
		}
	}
	d.Verdict = e.Mode.apply(d.Severity)
	return d
}

func (e *Engine) match(a *parse.Analysis, x *Ctx) []Hit {
	var hits []Hit
	var buf [8]*Rule
	for _, c := range a.Commands {
		for _, r := range e.names.lookup(c.Name, buf[:0]) {
			if r.matches(x, c) {
				hits = append(hits, x.bounded(e.hit(r, c.Span, c.Pos), c))
			}
		}
		for _, r := range e.anyName {
			if r.matches(x, c) {
				hits = append(hits, e.hit(r, c.Span, c.Pos))
			}
		}
	}
	for _, dy := range a.Dynamic {
		for _, r := range e.dynamic {
			if r.Dynamic(x, dy) {
				hits = append(hits, e.hit(r, dy.Span, dy.Pos))
			}
		}
	}
	for _, r := range e.script {
		for _, s := range r.scriptSpans(x, a) {
			hits = append(hits, x.boundedScript(e.hit(r, s.Text, s.Pos)))
		}
	}
	return hits
}

// spanMax bounds the text of a span shown to people and stored.
const spanMax = 200

func (e *Engine) hit(r *Rule, span string, pos parse.Pos) Hit {
	sev, ok := e.severity[r.ID]
	if !ok {
		sev = r.Severity
	}
	return Hit{Rule: r, Severity: sev, Span: cleanSpan(span), Pos: pos}
}

// cleanSpan makes a span safe to print on one line: secrets redacted,
// control characters escaped, length bounded.
func cleanSpan(s string) string {
	s = redact.String(s, nil)
	s = strings.ReplaceAll(s, parse.Unknown, "…")
	if len(s) < spanMax && printable(s) {
		return s // the loop below would copy it rune by rune unchanged
	}
	var b strings.Builder
	b.Grow(min(len(s), spanMax+len("…")))
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString("⏎")
		case r < 0x20 || r == 0x7f:
			b.WriteString("�")
		default:
			b.WriteRune(r)
		}
		if b.Len() >= spanMax {
			b.WriteString("…")
			break
		}
	}
	return b.String()
}

// printable reports whether s is valid UTF-8 without control characters:
// text cleanSpan leaves as it is.
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return false
		}
	}
	return utf8.ValidString(s)
}

// dedupe keeps one hit per rule and position, and orders hits by severity
// (highest first), then position, so the first hit is the one to report.
func dedupe(hits []Hit) []Hit {
	if len(hits) < 2 {
		return hits
	}
	type key struct {
		id  string
		pos parse.Pos
	}
	seen := make(map[key]bool, len(hits))
	out := hits[:0]
	for _, h := range hits {
		k := key{h.Rule.ID, h.Pos}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, h)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Severity != out[j].Severity {
			return out[i].Severity > out[j].Severity
		}
		if out[i].Pos.Line != out[j].Pos.Line {
			return out[i].Pos.Line < out[j].Pos.Line
		}
		return out[i].Pos.Col < out[j].Pos.Col
	})
	return out
}
