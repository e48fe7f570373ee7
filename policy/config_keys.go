package policy

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// loader merges layers into one Config.
type loader struct {
	opts LoadOptions
	cfg  *Config
	res  *LoadResult

	// known holds every rule id seen so far: the built-ins, then the user
	// rules of each layer. Built on first use: a load with no file, or a
	// file of plain settings, never needs the catalogue.
	known map[string]*Rule
	// named are the ids exempt and [severity] named, checked once every
	// layer is in (a user exemption may name a rule of the project file).
	named []namedID
}

type namedID struct {
	key  string // "exempt" or "severity"
	id   string
	l    *layer
	path []string
}

func newLoader(o LoadOptions) *loader {
	cfg := DefaultConfig()
	return &loader{opts: o, cfg: cfg, res: &LoadResult{Config: cfg}}
}

func (ld *loader) rules() map[string]*Rule {
	if ld.known == nil {
		ld.known = map[string]*Rule{}
		for _, r := range Builtin() {
			ld.known[r.ID] = r
		}
	}
	return ld.known
}

func (ld *loader) problem(src ConfigSource, line int, format string, args ...any) {
	ld.res.Problems = append(ld.res.Problems, Problem{File: src.Name, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// finish reports ids that name no rule, once each, and drops them: they
// would do nothing, and a typo in an exemption should not go unnoticed.
func (ld *loader) finish() {
	if len(ld.named) == 0 {
		return
	}
	known := ld.rules()
	reported := map[string]bool{}
	for _, n := range ld.named {
		if known[n.id] != nil || reported[n.id] {
			continue
		}
		reported[n.id] = true
		n.l.warn(n.path, "%s: %s names no rule; ignored", n.key, quote(n.id))
	}
	if len(reported) == 0 {
		return
	}
	kept := ld.cfg.Exempt[:0]
	for _, id := range ld.cfg.Exempt {
		if !reported[id] {
			kept = append(kept, id)
		}
	}
	ld.cfg.Exempt = kept
	for id := range reported {
		delete(ld.cfg.Severity, id)
		delete(ld.cfg.origin, "exempt."+id)
		delete(ld.cfg.origin, "severity."+id)
	}
}

// layer applies one file's values.
type layer struct {
	*loader
	src   ConfigSource
	doc   string
	lines keyLines // located on first use
}

func (l *layer) project() bool { return l.src.Layer == LayerProject }

// line is where a key is defined in the file.
func (l *layer) line(path ...string) int {
	if l.lines == nil {
		l.lines = locateKeys(l.doc)
	}
	return l.lines.line(path)
}

func (l *layer) warn(path []string, format string, args ...any) {
	l.problem(l.src, l.line(path...), format, args...)
}

// set records where a value came from.
func (l *layer) set(key string, path ...string) {
	if l.cfg.origin == nil {
		l.cfg.origin = map[string]origin{}
	}
	l.cfg.origin[key] = origin{l, path}
}

// keeping says which value stays when a file's value is refused.
func (l *layer) keeping(key, current string) string {
	if o := l.cfg.OriginOf(key); o.Layer != LayerDefault {
		return fmt.Sprintf("keeping %s from %s", current, o)
	}
	return fmt.Sprintf("keeping the default (%s)", current)
}

// apply walks the top-level keys. Rules come first so that [severity] can
// name a rule the same file defines; problems are sorted by line after.
//
// The document is decoded into plain values and walked here key by key,
// rather than decoded into a struct (with MetaData.Undecoded for unknown
// keys): a struct decode stops at the first wrong type, and then one bad
// key would cost the whole file. Walking, each key is checked, and falls
// back, on its own.
func (l *layer) apply(doc map[string]any) {
	if v, ok := doc["rule"]; ok {
		l.userRules(v)
	}
	keys := make([]string, 0, len(doc))
	for k := range doc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := doc[k]
		switch k {
		case "rule":
		case "mode":
			l.mode(v)
		case "exempt":
			l.exempt(v)
		case "severity":
			l.severity(v)
		case "boundary", "env", "loop", "ledger", "exec", "sandbox", "export":
			l.table(k, v)
		default:
			l.warn([]string{k}, "unknown key %s; ignored", quote(k))
		}
	}
}

// table walks one of the settings tables.
func (l *layer) table(name string, v any) {
	t, ok := v.(map[string]any)
	if !ok {
		l.warn([]string{name}, "%s: want a table, got %s; ignored", name, typeName(v))
		return
	}
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		key := name + "." + k
		path := []string{name, k}
		if l.exportKey(key, path, t[k]) {
			continue
		}
		switch key {
		case "boundary.allow_roots":
			l.allowRoots(path, t[k])
		case "env.strip_credentials":
			l.stripCredentials(path, t[k])
		case "loop.block_after":
			l.blockAfter(path, t[k])
		case "ledger.max_bytes":
			l.ledgerMaxBytes(path, t[k])
		case "ledger.keep":
			l.ledgerKeep(path, t[k])
		case "ledger.durable":
			l.ledgerDurable(path, t[k])
		case "exec.timeout":
			l.execTimeout(path, t[k])
		case "sandbox.mode":
			l.sandboxMode(path, t[k])
		case "sandbox.required":
			l.sandboxRequired(path, t[k])
		case "sandbox.allow_roots":
			l.sandboxAllowRoots(path, t[k])
		case name + ".mode", name + ".exempt":
			// A top-level key written after a [table] line lands in it.
			l.warn(path, "unknown key %s (%s goes before the first [table]); ignored", quote(key), k)
		default:
			l.warn(path, "unknown key %s; ignored", quote(key))
		}
	}
}

func (l *layer) mode(v any) {
	path := []string{"mode"}
	cur := l.cfg.Mode.String()
	if l.project() {
		l.warn(path, "the project file cannot set mode; ignored")
		return
	}
	s, ok := v.(string)
	if !ok {
		l.warn(path, "mode: want a string, got %s; %s", typeName(v), l.keeping("mode", cur))
		return
	}
	m, err := ParseMode(s)
	if err != nil {
		l.warn(path, "mode: %s is not enforce, advise or audit; %s", quote(s), l.keeping("mode", cur))
		return
	}
	l.cfg.Mode = m
	l.set("mode", path...)
}

func (l *layer) exempt(v any) {
	path := []string{"exempt"}
	if l.project() {
		l.warn(path, "the project file cannot exempt rules; ignored")
		return
	}
	for _, id := range l.stringList(path, "exempt", "rule ids", v) {
		if !validID(id) {
			l.warn(path, "exempt: %s is not a rule id; ignored", quote(id))
			continue
		}
		if r := l.rules()[id]; r != nil && r.Family == familyAnalysis {
			l.warn(path, "exempt: %s cannot be exempted: a command the guard could not analyse never passes unnoticed; ignored", id)
			continue
		}
		if !contains(l.cfg.Exempt, id) {
			l.cfg.Exempt = append(l.cfg.Exempt, id)
		}
		l.set("exempt."+id, path...)
		l.named = append(l.named, namedID{"exempt", id, l, path})
	}
}

// familyAnalysis rules are the guard's own verdicts on commands it could
// not analyse (too large, too deep, unparsable): the fail-closed part of
// the contract, which no configuration turns off or below its default.
const familyAnalysis = "analysis"

func (l *layer) severity(v any) {
	t, ok := v.(map[string]any)
	if !ok {
		l.warn([]string{"severity"}, "severity: want a table of rule-id = \"warn\"|\"hold\"|\"deny\", got %s; ignored", typeName(v))
		return
	}
	ids := make([]string, 0, len(t))
	for id := range t {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		l.severityOf(id, t[id])
	}
}

func (l *layer) severityOf(id string, v any) {
	path := []string{"severity", id}
	key := "severity." + id
	if !validID(id) {
		l.warn(path, "severity: %s is not a rule id; ignored", quote(id))
		return
	}
	r := l.rules()[id]
	cur, base := Allow, Allow
	if r != nil {
		cur, base = r.Severity, r.Severity
	}
	if s, ok := l.cfg.Severity[id]; ok {
		cur = s
	}
	s, ok := v.(string)
	if !ok {
		l.warn(path, "%s: want \"warn\", \"hold\" or \"deny\", got %s; %s", key, typeName(v), l.keeping(key, cur.String()))
		return
	}
	sev, err := ParseSeverity(s)
	switch {
	case s == "allow":
		l.warn(path, "%s: a severity cannot be allow (use exempt to silence a rule); %s", key, l.keeping(key, cur.String()))
		return
	case err != nil:
		l.warn(path, "%s: %s is not warn, hold or deny; %s", key, quote(s), l.keeping(key, cur.String()))
		return
	case l.project() && r != nil && sev < cur:
		l.warn(path, "%s: the project file can only raise a severity (%s to %s refused); ignored", key, cur, sev)
		return
	case r != nil && r.Family == familyAnalysis && sev < base:
		l.warn(path, "%s: a command the guard could not analyse is never judged below %s; ignored", key, base)
		return
	}
	l.cfg.Severity[id] = sev
	l.set(key, path...)
	l.named = append(l.named, namedID{"severity", id, l, path})
}

// allowRoots adds write roots. Paths are absolute or start with "~/".
func (l *layer) allowRoots(path []string, v any) {
	if l.project() {
		l.warn(path, "the project file cannot add allow roots; ignored")
		return
	}
	for _, p := range l.stringList(path, "boundary.allow_roots", "paths", v) {
		abs, err := l.rootPath(p)
		if err != nil {
			l.warn(path, "boundary.allow_roots: %s %s; ignored", quote(p), err)
			continue
		}
		if !contains(l.cfg.Boundary.AllowRoots, abs) {
			l.cfg.Boundary.AllowRoots = append(l.cfg.Boundary.AllowRoots, abs)
		}
		l.set("boundary.allow_roots["+abs+"]", path...)
	}
}

// stringList reads key's array of strings (what they are: "paths"),
// warning about a value that is not an array or is too long (all ignored)
// and about each entry that is not a string (that entry ignored).
func (l *layer) stringList(path []string, key, what string, v any) []string {
	list, ok := v.([]any)
	if !ok {
		l.warn(path, "%s: want an array of %s, got %s; ignored", key, what, typeName(v))
		return nil
	}
	if len(list) > maxListLen {
		l.warn(path, "%s: more than %d entries; ignored", key, maxListLen)
		return nil
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			l.warn(path, "%s: want %s, got %s; that entry is ignored", key, what, typeName(e))
			continue
		}
		out = append(out, s)
	}
	return out
}

func (l *layer) rootPath(p string) (string, error) {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if !filepath.IsAbs(l.opts.Home) {
			return "", fmt.Errorf("names the home directory, which is not known")
		}
		p = filepath.Join(l.opts.Home, p[1:])
	}
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("is not an absolute path (nor ~/…)")
	}
	if strings.ContainsRune(p, 0) || len(p) > maxText {
		return "", fmt.Errorf("is not a usable path")
	}
	return filepath.Clean(p), nil
}

func (l *layer) stripCredentials(path []string, v any) {
	l.safetySwitch(path, "env.strip_credentials", "turn scrubbing off", &l.cfg.Env.StripCredentials, v)
}

// safetySwitch sets a boolean that makes the guard safer when true: the
// user layer may set it either way, the project file only turn it on
// (refusing, with a warning, to turn off what it names).
func (l *layer) safetySwitch(path []string, key, off string, cur *bool, v any) {
	b, ok := v.(bool)
	switch {
	case !ok:
		l.warn(path, "%s: want true or false, got %s; %s", key, typeName(v), l.keeping(key, strconv.FormatBool(*cur)))
		return
	case l.project() && *cur && !b:
		l.warn(path, "%s: the project file cannot %s; ignored", key, off)
		return
	case l.project() && !b:
		return // already off: nothing to refuse, nothing to record
	}
	*cur = b
	l.set(key, path...)
}

// Loop brake bounds: 1 would hold every first attempt, so the smallest
// useful value is 2; 0 turns the brake off.
const maxBlockAfter = 1000

func (l *layer) blockAfter(path []string, v any) {
	const key = "loop.block_after"
	cur := l.cfg.Loop.BlockAfter
	n, ok := v.(int64)
	switch {
	case !ok:
		l.warn(path, "%s: want an integer, got %s; %s", key, typeName(v), l.keeping(key, strconv.Itoa(cur)))
		return
	case n < 0 || n == 1 || n > maxBlockAfter:
		l.warn(path, "%s: %d is not 0 (off) or between 2 and %d; %s", key, n, maxBlockAfter, l.keeping(key, strconv.Itoa(cur)))
		return
	case l.project() && n == 0 && cur != 0:
		l.warn(path, "%s: the project file cannot turn the loop brake off; ignored", key)
		return
	case l.project() && cur != 0 && int(n) > cur:
		l.warn(path, "%s: the project file can only lower it (%d to %d refused); ignored", key, cur, n)
		return
	}
	l.cfg.Loop.BlockAfter = int(n)
	l.set(key, path...)
}

// Ledger bounds. The project layer may keep more evidence, never less.
const (
	minLedgerBytes = 64 << 10
	maxLedgerBytes = 1 << 30
	maxLedgerKeep  = 100
)

func (l *layer) ledgerMaxBytes(path []string, v any) {
	const key = "ledger.max_bytes"
	cur := l.cfg.Ledger.MaxBytes
	n, ok := v.(int64)
	switch {
	case !ok:
		l.warn(path, "%s: want an integer, got %s; %s", key, typeName(v), l.keeping(key, strconv.FormatInt(cur, 10)))
		return
	case n < minLedgerBytes || n > maxLedgerBytes:
		l.warn(path, "%s: %d is not between %d and %d; %s", key, n, minLedgerBytes, maxLedgerBytes, l.keeping(key, strconv.FormatInt(cur, 10)))
		return
	case l.project() && n < cur:
		l.warn(path, "%s: the project file can only keep more evidence (%d to %d refused); ignored", key, cur, n)
		return
	}
	l.cfg.Ledger.MaxBytes = n
	l.set(key, path...)
}

func (l *layer) ledgerKeep(path []string, v any) {
	const key = "ledger.keep"
	cur := l.cfg.Ledger.Keep
	n, ok := v.(int64)
	switch {
	case !ok:
		l.warn(path, "%s: want an integer, got %s; %s", key, typeName(v), l.keeping(key, strconv.Itoa(cur)))
		return
	case n < 1 || n > maxLedgerKeep:
		l.warn(path, "%s: %d is not between 1 and %d; %s", key, n, maxLedgerKeep, l.keeping(key, strconv.Itoa(cur)))
		return
	case l.project() && int(n) < cur:
		l.warn(path, "%s: the project file can only keep more evidence (%d to %d refused); ignored", key, cur, n)
		return
	}
	l.cfg.Ledger.Keep = int(n)
	l.set(key, path...)
}

func (l *layer) ledgerDurable(path []string, v any) {
	l.safetySwitch(path, "ledger.durable", "turn durable writes off", &l.cfg.Ledger.Durable, v)
}

func (l *layer) execTimeout(path []string, v any) {
	const key = "exec.timeout"
	cur := l.cfg.Exec.Timeout
	s, ok := v.(string)
	if !ok {
		l.warn(path, "%s: want a duration such as \"10m\", got %s; %s", key, typeName(v), l.keeping(key, durationText(cur)))
		return
	}
	d, err := time.ParseDuration(s)
	switch {
	case err != nil || d < 0:
		l.warn(path, "%s: %s is not a duration such as \"90s\" or \"10m\"; %s", key, quote(s), l.keeping(key, durationText(cur)))
		return
	case l.project() && d == 0 && cur != 0:
		l.warn(path, "%s: the project file cannot remove the timeout; ignored", key)
		return
	case l.project() && cur != 0 && d > cur:
		l.warn(path, "%s: the project file can only shorten it (%s to %s refused); ignored", key, durationText(cur), durationText(d))
		return
	}
	l.cfg.Exec.Timeout = d
	l.set(key, path...)
}

func durationText(d time.Duration) string {
	if d == 0 {
		return "none"
	}
	return d.String()
}

// Bounds on what one file may hold, so a huge or hostile file costs little.
const (
	maxListLen = 1024
	maxText    = 4096 // a pattern, an example, a path
	maxIDLen   = 64
)

// validID reports whether s is a kebab-case rule id.
func validID(s string) bool {
	if s == "" || len(s) > maxIDLen || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// typeName names a decoded TOML value's type for messages.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []map[string]any:
		return "an array of tables"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return "a date-time"
}

// quote shows a value from a file in a message: quoted, control
// characters escaped, bounded.
func quote(s string) string {
	const max = 64
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut]) + "…"
	}
	return strconv.Quote(s)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
