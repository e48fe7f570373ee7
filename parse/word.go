package parse

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// arg is one field of an expanded command line, with the word it came
// from (nil for fields made up by the analysis, such as argv mode).
type arg struct {
	Word
	syn *syntax.Word
	// whole is set when the field is the entire source word, with no
	// splitting or brace expansion: its text can be mapped back to it.
	whole bool
	// feeders are the commands of the substitutions in the word.
	feeders []*Command
	// supplied is set when every unknown part of the word is an argument
	// a sink splices in at run time (xargs -I R, find -exec {}).
	supplied bool
}

// quoteMode is how a word part is being expanded.
type quoteMode uint8

const (
	unquoted quoteMode = iota
	dquoted            // inside "…"
	heredoc            // an unquoted heredoc body
)

// fieldBuf accumulates one field.
type fieldBuf struct {
	b         []byte
	dyn, glob bool
	// quoted is set once a quoted part joined the field: "" and '' make a
	// field even when empty.
	quoted bool
	// pattern is set when a value standing for a matched filename (a
	// for-loop variable over a glob) joined the field.
	pattern bool
}

func (f *fieldBuf) exists() bool { return len(f.b) > 0 || f.quoted || f.dyn }

// evaluator expands the parts of words into fields. It is the analysis'
// own expander: quote removal, escapes, ANSI-C quotes and tilde are done
// here; parameters are resolved against the known state, delegating the
// operators (${X:-d}, ${X#p}, …) to mvdan.cc/sh/v3/expand on a single
// part; substitutions are analysed as code and give unknown parts.
type evaluator struct {
	fr     *frame
	split  bool // perform field splitting of unquoted expansions
	fields []fieldBuf
	cur    fieldBuf
	// feeders collects the commands run by substitutions in the words.
	feeders []*Command
	// subst is set when a substitution was seen.
	subst bool
}

// maxFields bounds the fields one word may expand to ({1..100000}).
const maxFields = 1024

// expandArgs expands the words of a command line into fields, as bash
// does for arguments: brace expansion, tilde, parameters, substitutions,
// splitting of unquoted expansions, quote removal. Globs are not matched:
// a field with unquoted pattern characters is marked Glob.
func (fr *frame) expandArgs(words []*syntax.Word) (args []arg, feeders []*Command) {
	e := &evaluator{fr: fr, split: true}
	for _, w := range words {
		args = e.expandArg(w, args)
	}
	return args, e.feeders
}

func (e *evaluator) expandArg(w *syntax.Word, args []arg) []arg {
	start, nf := len(args), len(e.feeders)
	args = e.expandArg1(w, args)
	if len(e.feeders) > nf {
		for i := start; i < len(args); i++ {
			args[i].feeders = e.feeders[nf:]
		}
	}
	return args
}

func (e *evaluator) expandArg1(w *syntax.Word, args []arg) []arg {
	pos := e.fr.pos.of(w.Pos())
	if len(w.Parts) == 1 {
		// The common case, a plain word, needs no expansion and no copy.
		if l, ok := w.Parts[0].(*syntax.Lit); ok && plainLit(l.Value) {
			return append(args, arg{Word: Word{Value: l.Value, Pos: pos}, syn: w, whole: true})
		}
	}
	if hasBrace(w) {
		cp := *w // SplitBraces replaces Parts: never touch the tree's word
		if syntax.SplitBraces(&cp) {
			return e.expandBraces(w, &cp, pos, args)
		}
	}
	fs := e.word(w.Parts)
	if len(fs) == 1 && fs[0].glob {
		if matched, ok := e.glob(w, fs[0], pos); ok {
			return append(args, matched...)
		}
	}
	for _, f := range fs {
		args = append(args, arg{Word: f.word(pos), syn: w, whole: len(fs) == 1})
	}
	if len(fs) == 1 {
		e.fr.markMade(w, &args[len(args)-1].Word)
		e.fr.markAssumed(w, &args[len(args)-1].Word)
		e.fr.markAlts(w, &args[len(args)-1].Word)
	}
	return args
}

// expandBraces expands cp, w with its braces split, into fields. It is a
// function of its own because the loop body over the iterator is a
// closure: the variables it shares move to the heap, and in expandArg1
// they did so for every word, braces or not.
func (e *evaluator) expandBraces(w, cp *syntax.Word, pos Pos, args []arg) []arg {
	n := 0
	for bw, err := range expand.BracesSeq(&expand.Config{}, cp) {
		if err != nil || n >= maxFields {
			args = append(args, arg{Word: Word{Value: Unknown, Dynamic: true, Pos: pos}, syn: w})
			break
		}
		n++
		for _, f := range e.word(bw.Parts) {
			args = append(args, arg{Word: f.word(pos), syn: w})
		}
	}
	return args
}

func hasBrace(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.IndexByte(l.Value, '{') >= 0 {
			return true
		}
	}
	return false
}

func (f *fieldBuf) word(pos Pos) Word {
	// An Unknown may come from literal text too (a byte that is not
	// UTF-8), not only from an expansion.
	return Word{Value: string(f.b), Dynamic: f.dyn || hasUnknown(string(f.b)), Glob: f.glob || f.pattern, Pos: pos}
}

// word expands the parts of one word into fields.
func (e *evaluator) word(parts []syntax.WordPart) []fieldBuf {
	parts = mergeLits(parts)
	e.fields, e.cur = nil, fieldBuf{}
	for i, p := range parts {
		e.part(p, unquoted, i == 0, len(parts) > 1)
	}
	if e.cur.exists() {
		e.fields = append(e.fields, e.cur)
	}
	out := e.fields
	e.fields, e.cur = nil, fieldBuf{}
	return out
}

// single expands a word where bash does no splitting and no brace
// expansion: assignment values, redirection targets, case words,
// here-strings. assign turns on tilde expansion after = and : as in
// assignments.
func (fr *frame) single(w *syntax.Word, assign bool) (Word, []*Command) {
	if w == nil {
		return Word{}, nil
	}
	e := &evaluator{fr: fr}
	for i, p := range w.Parts {
		if assign && i == 0 {
			if l, ok := p.(*syntax.Lit); ok {
				e.assignLit(l.Value, len(w.Parts) > 1)
				continue
			}
		}
		e.part(p, unquoted, i == 0, len(w.Parts) > 1)
	}
	if len(e.fields) > 0 { // only "$@" splits here; bash joins with spaces
		var joined fieldBuf
		for _, f := range append(e.fields, e.cur) {
			if len(joined.b) > 0 || joined.quoted {
				joined.b = append(joined.b, ' ')
			}
			joined.b = append(joined.b, f.b...)
			joined.quoted = true
			joined.dyn = joined.dyn || f.dyn
			joined.glob = joined.glob || f.glob
		}
		e.cur = joined
	}
	wd := e.cur.word(fr.pos.of(w.Pos()))
	fr.markMade(w, &wd)
	fr.markAssumed(w, &wd)
	fr.markAlts(w, &wd)
	return wd, e.feeders
}

// document expands a heredoc body with an unquoted delimiter: parameters
// and substitutions are live, backslash escapes only $ ` \ and newline.
func (fr *frame) document(w *syntax.Word) (string, []*Command) {
	e := &evaluator{fr: fr}
	for _, p := range w.Parts {
		e.part(p, heredoc, false, true)
	}
	return string(e.cur.b), e.feeders
}

// part expands one word part into the current field.
func (e *evaluator) part(p syntax.WordPart, q quoteMode, first, more bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		e.lit(p.Value, q, first, more)
	case *syntax.SglQuoted:
		e.cur.quoted = true
		v := p.Value
		if p.Dollar {
			v = ansiC(v)
		}
		e.cur.b = append(e.cur.b, v...)
	case *syntax.DblQuoted:
		e.cur.quoted = true
		for _, dp := range mergeLits(p.Parts) {
			e.part(dp, dquoted, false, true)
		}
	case *syntax.ParamExp:
		e.param(p, q)
	case *syntax.CmdSubst:
		out, known := e.fr.cmdSubst(p, e)
		if !known {
			e.unknown()
			return
		}
		e.expansion(out, q, false)
	case *syntax.ArithmExp:
		if v, ok := e.fr.arith(p.X, e); ok {
			e.cur.b = append(e.cur.b, v...)
		} else {
			e.unknown()
		}
	case *syntax.ProcSubst:
		// bash passes a path to a pipe, /dev/fd/63 or the like: its
		// number is not known, but it names a descriptor, not a file.
		e.fr.procSubst(p, e)
		e.cur.b = append(e.cur.b, "/dev/fd/"...)
		e.unknown()
	case *syntax.ExtGlob:
		e.cur.glob = true
		e.cur.b = append(e.cur.b, p.Op.String()...)
		e.cur.b = append(e.cur.b, p.Pattern.Value...)
		e.cur.b = append(e.cur.b, ')')
	case *syntax.BraceExp:
		// Only produced by SplitBraces, which expandArg resolves first.
		e.unknown()
	default:
		e.unknown()
	}
}

func (e *evaluator) unknown() {
	e.cur.b = append(e.cur.b, Unknown...)
	e.cur.dyn = true
}

// lit expands literal text: backslash escapes, tilde at the start of an
// unquoted word, and pattern characters.
func (e *evaluator) lit(s string, q quoteMode, first, more bool) {
	if q == unquoted && first && strings.HasPrefix(s, "~") {
		s = e.tilde(s, more)
	}
	switch q {
	case unquoted:
		for i := 0; i < len(s); i++ {
			c := s[i]
			if c == '$' && i+1 < len(s) {
				if n := e.hiddenParam(s[i+1:], q); n > 0 {
					i += n
					continue
				}
			}
			switch c {
			case '\\':
				if i+1 < len(s) {
					i++
					c = s[i]
				}
				e.cur.quoted = true
			case '*', '?':
				e.cur.glob = true
			case '[':
				// A bracket expression needs its closing ]: a lone [ (the
				// test command) is literal.
				if strings.IndexByte(s[i+1:], ']') >= 0 {
					e.cur.glob = true
				}
			}
			e.cur.b = append(e.cur.b, c)
		}
	default:
		// Inside double quotes a backslash escapes only $ ` " \ and
		// newline; in a heredoc body, only $ ` \ and newline.
		for i := 0; i < len(s); i++ {
			c := s[i]
			if c == '$' && i+1 < len(s) {
				if n := e.hiddenParam(s[i+1:], q); n > 0 {
					i += n
					continue
				}
			}
			if c == '\\' && i+1 < len(s) {
				switch n := s[i+1]; n {
				case '$', '`', '\\', '\n':
					i++
					c = n
				case '"':
					if q == dquoted {
						i++
						c = n
					}
				}
			}
			e.cur.b = append(e.cur.b, c)
		}
	}
}

// specialParams are the one-character parameters. The parser leaves
// "$\<newline>*" as the literal text $* while bash, which removes the
// line continuation first, expands it (verified with bash 5.2).
const specialParams = "*@#?$!-0123456789"

// hiddenParam expands a parameter found in literal text after a $: the
// parser leaves them literal when a line continuation split them
// ("$\<newline>*", "$\<newline>$$A0"), bash expands them. It returns how
// many bytes of rest it used.
func (e *evaluator) hiddenParam(rest string, q quoteMode) int {
	switch c := rest[0]; {
	case strings.IndexByte(specialParams, c) >= 0:
		e.lineContParam(c, q)
		return 1
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		n := 1
		for n < len(rest) && (rest[n] == '_' || rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= 'A' && rest[n] <= 'Z' || rest[n] >= '0' && rest[n] <= '9') {
			n++
		}
		v := e.fr.lookup(rest[:n])
		e.feeders = append(e.feeders, v.feeders...)
		if !v.known {
			e.unknown()
			return n
		}
		val, _ := v.value()
		e.expansion(val, q, v.pattern)
		return n
	}
	return 0
}

// lineContParam expands a special parameter found in literal text.
func (e *evaluator) lineContParam(p byte, q quoteMode) {
	name := string(p)
	if p == '@' || p == '*' {
		e.list(e.fr.lookup(name), p == '*', q)
		return
	}
	v := e.fr.lookup(name)
	if !v.known {
		e.unknown()
		return
	}
	val, _ := v.value()
	e.expansion(val, q, false)
}

// tilde expands a leading tilde prefix of an unquoted literal. The prefix
// runs to the first slash; when the literal ends before one and more parts
// follow, the prefix holds quoted text and bash leaves it alone.
func (e *evaluator) tilde(s string, more bool) string {
	name, rest := s[1:], ""
	if i := strings.IndexByte(name, '/'); i >= 0 {
		name, rest = name[:i], name[i:]
	} else if more {
		return s
	}
	var v string
	switch name {
	case "":
		val, set := e.fr.lookup("HOME").value()
		if !set {
			val = Unknown // bash falls back to the passwd entry
		}
		v = val
	case "+":
		v, _ = e.fr.lookup("PWD").value()
	case "-":
		val, set := e.fr.lookup("OLDPWD").value()
		if !set {
			return s
		}
		v = val
	default:
		if !validName(strings.ReplaceAll(strings.ReplaceAll(name, "-", "_"), ".", "_")) {
			return s
		}
		v = Unknown // ~user: that user's home directory
	}
	if hasUnknown(v) {
		e.cur.dyn = true
	}
	e.cur.quoted = true // the expansion is not subject to globbing
	e.cur.b = append(e.cur.b, v...)
	return rest
}

// assignLit expands the first literal of an assignment value: a tilde
// after the = and after every unquoted colon.
func (e *evaluator) assignLit(s string, more bool) {
	segs := strings.Split(s, ":")
	for i, seg := range segs {
		if i > 0 {
			e.cur.b = append(e.cur.b, ':')
		}
		if strings.HasPrefix(seg, "~") {
			seg = e.tilde(seg, more && i == len(segs)-1)
		}
		for j := 0; j < len(seg); j++ {
			c := seg[j]
			if c == '\\' && j+1 < len(seg) {
				j++
				c = seg[j]
			}
			e.cur.b = append(e.cur.b, c)
		}
	}
}

// expansion adds the value of an expansion: split into fields when
// unquoted in a command line; pattern characters in an unquoted value are
// live globs.
func (e *evaluator) expansion(v string, q quoteMode, pattern bool) {
	if hasUnknown(v) {
		e.cur.dyn = true
	}
	if pattern {
		e.cur.pattern = true
	}
	if q != unquoted || !e.split {
		e.cur.b = append(e.cur.b, v...)
		if q == unquoted && strings.ContainsAny(v, "*?[") {
			e.cur.glob = true
		}
		return
	}
	ifs, _ := e.fr.lookup("IFS").value()
	start := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		if strings.IndexByte(ifs, c) < 0 {
			continue
		}
		e.addSplit(v[start:i])
		white := c == ' ' || c == '\t' || c == '\n'
		if e.cur.exists() || !white {
			e.fields = append(e.fields, e.cur)
		}
		e.cur = fieldBuf{}
		start = i + 1
	}
	e.addSplit(v[start:])
}

func (e *evaluator) addSplit(s string) {
	if strings.ContainsAny(s, "*?[") {
		e.cur.glob = true
	}
	if hasUnknown(s) {
		e.cur.dyn = true
	}
	e.cur.b = append(e.cur.b, s...)
}
