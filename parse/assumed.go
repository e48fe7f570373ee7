package parse

import "mvdan.cc/sh/v3/syntax"

// Once code the analysis cannot see has run in a shell (eval of a computed
// string, source of a file that is not there yet), every variable may have
// changed, and a word such as "$OUT" is unknown. That unseen code is
// reported for what it is (dynamic-exec); whatever it could do through a
// variable it could as well do itself. So a word that is unknown only
// because of it also carries the value it would have if the unseen code
// left the variables alone: Word.Assumed. The policy judges a write or a
// delete of such a word by that value (by its known prefix where part of it
// is still unknown: "$DIR/bats.$$.out"), never any other rule, and only
// where its variables were set before the unseen code ran (by the script or
// by the caller's environment; a name that was unset then stays unknown, as
// a sourced `activate` sets VIRTUAL_ENV) and it is an absolute path. bats writes its output this way after it sources the test file:
//
//	BATS_OUT="$BATS_RUN_TMPDIR/bats.$$.out"
//	source "$BATS_TEST_SOURCE"          # the test file, made at run time
//	teardown >>"$BATS_OUT" 2>&1

// assumed returns the state with the values the script would have if no
// unseen code had changed them: s itself, when not poisoned, else its
// prior with what was set since laid over it. Nil when not known. Names the
// environment does not set, and variables the script unset, are unknown in
// it.
func (s *state) assumed() *state {
	var c *state
	switch {
	case !s.poisoned:
		c = s.clone()
	case s.prior == nil:
		return nil
	default:
		c = s.prior.clone()
		if c.vars == nil {
			c.vars = map[string]*variable{}
		}
		for name, v := range s.vars {
			if !v.stale {
				c.vars[name] = v
			}
		}
		if s.dir != "" {
			c.dir = s.dir
		}
	}
	c.prior, c.poisoned, c.baseKnown, c.dead = nil, false, false, false
	for name, v := range c.vars {
		if v.known && !v.v.Set {
			delete(c.vars, name)
		}
	}
	return c
}

// plainParams returns the parameter expansions of w when it is made of
// literal text and simple parameter expansions only ("$OUT",
// "${DIR}/x.log", "$$"); false for anything else (a substitution, an
// operator form). Callers judge the names.
func plainParams(w *syntax.Word) ([]*syntax.ParamExp, bool) {
	if w == nil {
		return nil, false
	}
	var pes []*syntax.ParamExp
	var parts func([]syntax.WordPart) bool
	parts = func(ps []syntax.WordPart) bool {
		for _, p := range ps {
			switch p := p.(type) {
			case *syntax.Lit, *syntax.SglQuoted:
			case *syntax.DblQuoted:
				if !parts(p.Parts) {
					return false
				}
			case *syntax.ParamExp:
				if p.Param == nil || !isSimpleParam(p) {
					return false
				}
				pes = append(pes, p)
			default:
				return false
			}
		}
		return true
	}
	return pes, parts(w.Parts)
}

// plainWord reports whether w is made of literal text and plain parameter
// expansions of named variables only: expanding it runs nothing and
// changes no variable, so it can be expanded again in the assumed state.
func plainWord(w *syntax.Word) bool {
	pes, ok := plainParams(w)
	for _, p := range pes {
		ok = ok && validName(p.Param.Value)
	}
	return ok
}

// markAssumed sets wd.Assumed when wd is unknown only because unseen code
// ran: the word expanded again in the assumed state is fully known.
func (fr *frame) markAssumed(w *syntax.Word, wd *Word) {
	if !wd.Dynamic || !fr.st.poisoned || fr.st.prior == nil || !plainWord(w) {
		return
	}
	as := fr.st.assumed()
	if as == nil {
		return
	}
	saved := fr.st
	fr.st = as
	e := &evaluator{fr: fr}
	for i, p := range w.Parts {
		e.part(p, unquoted, i == 0, len(w.Parts) > 1)
	}
	// A path the script made stays its own work past the unseen code on
	// the same terms: "$BATS_RUN_TMPDIR", mkdir'd or mktemp'd on either
	// branch, then a sourced file, then rm -rf of it.
	fr.markMade(w, wd)
	fr.st = saved
	if len(e.fields) > 0 {
		return
	}
	if f := e.cur.word(wd.Pos); !f.Glob && f.Value != wd.Value {
		wd.Assumed = f.Value
	}
	wd.Unseen = wd.Assumed == "" && fr.st.baseKnown && unsetBefore(w, as)
}

// unsetBefore reports whether every parameter of the plain word w names a
// variable the shell did not have when the unseen code ran, nor set since
// (as is the assumed state): only that code could have set it. A variable
// that was unknown already (X=$(cat f)), a special parameter and one bash
// sets itself are not.
func unsetBefore(w *syntax.Word, as *state) bool {
	pes, ok := plainParams(w)
	for _, p := range pes {
		name := p.Param.Value
		_, inVars := as.vars[name]
		_, inBase := as.base[name]
		ok = ok && !inVars && !inBase && !bashSets()[name] && name != "PWD" && validName(name)
	}
	return ok && len(pes) > 0
}

// forgetVars is poisonVars for a command the analysis sees but whose effect
// on the variables it cannot know (read "$X", declare "$X", printf -v "$X"):
// that is not unseen code, so no value is assumed past it.
func (s *state) forgetVars() {
	s.poisonVars()
	s.prior = nil
}

// forgetAll is poison for the same reason (a nameref to an unknown name,
// a loop whose values did not settle).
func (s *state) forgetAll() {
	s.poison()
	s.prior = nil
}
