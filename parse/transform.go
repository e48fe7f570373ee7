package parse

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// The expand package returns some operators unchanged or differently
// from bash (${x@P} as x, ${x@Q} with its own quoting, ${x/#p/r} without
// the anchor, & in a replacement as text), and a wrong known value is
// worse than an unknown one: it skips the checks that hold or warn. The
// operators below are worked out here, as bash does them, on scalar
// values; whatever is not modelled exactly is unknown.

// transform expands ${X@OP} and ${X/p/r} of a scalar, reporting whether
// it handled the expansion.
func (e *evaluator) transform(pe *syntax.ParamExp, q quoteMode) bool {
	other := pe.Exp != nil && pe.Exp.Op == syntax.OtherParamOps
	if !other && pe.Repl == nil {
		return false
	}
	name := pe.Param.Value
	if pe.Excl || pe.Length || pe.Slice != nil || pe.Names != 0 || pe.NestedParam != nil || pe.Width || pe.IsSet {
		e.unknown()
		return true
	}
	if pe.Index != nil || name == "@" || name == "*" {
		if other || replUnsafe(pe.Repl) {
			e.unknown() // arrays: the expand package's forms, safe ones only
			return true
		}
		return false
	}
	v := e.fr.lookup(name)
	e.feeders = append(e.feeders, v.feeders...)
	val, set := v.value()
	if !v.known || hasUnknown(val) || v.pattern || v.v.Kind != expand.String && v.v.Set {
		e.unknown()
		return true
	}
	var out string
	var ok bool
	if other {
		out, ok = e.atOp(pe.Exp.Word.Lit(), name, val, set, v)
	} else {
		out, ok = e.replace(pe.Repl, val)
	}
	if !ok {
		e.unknown()
		return true
	}
	e.expansion(out, q, false)
	return true
}

// atOp is ${X@OP} of a scalar value.
func (e *evaluator) atOp(op, name, val string, set bool, v *variable) (string, bool) {
	if !isASCII(val) {
		return "", false // quoting and case depend on the locale
	}
	switch op {
	case "Q", "K":
		if !set {
			return "", true
		}
		return bashQuote(val)
	case "E":
		return ansiC(val), true
	case "U":
		return strings.ToUpper(val), true
	case "L":
		return strings.ToLower(val), true
	case "u":
		if val == "" {
			return "", true
		}
		return strings.ToUpper(val[:1]) + val[1:], true
	case "a":
		if e.fr.st.flagged[name] {
			return "", false
		}
		if a := e.fr.st.attrsOf(name); a != "?" && !v.exported {
			return attrLetters(a), true
		}
	case "A":
		if e.fr.st.flagged[name] {
			return "", false
		}
		if a := e.fr.st.attrsOf(name); set && a != "" && a != "?" && !v.exported {
			quoted, ok := bashQuote(val)
			return "declare -" + attrLetters(a) + " " + name + "=" + quoted, ok
		}
		if set && e.fr.st.attrsOf(name) == "" && !v.exported {
			quoted, ok := bashQuote(val)
			return name + "=" + quoted, ok
		}
	case "P":
		return e.prompt(val)
	}
	return "", false
}

// bashQuote quotes s as ${X@Q} does: in single quotes, an embedded quote
// as '\”. Control characters make bash switch to $'…', not modelled.
func bashQuote(s string) (string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return "", false
		}
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'", true
}

// prompt is ${X@P}: the value expanded as a prompt string, which decodes
// backslash escapes (\u, \w …, not modelled) and then expands
// parameters, command substitutions and arithmetic as in double quotes.
// The substitutions are analysed: ${X@P} runs them.
func (e *evaluator) prompt(val string) (string, bool) {
	if strings.ContainsAny(val, `\!`) {
		if strings.Contains(val, "$(") || strings.Contains(val, "`") {
			e.fr.promptCode(val, e)
		}
		return "", false
	}
	if !strings.ContainsAny(val, "$`") {
		return val, true
	}
	w, err := syntax.NewParser().Document(strings.NewReader(val))
	if err != nil {
		return "", false
	}
	sub := &evaluator{fr: e.fr}
	for _, p := range w.Parts {
		sub.part(p, dquoted, false, true)
	}
	e.feeders = append(e.feeders, sub.feeders...)
	out := string(sub.cur.b)
	return out, !hasUnknown(out)
}

// promptCode analyses the substitutions of a prompt string whose value is
// otherwise not modelled.
func (fr *frame) promptCode(val string, e *evaluator) {
	w, err := syntax.NewParser().Document(strings.NewReader(strings.ReplaceAll(val, `\`, `\\`)))
	if err != nil {
		return
	}
	fr.walkSubsts(w, e)
}

// replUnsafe reports a replacement the expand package gets wrong: an
// anchored pattern, or & and backslashes in the replacement (bash 5.2's
// patsub_replacement puts the match there; older versions do not).
func replUnsafe(r *syntax.Replace) bool {
	if r == nil {
		return false
	}
	if r.Orig != nil && len(r.Orig.Parts) > 0 {
		if l, ok := r.Orig.Parts[0].(*syntax.Lit); ok && (strings.HasPrefix(l.Value, "#") || strings.HasPrefix(l.Value, "%")) {
			return true
		}
	}
	return r.With != nil && strings.ContainsAny(wordText(r.With), `&\`)
}

// wordText is the source text of a word's literal and quoted parts.
func wordText(w *syntax.Word) string {
	var b strings.Builder
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Lit:
			b.WriteString(n.Value)
		case *syntax.SglQuoted:
			b.WriteString(n.Value)
		}
		return true
	})
	return b.String()
}

// replace is ${X/p/r}, ${X//p/r}, ${X/#p/r} and ${X/%p/r} of a value:
// the longest match, leftmost (or anchored). A pattern that can match
// the empty string, extended globs and & or backslashes in the
// replacement are not modelled.
func (e *evaluator) replace(r *syntax.Replace, val string) (string, bool) {
	if r.With != nil && strings.ContainsAny(wordText(r.With), `&\`) {
		return "", false
	}
	if r.Orig == nil {
		return val, true // ${X/} and ${X//}: no pattern, the value as it is
	}
	orig := *r.Orig
	anchor := byte(0)
	if len(orig.Parts) > 0 {
		if l, ok := orig.Parts[0].(*syntax.Lit); ok && l.Value != "" && (l.Value[0] == '#' || l.Value[0] == '%') {
			anchor = l.Value[0]
			parts := append([]syntax.WordPart{&syntax.Lit{Value: l.Value[1:]}}, orig.Parts[1:]...)
			orig.Parts = parts
		}
	}
	env := &trackEnv{fr: e.fr}
	cfg := &expand.Config{Env: env, CmdSubst: noCmdSubst, ProcSubst: noProcSubst}
	pat, err := expand.Pattern(cfg, &orig)
	if err != nil || env.unknown || strings.ContainsAny(wordText(&orig), "()") {
		return "", false
	}
	with := ""
	if r.With != nil {
		with, err = expand.Literal(cfg, r.With)
		if err != nil || env.unknown {
			return "", false
		}
	}
	e.feeders = append(e.feeders, env.feeders...)
	if pat == "" {
		return val, true
	}
	expr, err := pattern.Regexp(pat, 0)
	if err != nil {
		return "", false
	}
	switch anchor {
	case '#':
		expr = "^(?:" + expr + ")"
	case '%':
		expr = "(?:" + expr + ")$"
	}
	rx, err := regexp.Compile("(?s)" + expr)
	if err != nil || rx.MatchString("") {
		return "", false
	}
	rx.Longest()
	if r.All && anchor == 0 {
		return rx.ReplaceAllLiteralString(val, with), true
	}
	loc := rx.FindStringIndex(val)
	if loc == nil {
		return val, true
	}
	return val[:loc[0]] + with + val[loc[1]:], true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// attrLetters lists value attributes in the order ${X@a} prints them
// (bash: i before c, l, u).
func attrLetters(a string) string {
	var b strings.Builder
	for _, f := range "iclu" {
		if strings.ContainsRune(a, f) {
			b.WriteRune(f)
		}
	}
	return b.String()
}
