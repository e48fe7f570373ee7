package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// User rules ([[rule]] in a configuration file) are checked the way the
// built-ins are: against the facts of each command, never the raw line.
// A rule names a program (after wrapper peeling, so `sudo psql` is psql),
// a pattern, or both. The pattern is an RE2 expression matched against
// the command's text as CommandText renders it, so a heredoc body written
// to a file or a commit message that mentions the pattern does not fire
// it, while the same text run through bash -c, eval or a pipe to sh does
// (the nested command is a command of its own).

const (
	maxRules      = 256 // per file
	maxExamples   = 32  // per rule, of each kind
	maxPrograms   = 16
	maxRuleString = 300 // message, hint
	familyUser    = "user"
)

// userRules reads the [[rule]] tables of a layer.
func (l *layer) userRules(v any) {
	var tables []any
	switch t := v.(type) {
	case []map[string]any:
		for _, m := range t {
			tables = append(tables, m)
		}
	case []any:
		tables = t
	default:
		l.warn([]string{"rule"}, "rule: want [[rule]] tables, got %s; ignored", typeName(v))
		return
	}
	if len(tables) > maxRules {
		l.warn([]string{"rule"}, "rule: more than %d rules in one file; only the first %d are read", maxRules, maxRules)
		tables = tables[:maxRules]
	}
	for i, t := range tables {
		l.userRule(i, t)
	}
}

// ruleSpec is a [[rule]] table as read.
type ruleSpec struct {
	id, pattern, message, hint string
	programs                   []string
	severity                   Severity
	examples, notExamples      []string
}

// ruleReader collects one table's fields and its problems.
type ruleReader struct {
	l    *layer
	path []string
	name string // how messages name the rule
	bad  bool
}

func (rr *ruleReader) fail(key, format string, args ...any) {
	rr.bad = true
	p := rr.path
	if key != "" {
		p = append(append([]string(nil), p...), key)
	}
	rr.l.warn(p, "%s: %s; the rule is not loaded", rr.name, fmt.Sprintf(format, args...))
}

// userRule reads one [[rule]] table. A rule with any problem is not
// loaded at all: a rule is one unit, and half of one (a pattern lost to a
// misspelt key) would match what its author never meant.
func (l *layer) userRule(i int, v any) {
	rr := &ruleReader{l: l, path: []string{"rule", "#" + strconv.Itoa(i)}, name: "rule #" + strconv.Itoa(i+1)}
	m, ok := v.(map[string]any)
	if !ok {
		rr.fail("", "want a table, got %s", typeName(v))
		return
	}
	spec := rr.read(m)
	if rr.bad {
		return
	}
	r, err := spec.compile()
	if err != nil {
		rr.fail("pattern", "%s", err)
		return
	}
	if prev := l.rules()[spec.id]; prev != nil {
		if prev.Family != familyUser {
			rr.fail("id", "%s is a built-in rule's id; a user rule cannot replace it (use [severity] or exempt)", quote(spec.id))
		} else {
			rr.fail("id", "%s is already defined at %s", quote(spec.id), l.cfg.OriginOf("rule."+spec.id))
		}
		return
	}
	if msg := l.checkExamples(r); msg != "" {
		key := "examples"
		if strings.HasPrefix(msg, "not_example") {
			key = "not_examples"
		}
		rr.fail(key, "%s", msg)
		return
	}
	l.cfg.Rules = append(l.cfg.Rules, r)
	if spec.pattern != "" {
		if l.cfg.patterns == nil {
			l.cfg.patterns = map[*Rule]string{}
		}
		l.cfg.patterns[r] = spec.pattern
	}
	l.rules()[r.ID] = r
	l.set("rule."+r.ID, rr.path...)
}

// read takes the fields of a rule table.
func (rr *ruleReader) read(m map[string]any) *ruleSpec {
	spec := &ruleSpec{severity: Hold}
	if id, ok := m["id"].(string); ok && validID(id) {
		spec.id = id
		rr.name = "rule " + quote(id)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := m[k]
		switch k {
		case "id":
			if s, ok := v.(string); !ok || !validID(s) {
				rr.fail(k, "id must be a kebab-case string such as \"no-prod-psql\"")
			}
		case "command":
			spec.programs = rr.programs(v)
		case "pattern":
			spec.pattern = rr.text(k, v, maxText)
		case "severity":
			s, ok := v.(string)
			sev, err := ParseSeverity(s)
			if !ok || err != nil || sev == Allow {
				rr.fail(k, "severity must be \"warn\", \"hold\" or \"deny\"")
			}
			spec.severity = sev
		case "message":
			spec.message = cleanText(rr.text(k, v, maxRuleString*4), maxRuleString)
		case "hint":
			spec.hint = cleanText(rr.text(k, v, maxRuleString*4), maxRuleString)
		case "examples":
			spec.examples = rr.list(k, v)
		case "not_examples":
			spec.notExamples = rr.list(k, v)
		default:
			rr.fail(k, "unknown key %s", quote(k))
		}
	}
	if _, ok := m["id"]; !ok {
		rr.fail("", "id is required")
	}
	if len(spec.programs) == 0 && spec.pattern == "" && !rr.bad {
		rr.fail("", "a rule needs a command, a pattern or both")
	}
	return spec
}

func (rr *ruleReader) text(key string, v any, max int) string {
	s, ok := v.(string)
	switch {
	case !ok:
		rr.fail(key, "%s must be a string, got %s", key, typeName(v))
	case len(s) > max:
		rr.fail(key, "%s is longer than %d bytes", key, max)
	default:
		return s
	}
	return ""
}

func (rr *ruleReader) list(key string, v any) []string {
	items, ok := v.([]any)
	if !ok {
		rr.fail(key, "%s must be an array of command lines, got %s", key, typeName(v))
		return nil
	}
	if len(items) > maxExamples {
		rr.fail(key, "%s has more than %d entries", key, maxExamples)
		return nil
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s := rr.text(key, it, maxText)
		if rr.bad {
			return nil
		}
		out = append(out, s)
	}
	return out
}

// programs reads command: one program name or an array of them. A path
// counts by its last element, as the analysis names programs.
func (rr *ruleReader) programs(v any) []string {
	var names []string
	switch t := v.(type) {
	case string:
		names = []string{t}
	case []any:
		if len(t) > maxPrograms {
			rr.fail("command", "command has more than %d names", maxPrograms)
			return nil
		}
		for _, e := range t {
			s, ok := e.(string)
			if !ok {
				rr.fail("command", "command must be a program name or an array of them")
				return nil
			}
			names = append(names, s)
		}
	default:
		rr.fail("command", "command must be a program name or an array of them, got %s", typeName(v))
		return nil
	}
	out := names[:0]
	for _, n := range names {
		n = n[strings.LastIndexByte(n, '/')+1:]
		if n == "" || len(n) > 255 || strings.ContainsAny(n, " \t\n\x00") {
			rr.fail("command", "%s is not a program name", quote(n))
			return nil
		}
		out = append(out, n)
	}
	return out
}

// cleanText makes text from a file fit a one-line message.
func cleanText(s string, max int) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(s) {
		if r < 0x20 || r == 0x7f {
			r = ' '
		}
		if b.Len() >= max {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

// compile turns a spec into a rule.
func (s *ruleSpec) compile() (*Rule, error) {
	var re *regexp.Regexp
	if s.pattern != "" {
		var err error
		re, err = regexp.Compile(s.pattern)
		if err != nil {
			return nil, fmt.Errorf("not a valid RE2 pattern (%s)", oneLine(strings.TrimPrefix(err.Error(), "error parsing regexp: ")))
		}
	}
	r := &Rule{
		ID: s.id, Family: familyUser, Severity: s.severity,
		Message: s.message, Hint: s.hint,
		Examples: s.examples, NotExamples: s.notExamples,
		Programs: s.programs,
		Command:  userMatch(re, len(s.programs) > 0),
		Raw:      s.rawPattern(),
	}
	if r.Message == "" {
		r.Message = "matches the user rule " + s.id
	}
	if r.Hint == "" {
		r.Hint = "ask the user to run it, or find another way"
	}
	return r, nil
}

// rawPattern is what the rule looks for in a script that cannot be parsed
// (SPEC §3: then every pattern scans the raw text, and any hit holds).
func (s *ruleSpec) rawPattern() string {
	if s.pattern != "" {
		return s.pattern
	}
	quoted := make([]string, len(s.programs))
	for i, p := range s.programs {
		quoted[i] = regexp.QuoteMeta(p)
	}
	return `(^|[^[:alnum:]_.-])(` + strings.Join(quoted, "|") + `)([^[:alnum:]_.-]|$)`
}

// userMatch is a user rule's test of one command. With a program named,
// the pattern also sees the data the script feeds the command's standard
// input (a heredoc, a here-string, echo … |): for `psql <<EOF` the SQL is
// what the rule is about. Without one it does not, or every heredoc
// written to a file would be a candidate.
func userMatch(re *regexp.Regexp, withStdin bool) func(*Ctx, *parse.Command) bool {
	return func(_ *Ctx, c *parse.Command) bool {
		if re == nil {
			return true
		}
		if re.MatchString(CommandText(c)) {
			return true
		}
		return withStdin && c.Stdin != nil && c.Stdin.Text != "" &&
			re.MatchString(strings.ReplaceAll(c.Stdin.Text, parse.Unknown, "…"))
	}
}

// checkExamples runs a rule's examples through the real parser: every
// example must hit the rule and no counter-example may. It returns "" when
// they pass, else what failed. A rule whose examples passed before, with
// the same guard binary, is not checked again (see ExampleCache).
func (l *layer) checkExamples(r *Rule) string {
	if len(r.Examples)+len(r.NotExamples) == 0 {
		return ""
	}
	key := exampleKey(r)
	c := l.opts.Checked
	if c != nil && c.Passed(key) {
		return ""
	}
	msg := RuleExamplesFail(r)
	if msg == "" && c != nil {
		c.Remember(key)
	}
	return msg
}

// RuleExamplesFail checks a rule's examples and counter-examples through
// the parser and the engine, alone; it returns "" when all pass.
func RuleExamplesFail(r *Rule) string {
	e := NewEngine([]*Rule{r})
	for _, ex := range r.Examples {
		hit, err := exampleHits(e, r, ex)
		switch {
		case err != "":
			return fmt.Sprintf("example %s cannot be parsed (%s)", quote(ex), err)
		case !hit:
			return fmt.Sprintf("example %s does not match", quote(ex))
		}
	}
	for _, ex := range r.NotExamples {
		hit, err := exampleHits(e, r, ex)
		switch {
		case err != "":
			return fmt.Sprintf("not_example %s cannot be parsed (%s)", quote(ex), err)
		case hit:
			return fmt.Sprintf("not_example %s matches", quote(ex))
		}
	}
	return ""
}

// The world examples are judged in: fixed, so a rule means the same on
// every machine.
const (
	exampleHome    = "/home/user"
	exampleProject = "/home/user/project"
)

func exampleHits(e *Engine, r *Rule, script string) (bool, string) {
	env := map[string]string{"HOME": exampleHome, "PWD": exampleProject, "USER": "user"}
	a := parse.Analyze(script, parse.Options{Env: env, Dir: exampleProject})
	if a.Err != nil {
		return false, oneLine(a.Err.Error())
	}
	d := e.Decide(a, &Ctx{Cwd: exampleProject, Project: exampleProject, Home: exampleHome, Env: env})
	for _, h := range d.Hits {
		if h.Rule == r {
			return true, ""
		}
	}
	return false, ""
}

// exampleKey identifies what an example check depends on: the programs,
// the pattern and the examples (not the severity or the words).
func exampleKey(r *Rule) string {
	h := sha256.New()
	for _, part := range [][]string{r.Programs, {r.Raw}, r.Examples, r.NotExamples} {
		for _, s := range part {
			h.Write([]byte(s))
			h.Write([]byte{0})
		}
		h.Write([]byte{1})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// CommandText renders a command for user-rule patterns: the program name
// and its arguments, each shell-quoted when it needs to be ('a b'), parts
// that are not known statically as "…". Arguments that are only data are
// left out: what echo and printf print, the message of git commit, tag,
// merge, notes and stash (-m), and the pattern of grep and rg.
func CommandText(c *parse.Command) string {
	var b strings.Builder
	writeWord(&b, c.Name)
	for _, a := range dataStripped(c) {
		b.WriteByte(' ')
		writeWord(&b, a)
	}
	return b.String()
}

func writeWord(b *strings.Builder, s string) {
	s = strings.ReplaceAll(s, parse.Unknown, "…")
	if s != "" && plainWord(s) {
		b.WriteString(s)
		return
	}
	b.WriteByte('\'')
	b.WriteString(strings.ReplaceAll(s, "'", `'\''`))
	b.WriteByte('\'')
}

// plainWord reports whether a word reads the same unquoted.
func plainWord(s string) bool {
	for _, r := range s {
		switch {
		case r == '…':
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("_@%+=:,./-", r):
		default:
			return false
		}
	}
	return true
}

// dataStripped returns the argument values of c without those that are
// only data.
func dataStripped(c *parse.Command) []string {
	args := c.Argv()
	switch c.Name {
	case "echo", "printf":
		return nil
	case "git":
		return stripGitMessage(args)
	case "grep", "egrep", "fgrep", "zgrep":
		return stripPattern(args, "ABCDdm")
	case "rg":
		return stripPattern(args, "ABCEgjmMrtT")
	}
	return args
}

// gitMessageCommands take -m MESSAGE.
var gitMessageCommands = map[string]bool{"commit": true, "tag": true, "merge": true, "notes": true, "stash": true}

func stripGitMessage(args []string) []string {
	sub := -1
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" {
			i++
			continue
		}
		if !strings.HasPrefix(a, "-") {
			sub = i
			break
		}
	}
	if sub < 0 || !gitMessageCommands[args[sub]] {
		return args
	}
	out := append([]string(nil), args[:sub+1]...)
	for i := sub + 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(out, args[i:]...)
		case a == "--message" || a == "-m":
			out = append(out, a)
			i++ // the message
		case strings.HasPrefix(a, "--message="):
			out = append(out, "--message=")
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			kept, next, _ := cluster(a, "m", "FCct")
			out = append(out, kept)
			i += skipNext(next, args, i, &out)
		default:
			out = append(out, a)
		}
	}
	return out
}

// What follows a short-option cluster.
const (
	nextFree  = iota // the next argument is not the cluster's
	nextData         // it is the value of a data option: drop it
	nextValue        // it is the value of another option: keep it
)

// cluster reads a short-option cluster such as "-am" or "-amMSG". When a
// data letter appears (git's -m, grep's -e), its value — the rest of the
// cluster or the next argument — is data and is dropped. A letter in
// valued takes a value that is not data, which ends the cluster too. It
// returns what to keep, what the next argument is, and the letter that
// took a value (0 when none did).
func cluster(a, data, valued string) (string, int, byte) {
	for j := 1; j < len(a); j++ {
		c := a[j]
		isData := strings.IndexByte(data, c) >= 0
		if !isData && strings.IndexByte(valued, c) < 0 {
			continue
		}
		last := j == len(a)-1
		switch {
		case isData && last:
			return a, nextData, c
		case isData:
			return a[:j+1], nextFree, c
		case last:
			return a, nextValue, c
		}
		return a, nextFree, c
	}
	return a, nextFree, 0
}

// skipNext applies a cluster's verdict on the argument after it at i and
// returns how many arguments it consumed.
func skipNext(next int, args []string, i int, out *[]string) int {
	if next == nextFree || i+1 >= len(args) {
		return 0
	}
	if next == nextValue {
		*out = append(*out, args[i+1])
	}
	return 1
}

// stripPattern drops a grep-like program's pattern: the values of -e and
// --regexp, or, when neither -e nor -f is given, the first operand.
// valued lists the short options that take a value of their own.
func stripPattern(args []string, valued string) []string {
	valued += "f"
	seen := false // the pattern is given by an option, or was dropped
	for _, a := range args {
		if a == "--" {
			break
		}
		switch {
		case a == "-e" || a == "--regexp" || strings.HasPrefix(a, "--regexp=") ||
			a == "--file" || strings.HasPrefix(a, "--file="):
			seen = true
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			if _, _, c := cluster(a, "e", valued); c == 'e' || c == 'f' {
				seen = true
			}
		}
	}
	out := make([]string, 0, len(args))
	operands := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if operands || a == "-" || !strings.HasPrefix(a, "-") {
			if !seen {
				seen = true // the first operand is the pattern
				continue
			}
			out = append(out, a)
			continue
		}
		switch {
		case a == "--":
			operands = true
			out = append(out, a)
		case a == "-e" || a == "--regexp":
			out = append(out, a)
			i++
		case strings.HasPrefix(a, "--regexp="):
			out = append(out, "--regexp=")
		case strings.HasPrefix(a, "--"):
			out = append(out, a)
		default:
			kept, next, _ := cluster(a, "e", valued)
			out = append(out, kept)
			i += skipNext(next, args, i, &out)
		}
	}
	return out
}
