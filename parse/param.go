package parse

import (
	"errors"
	"io"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// lookup resolves a parameter name, special parameters included.
func (fr *frame) lookup(name string) *variable {
	st := fr.st
	switch name {
	case "@", "*":
		if !st.argsKnown {
			return unknownVar
		}
		var list []string
		if len(st.args) > 1 {
			list = st.args[1:]
		}
		return &variable{known: true, v: expand.Variable{Set: true, Kind: expand.Indexed, List: list}}
	case "#":
		if !st.argsKnown {
			return unknownVar
		}
		n := len(st.args) - 1
		if n < 0 {
			n = 0
		}
		return strVar(strconv.Itoa(n), false)
	case "?", "$", "!", "-", "_":
		return unknownVar
	}
	if name != "" && name[0] >= '0' && name[0] <= '9' {
		n, err := strconv.Atoi(name)
		if err != nil || !st.argsKnown {
			return unknownVar
		}
		if n < len(st.args) {
			return strVar(st.args[n], false)
		}
		return &variable{known: true}
	}
	if name == sentinel {
		return unknownVar
	}
	if v := fr.madeVar(name); v != nil {
		return v
	}
	v := st.lookup(name)
	// A nameref (declare -n r=X) stands for the variable it names.
	for i := 0; i < 8 && v.known && v.v.Kind == expand.NameRef; i++ {
		if !validName(v.v.Str) {
			return unknownVar
		}
		v = st.lookup(v.v.Str)
	}
	return v
}

// param expands a parameter expansion into the current field.
func (e *evaluator) param(pe *syntax.ParamExp, q quoteMode) {
	if pe.Param == nil {
		e.unknown()
		return
	}
	if hasInnerWords(pe) && e.fr.walkSubsts(pe, e) {
		e.unknown() // ${X:-$(cmd)}: the substitution may run
		return
	}
	name := pe.Param.Value
	if pe.Short && len(name) > 1 && isDigits(name) {
		// $12 is $1 then "2"; the parser joins the digits after a line
		// continuation ("$\<newline>00").
		e.lineContParam(name[0], q)
		e.lit(name[1:], dquoted, false, true)
		return
	}
	if q == unquoted && e.defaultWord(pe, name) {
		return
	}
	if isSimpleParam(pe) {
		if name == "@" || name == "*" {
			e.list(e.fr.lookup(name), name == "*", q)
			return
		}
		v := e.fr.lookup(name)
		e.feeders = append(e.feeders, v.feeders...)
		if !v.known {
			e.unknown()
			return
		}
		val, _ := v.value()
		e.expansion(val, q, v.pattern)
		return
	}
	if e.transform(pe, q) {
		return
	}
	e.delegate(pe, q)
}

// list expands $@ / $* (and arrays in the same shape).
func (e *evaluator) list(v *variable, star bool, q quoteMode) {
	if !v.known {
		e.unknown()
		return
	}
	elems := v.v.List
	if q != unquoted && star {
		e.expansion(strings.Join(elems, " "), q, false)
		return
	}
	for i, el := range elems {
		if i > 0 {
			if e.cur.exists() || q != unquoted {
				e.fields = append(e.fields, e.cur)
			}
			e.cur = fieldBuf{quoted: q != unquoted}
		}
		e.expansion(el, q, false)
	}
	if len(elems) == 0 && q != unquoted && !star {
		// "$@" with no parameters makes no field, unlike "".
		if len(e.cur.b) == 0 && !e.cur.dyn {
			e.cur.quoted = false
		}
	}
}

func isSimpleParam(pe *syntax.ParamExp) bool {
	return !pe.Excl && !pe.Length && !pe.Width && !pe.IsSet && pe.Index == nil &&
		pe.Slice == nil && pe.Repl == nil && pe.Names == 0 && pe.Exp == nil &&
		pe.NestedParam == nil && len(pe.Modifiers) == 0 && pe.Flags == nil
}

func hasInnerWords(pe *syntax.ParamExp) bool {
	return pe.Exp != nil || pe.Repl != nil || pe.Slice != nil || pe.Index != nil || pe.NestedParam != nil
}

// delegate expands an operator form through the expand package, with an
// environment that notes any lookup of an unknown value.
func (e *evaluator) delegate(pe *syntax.ParamExp, q quoteMode) {
	env := &trackEnv{fr: e.fr}
	cfg := &expand.Config{Env: env, CmdSubst: noCmdSubst, ProcSubst: noProcSubst}
	w := &syntax.Word{Parts: []syntax.WordPart{pe}}
	if q != unquoted {
		w = &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{pe}}}}
	}
	fields, err := safeFields(cfg, w)
	e.feeders = append(e.feeders, env.feeders...)
	if env.nonASCII && localeDependent(pe) {
		err = errNoRun
	}
	if err != nil || env.unknown {
		e.unknown()
		return
	}
	for i, f := range fields {
		if i > 0 {
			e.fields = append(e.fields, e.cur)
			e.cur = fieldBuf{quoted: q != unquoted}
		}
		if q == unquoted && strings.ContainsAny(f, "*?[") {
			e.cur.glob = true
		}
		e.cur.b = append(e.cur.b, f...)
	}
	if q != unquoted && len(fields) == 0 && len(e.cur.b) == 0 && !e.cur.dyn {
		// "${arr[@]}" of an empty or unset array makes no field.
		e.cur.quoted = false
	}
}

// localeDependent reports an operator whose result on non-ASCII text
// depends on the locale: lengths and offsets count characters, case
// changes follow the locale's rules.
func localeDependent(pe *syntax.ParamExp) bool {
	if pe.Length || pe.Slice != nil {
		return true
	}
	if pe.Exp != nil {
		switch pe.Exp.Op {
		case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
			return true
		}
	}
	return false
}

var errNoRun = errors.New("analysis never runs commands")

func noCmdSubst(io.Writer, *syntax.CmdSubst) error  { return errNoRun }
func noProcSubst(*syntax.ProcSubst) (string, error) { return "", errNoRun }
func safeFields(cfg *expand.Config, w *syntax.Word) (fs []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			fs, err = nil, errNoRun
		}
	}()
	return expand.Fields(cfg, w)
}

// trackEnv is the environment the expand package sees: the analysis'
// state, noting whether any value it needed was unknown.
type trackEnv struct {
	fr      *frame
	unknown bool
	// nonASCII is set when a value read holds bytes beyond ASCII, whose
	// characters and case depend on the locale.
	nonASCII bool
	feeders  []*Command
}

func (t *trackEnv) Get(name string) expand.Variable {
	v := t.fr.lookup(name)
	t.feeders = append(t.feeders, v.feeders...)
	if !v.known {
		t.unknown = true
		return expand.Variable{}
	}
	if hasUnknown(v.v.Str) || v.pattern {
		t.unknown = true
	}
	t.nonASCII = t.nonASCII || !isASCII(v.v.Str)
	for _, s := range v.v.List {
		if hasUnknown(s) {
			t.unknown = true
		}
		t.nonASCII = t.nonASCII || !isASCII(s)
	}
	for _, s := range v.v.Map {
		if hasUnknown(s) {
			t.unknown = true
		}
		t.nonASCII = t.nonASCII || !isASCII(s)
	}
	return v.v
}

// Each is needed for ${!prefix*}: the names are not all known.
func (t *trackEnv) Each(func(string, expand.Variable) bool) { t.unknown = true }

// Set carries out ${X:=default} and arithmetic assignments.
func (t *trackEnv) Set(name string, vr expand.Variable) error {
	if !vr.Set {
		t.fr.st.set(name, &variable{known: true})
		return nil
	}
	t.fr.st.set(name, &variable{known: true, v: vr})
	return nil
}

// arith evaluates an arithmetic expression when everything in it is known.
func (fr *frame) arith(x syntax.ArithmExpr, e *evaluator) (string, bool) {
	if x == nil {
		return "0", true
	}
	if fr.walkSubsts(x, e) {
		fr.forgetArithAssigns(x)
		return "", false
	}
	x, ok := fr.arithPlain(x, true, 0)
	if !ok {
		fr.forgetArithAssigns(x)
		return "", false
	}
	env := &trackEnv{fr: fr}
	cfg := &expand.Config{Env: env, CmdSubst: noCmdSubst, ProcSubst: noProcSubst}
	n, err := safeArith(cfg, x)
	if err != nil || env.unknown {
		fr.forgetArithAssigns(x)
		return "", false
	}
	return strconv.Itoa(n), true
}

// maxArithDepth bounds variables whose values are expressions naming
// variables whose values are expressions.
const maxArithDepth = 8

// arithPlain returns x in the form the expand package evaluates as bash
// does, or false when it cannot. The package takes a variable's value
// and a word's expansion as a number, while bash evaluates them: x='1+2'
// makes $((2*x)) 6 and x='y=5' makes $((x)) assign y; a quoted word is
// text bash parses (let 'x+=1'); and an assignment may name an array
// element (((a[1]=5))). A variable's value that is an expression becomes
// that expression, in parentheses as bash evaluates it; a quoted or
// expanded word that is the whole expression becomes the expression its
// text is (whole); elsewhere bash pastes its text into the expression, so
// only a decimal number is taken. Numbers other than decimal ones, element
// names and anything unknown are not evaluated.
func (fr *frame) arithPlain(x syntax.ArithmExpr, whole bool, depth int) (syntax.ArithmExpr, bool) {
	if depth > maxArithDepth {
		return x, false
	}
	switch x := x.(type) {
	case *syntax.Word:
		if l := x.Lit(); l != "" && len(x.Parts) == 1 {
			if _, ok := x.Parts[0].(*syntax.Lit); ok {
				if decimal(l) {
					return x, true
				}
				if !validName(l) {
					return x, false
				}
				v := fr.lookup(l)
				if !v.known {
					return x, false
				}
				val, _ := v.value()
				if hasUnknown(val) {
					return x, false
				}
				return fr.arithText(x, val, depth)
			}
		}
		args := (&evaluator{fr: fr}).expandArg(x, nil)
		if len(args) != 1 || args[0].Dynamic {
			if len(args) == 1 && whole {
				// let "$expr": text that cannot be known may assign
				// anything.
				fr.st.poisonVars()
			}
			return x, false
		}
		val := args[0].Value
		if whole {
			return fr.arithText(x, val, depth)
		}
		if t := strings.TrimSpace(val); t == "" || decimal(t) {
			return x, decimal(t)
		}
		return x, false
	case *syntax.ParenArithm:
		y, ok := fr.arithPlain(x.X, true, depth)
		if !ok {
			return x, false
		}
		return &syntax.ParenArithm{Lparen: x.Lparen, Rparen: x.Rparen, X: y}, true
	case *syntax.UnaryArithm:
		if x.Op == syntax.Inc || x.Op == syntax.Dec {
			if w, ok := x.X.(*syntax.Word); !ok || !validName(w.Lit()) {
				return x, false
			}
			v := fr.lookup(x.X.(*syntax.Word).Lit())
			if !v.known {
				return x, false
			}
			if val, _ := v.value(); strings.TrimSpace(val) != "" && !decimal(strings.TrimSpace(val)) {
				return x, false
			}
			return x, true
		}
		y, ok := fr.arithPlain(x.X, false, depth)
		if !ok {
			return x, false
		}
		return &syntax.UnaryArithm{OpPos: x.OpPos, Op: x.Op, Post: x.Post, X: y}, true
	case *syntax.BinaryArithm:
		left := x.X
		ok := true
		if isArithAssign(x.Op) {
			if w, isW := x.X.(*syntax.Word); !isW || !validName(w.Lit()) {
				return x, false
			}
			if x.Op != syntax.Assgn {
				_, ok = fr.arithPlain(x.X, false, depth)
			}
		} else {
			left, ok = fr.arithPlain(x.X, false, depth)
		}
		if !ok {
			return x, false
		}
		right, ok := fr.arithPlain(x.Y, false, depth)
		if !ok {
			return x, false
		}
		return &syntax.BinaryArithm{OpPos: x.OpPos, Op: x.Op, X: left, Y: right}, true
	}
	return x, false
}

// arithText is the expression text val stands for in place of w: a
// number, nothing (zero), or an expression bash parses and evaluates.
func (fr *frame) arithText(w *syntax.Word, val string, depth int) (syntax.ArithmExpr, bool) {
	t := strings.TrimSpace(val)
	if t == "" || decimal(t) {
		return w, true
	}
	y, err := syntax.NewParser().Arithmetic(strings.NewReader(t))
	if err != nil || y == nil {
		return w, false
	}
	z, ok := fr.arithPlain(y, true, depth+1)
	if !ok {
		fr.forgetArithAssigns(y)
		return w, false
	}
	return &syntax.ParenArithm{Lparen: w.Pos(), Rparen: w.End(), X: z}, true
}

// decimal reports whether s is a decimal number as bash reads one: no
// leading zero (octal), no base.
func decimal(s string) bool {
	if s == "0" {
		return true
	}
	if s == "" || s[0] < '1' || s[0] > '9' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func safeArith(cfg *expand.Config, x syntax.ArithmExpr) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, err = 0, errNoRun
		}
	}()
	return expand.Arithm(cfg, x)
}

// forgetArithAssigns makes the variables an arithmetic expression assigns
// unknown (x=…, x+=…, x++), when the expression could not be evaluated.
func (fr *frame) forgetArithAssigns(x syntax.Node) {
	syntax.Walk(x, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.BinaryArithm:
			if isArithAssign(n.Op) {
				if name := arithName(n.X); name != "" {
					fr.st.forget(name)
				}
			}
		case *syntax.UnaryArithm:
			if n.Op == syntax.Inc || n.Op == syntax.Dec {
				if name := arithName(n.X); name != "" {
					fr.st.forget(name)
				}
			}
		}
		return true
	})
}

func arithName(x syntax.ArithmExpr) string {
	if w, ok := x.(*syntax.Word); ok {
		l := w.Lit()
		if i := strings.IndexByte(l, '['); i > 0 {
			l = l[:i] // an array element: the array is no longer known
		}
		if validName(l) {
			return l
		}
		if len(w.Parts) == 1 {
			if pe, ok := w.Parts[0].(*syntax.ParamExp); ok && pe.Param != nil {
				return pe.Param.Value
			}
		}
	}
	return ""
}

// walkSubsts analyses the command and process substitutions anywhere
// under n and reports whether there were any.
func (fr *frame) walkSubsts(n syntax.Node, e *evaluator) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			found = true
			fr.cmdSubst(n, e)
			return false
		case *syntax.ProcSubst:
			found = true
			fr.procSubst(n, e)
			return false
		}
		return true
	})
	return found
}

func isArithAssign(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn,
		syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn,
		syntax.ShrAssgn, syntax.AndBoolAssgn, syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
		return true
	}
	return false
}

// defaultWord expands ${X-word} ${X:-word} ${X+word} ${X:+word} outside
// double quotes: the chosen word keeps its own quoting (bash gives one
// field for ${NOPE:-"a b"}; the expand package splits it). It reports
// whether it handled the expansion.
func (e *evaluator) defaultWord(pe *syntax.ParamExp, name string) bool {
	if pe.Exp == nil || pe.Excl || pe.Length || pe.Index != nil || pe.Slice != nil || pe.Repl != nil || pe.Names != 0 || pe.NestedParam != nil || name == "@" || name == "*" {
		return false
	}
	op := pe.Exp.Op
	alt := op == syntax.AlternateUnset || op == syntax.AlternateUnsetOrNull
	if !alt && op != syntax.DefaultUnset && op != syntax.DefaultUnsetOrNull {
		return false
	}
	v := e.fr.lookup(name)
	e.feeders = append(e.feeders, v.feeders...)
	if !v.known {
		e.unknown()
		return true
	}
	val, set := v.value()
	if hasUnknown(val) {
		e.unknown()
		return true
	}
	colon := op == syntax.DefaultUnsetOrNull || op == syntax.AlternateUnsetOrNull
	present := set && (!colon || val != "")
	switch {
	case !alt && present:
		e.expansion(val, unquoted, v.pattern)
	case alt && !present:
	case pe.Exp.Word != nil:
		for _, p := range mergeLits(pe.Exp.Word.Parts) {
			if l, ok := p.(*syntax.Lit); ok && e.split {
				e.splitLit(l.Value)
				continue
			}
			e.part(p, unquoted, false, true)
		}
	}
	return true
}

// splitLit adds literal text of a ${X:-word} default: unlike a word of
// the command line it may hold blanks, and outside quotes they split it.
func (e *evaluator) splitLit(s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\n':
			if e.cur.exists() {
				e.fields = append(e.fields, e.cur)
			}
			e.cur = fieldBuf{}
			continue
		case '\\':
			if i+1 < len(s) {
				i++
				c = s[i]
			}
			e.cur.quoted = true
		case '*', '?':
			e.cur.glob = true
		}
		e.cur.b = append(e.cur.b, c)
	}
}
