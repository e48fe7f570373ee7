package parse

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// A path the script made itself — mktemp's output, or a directory mkdir created
// where the script had found nothing — names only the script's own work, wherever
// it is: `rm -rf "$dir"` of it removes nothing that was there before. bats sets
// its run directory either way:
//
//	if [[ -n $BATS_RUN_TMPDIR ]]; then
//	  if [[ -d $BATS_RUN_TMPDIR ]]; then exit 1
//	  elif ! mkdir -p "$BATS_RUN_TMPDIR"; then exit 1; fi
//	elif ! BATS_RUN_TMPDIR=$(mktemp -d …); then exit 1; fi
//	…
//	rm -rf "$BATS_RUN_TMPDIR"
//
// A variable carries the fact (variable.made) while it keeps that value, through
// merges of paths on which it holds on both; a word that is exactly that
// variable's expansion is marked Word.Made. A path is found absent on the failing
// side of `[ -e "$v" ]` or `[ -d "$v" ]` (variable.absent); mkdir without -p
// makes only what was absent. Both hold only where the script went on because
// the command succeeded: the other side of `if ! mkdir …; then exit`, the inside
// of `if mkdir …; then`, after `mkdir … || exit`.

// soleParam returns the name of the variable a word is exactly the plain
// expansion of ("$v", $v, "${v}"), or "".
func soleParam(w *syntax.Word) string {
	if w == nil || len(w.Parts) != 1 {
		return ""
	}
	p := w.Parts[0]
	if dq, ok := p.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		p = dq.Parts[0]
	}
	pe, ok := p.(*syntax.ParamExp)
	if !ok || pe.Param == nil || !isSimpleParam(pe) || !validName(pe.Param.Value) {
		return ""
	}
	return pe.Param.Value
}

// isMktempSubst reports whether w is exactly one substitution of a plain
// mktemp call ("$(mktemp -d …)"), which prints the path it just made.
func isMktempSubst(w *syntax.Word) bool {
	if w == nil || len(w.Parts) != 1 {
		return false
	}
	p := w.Parts[0]
	if dq, ok := p.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		p = dq.Parts[0]
	}
	cs, ok := p.(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 || len(cs.Stmts[0].Redirs) != 0 || cs.Stmts[0].Negated {
		return false
	}
	c, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	return ok && len(c.Assigns) == 0 && len(c.Args) > 0 && c.Args[0].Lit() == "mktemp"
}

// markMade notes on w that it is a path the script made, when it is exactly the
// expansion of a variable that names one.
func (fr *frame) markMade(syn *syntax.Word, w *Word) {
	if name := soleParam(syn); name != "" && fr.st.madeHere(fr.lookup(name)) {
		w.Made = true
	}
}

// absentTested returns the variable whose path a condition finds absent when it
// fails: `[ -e "$v" ]`, `[[ -d $v ]]`, `test -e "$v"` (and -d: mkdir -p of a
// path that is not a directory makes one or fails).
func absentTested(s *syntax.Stmt) string {
	if s == nil || s.Negated || len(s.Redirs) > 0 {
		return ""
	}
	switch c := s.Cmd.(type) {
	case *syntax.TestClause:
		u, ok := c.X.(*syntax.UnaryTest)
		if !ok || (u.Op != syntax.TsExists && u.Op != syntax.TsDirect) {
			return ""
		}
		w, ok := u.X.(*syntax.Word)
		if !ok {
			return ""
		}
		return soleParam(w)
	case *syntax.CallExpr:
		a := c.Args
		if len(a) > 0 && a[0].Lit() == "[" && len(a) == 4 && a[3].Lit() == "]" {
			a = a[:3]
		} else if len(a) == 0 || a[0].Lit() != "test" || len(a) != 3 {
			return ""
		}
		if op := a[1].Lit(); op != "-e" && op != "-d" {
			return ""
		}
		return soleParam(a[2])
	}
	return ""
}

// mkdirMade returns the variable a successful mkdir makes a path of: `mkdir
// "$v"`, or `mkdir -p "$v"` where v was found absent; "" for anything else
// (several operands, options other than -p, -v and -m MODE).
func (fr *frame) mkdirMade(s *syntax.Stmt) string {
	if s == nil || len(s.Redirs) > 0 {
		return ""
	}
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Assigns) > 0 || len(c.Args) < 2 || c.Args[0].Lit() != "mkdir" {
		return ""
	}
	parents, name := false, ""
	for i := 1; i < len(c.Args); i++ {
		switch a := c.Args[i]; a.Lit() {
		case "-p", "--parents":
			parents = true
		case "-v", "--verbose", "--":
		case "-m":
			i++
		case "-pv", "-vp":
			parents = true
		default:
			if name != "" {
				return ""
			}
			if name = soleParam(a); name == "" {
				return ""
			}
		}
	}
	if name == "" || parents && !fr.lookup(name).absent {
		return ""
	}
	return name
}

// setFlag copies the variable name with made or absent set.
func (st *state) setFlag(name string, made, absent bool) {
	v := *st.lookup(name)
	v.made = v.made || made
	if made {
		v.madeIn = "" // made from here
	}
	v.absent = v.absent || absent
	st.set(name, &v)
}

// dropRelativeMade notes, at a change of directory to dir ("" for one not
// known), that unknown paths made or found absent may have been relative
// to the directory left. Known values (mktemp's absolute paths) keep the
// fact. A made path keeps it for when the shell is back where it was made
// (madeIn: bats' cd "$dirname"; …; cd "$OLDPWD"), unless that directory is
// not known.
func (st *state) dropRelativeMade(dir string) {
	for name, v := range st.vars {
		if (v.made || v.absent) && !v.known {
			nv := *v
			nv.absent = false
			switch {
			case !nv.made:
			case nv.madeIn == "" && st.dir != "":
				nv.madeIn = st.dir
			case nv.madeIn == "":
				nv.made = false // made where the shell was, and that is not known
			}
			if nv.made && dir != "" && nv.madeIn == dir {
				nv.madeIn = ""
			}
			st.vars[name] = &nv
		}
	}
}

// madeHere reports whether v names a path the script made, from where
// the shell is now.
func (st *state) madeHere(v *variable) bool {
	return v.made && (v.madeIn == "" || v.madeIn == st.dir)
}

// holesAreNames reports whether every unknown part of the words comes from
// a variable whose holes are only mktemp's random letters and digits: the
// code they spell is known but for a file name, so running it is not
// running unknown code.
// It returns those variables' values.
func (fr *frame) holesAreNames(ws ...*syntax.Word) ([]string, bool) {
	var vals []string
	for _, w := range ws {
		if w == nil || !fr.partsAreNames(w.Parts, &vals) {
			return nil, false
		}
	}
	return vals, true
}

func (fr *frame) partsAreNames(parts []syntax.WordPart, vals *[]string) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			if !fr.partsAreNames(p.Parts, vals) {
				return false
			}
		case *syntax.ParamExp:
			if p.Param == nil || !isSimpleParam(p) || !validName(p.Param.Value) {
				return false
			}
			v := fr.lookup(p.Param.Value)
			val, _ := v.value()
			if !v.known || v.pattern || hasUnknown(val) && !v.nameHoles {
				return false
			}
			if hasUnknown(val) {
				*vals = append(*vals, val)
			}
		default:
			return false
		}
	}
	return true
}

// madeParam is the prefix of the parameters that stand for mktemp paths in
// nested code, so that "rm -rf $tmp" run by trap still deletes a path
// the script made (Word.Made).
const madeParam = "__guard_exec_made"

// nameText replaces in text the mktemp paths vals with parameters that
// stand for them; what is left unknown becomes the sentinel.
func (fr *frame) nameText(text string, vals []string) string {
	slices.SortFunc(vals, func(a, b string) int { return len(b) - len(a) })
	for _, v := range vals {
		if !strings.Contains(text, v) {
			continue
		}
		i := slices.Index(fr.r.madeVals, v)
		if i < 0 {
			i = len(fr.r.madeVals)
			fr.r.madeVals = append(fr.r.madeVals, v)
		}
		text = strings.ReplaceAll(text, v, "${"+madeParam+strconv.Itoa(i)+"__}")
	}
	return strings.ReplaceAll(text, Unknown, sentinelText)
}

// madeVar is the variable a made parameter stands for, nil for any other
// name.
func (fr *frame) madeVar(name string) *variable {
	if !strings.HasPrefix(name, madeParam) || !strings.HasSuffix(name, "__") {
		return nil
	}
	i, err := strconv.Atoi(name[len(madeParam) : len(name)-2])
	if err != nil || i < 0 || i >= len(fr.r.madeVals) {
		return nil
	}
	return &variable{known: true, v: expand.Variable{Set: true, Kind: expand.String, Str: fr.r.madeVals[i]}, made: true, nameHoles: true}
}

// unmade turns made parameters that quoting kept as text back into the
// paths they stand for.
func (fr *frame) unmade(s string) (string, bool) {
	if !strings.Contains(s, "${"+madeParam) {
		return s, false
	}
	for i, v := range fr.r.madeVals {
		s = strings.ReplaceAll(s, "${"+madeParam+strconv.Itoa(i)+"__}", v)
	}
	return s, true
}
