package parse

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// declClause follows export, declare, local, readonly, typeset and
// nameref, which the parser gives as a keyword clause rather than a call.
// It records a Command for the builtin (its words as written, after
// expansion) and an Assignment for each variable.
func (fr *frame) declClause(s *syntax.Stmt, d *syntax.DeclClause) {
	at := fr.pos.of(s.Pos())
	if !fr.spend(1, at) {
		return
	}
	slot := fr.reserve()
	variant := d.Variant.Value
	e := &evaluator{fr: fr, split: true}
	redirs, in := fr.redirects(s.Redirs, e)
	c := fr.newCommand(&callSite{pos: at, span: fr.span(s), redirs: redirs, stdin: in}, nil)
	c.Name, c.Path = variant, variant
	flags := ""
	if variant == "nameref" {
		flags = "n"
	}
	for _, a := range d.Args {
		switch {
		case a.Naked && a.Name == nil && a.Value != nil:
			// An option or a name given by an expansion.
			for _, f := range e.expandArg(a.Value, nil) {
				c.Args = append(c.Args, f.Word)
				switch {
				case !f.Literal() && strings.ContainsAny(flags, "fFp"):
					// declare -F "$X", -f, -p only print.
				case !f.Literal():
					fr.st.forgetVars() // declare "$X": any variable
				case strings.HasPrefix(f.Value, "-") || strings.HasPrefix(f.Value, "+"):
					flags += f.Value
				case validName(f.Value):
					fr.declName(variant, flags, f.Value, nil, f.Pos)
				}
			}
		case a.Name != nil:
			fr.declAssign(c, variant, flags, a)
		}
	}
	recordRow(c, nil)
	fr.fill(slot, c)
}

// declAssign handles one NAME or NAME=VALUE of a declaration.
func (fr *frame) declAssign(c *Command, variant, flags string, a *syntax.Assign) {
	name := a.Name.Value
	pos := fr.pos.of(a.Pos())
	if a.Naked {
		c.Args = append(c.Args, Word{Value: name, Pos: pos})
		fr.declName(variant, flags, name, nil, pos)
		return
	}
	v := fr.assignValue(a, flags)
	c.Args = append(c.Args, Word{Value: name + "=" + v.word.Value, Dynamic: v.word.Dynamic, Pos: pos})
	fr.declName(variant, flags, name, &v, pos)
	fr.emitAssignment(&Assignment{Name: name, Value: v.word, Export: exports(variant, flags), Append: a.Append, Array: a.Array != nil, Decl: variant, Pos: pos})
}

func exports(variant, flags string) bool {
	return variant == "export" && !strings.Contains(flags, "n") || strings.Contains(flags, "x")
}

// declName applies a declaration of name (with a value, or without).
func (fr *frame) declName(variant, flags, name string, v *assigned, pos Pos) {
	st := fr.st
	if strings.Contains(flags, "f") {
		// export -f NAME exports a function; declare -f prints.
		if f := st.funcs[name]; f != nil && exports(variant, flags) {
			st.funcs[name] = f.withExport()
		}
		return
	}
	if variant == "local" || (variant == "declare" || variant == "typeset") && !strings.Contains(flags, "g") && st.locals != nil {
		st.declareLocal(name)
		if st.attrs[name] != "" {
			// The local does not inherit them, the global keeps them
			// after the call: not modelled.
			st.attrs[name] = "?"
		}
	}
	st.setAttrs(name, flags)
	if variant == "readonly" || strings.Trim(flags, "-+iluc") != "" {
		st.flag(name) // -r, -t, -a, -A …: ${X@a} is not modelled for them
	}
	exp := exports(variant, flags)
	if strings.Contains(flags, "n") {
		if v != nil && v.v != nil && v.v.known {
			val, _ := v.v.value()
			st.set(name, &variable{known: true, v: expand.Variable{Set: true, Kind: expand.NameRef, Str: val}})
		} else {
			st.forget(name)
		}
		return
	}
	if v == nil {
		if variant == "export" && strings.Contains(flags, "n") {
			old := *st.lookup(name)
			old.exported = false
			st.rawSet(name, &old)
			return
		}
		if variant == "local" || variant == "declare" || variant == "typeset" {
			if _, set := st.lookup(name).value(); !set || variant == "local" {
				nv := &variable{known: true, exported: exp}
				if strings.Contains(flags, "A") {
					// Declared, not set: its kind decides how m[k]=v
					// reads the key.
					nv.v = expand.Variable{Kind: expand.Associative}
				}
				st.set(name, nv)
			}
		}
		if exp {
			old := *st.lookup(name)
			old.exported = true
			st.rawSet(name, &old)
		}
		if variant != "readonly" {
			fr.emitAssignment(&Assignment{Name: name, Export: exp, Decl: variant, Pos: pos})
		}
		return
	}
	fr.apply(name, *v, exp)
}
