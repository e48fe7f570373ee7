package parse

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Aliases. bash expands an alias when it reads the first word of a
// command, if expand_aliases is on (off in a non-interactive bash until
// shopt -s expand_aliases; always on in POSIX sh), the word is unquoted,
// and the alias was defined on an earlier line (verified with bash 5.2:
// "shopt -s expand_aliases; alias x='echo hi'; x" does not expand x, the
// same text over two lines does). The expansion is analysed as a script
// in this shell (Context InAlias). When it is not certain that bash
// expands it, the plain command is analysed too.

type aliasDef struct {
	name  string
	value string
	// known is false for an alias whose value is dynamic.
	known    bool
	possibly bool
	// src and line say where it was defined: an alias takes effect for
	// lines read after its definition ran.
	src      string
	line     int
	maybeDef *aliasDef
}

func (a *aliasDef) maybe() *aliasDef {
	if a.possibly {
		return a
	}
	if a.maybeDef == nil {
		c := *a
		c.possibly, c.maybeDef = true, nil
		a.maybeDef = &c
	}
	return a.maybeDef
}

// builtinAlias records alias NAME=VALUE definitions.
func builtinAlias(fr *frame, c *Command, args []arg) {
	for _, a := range args[1:] {
		name, val, ok := strings.Cut(a.Value, "=")
		if !ok || strings.HasPrefix(a.Value, "-") {
			continue
		}
		if hasUnknown(name) {
			fr.emitDynamic(&Dynamic{Kind: DynAlias, Sink: c, Known: a.Value, Pos: c.Pos})
			continue
		}
		if fr.st.aliases == nil {
			fr.st.aliases = make(map[string]*aliasDef)
		}
		fr.st.aliases[name] = &aliasDef{name: name, value: val, known: !hasUnknown(val), src: fr.src, line: c.Pos.Line}
	}
}

func builtinUnalias(fr *frame, c *Command, args []arg) {
	for _, a := range args[1:] {
		if a.Value == "-a" {
			fr.st.aliases = nil
			continue
		}
		delete(fr.st.aliases, a.Value)
	}
}

// builtinShopt follows shopt -s/-u expand_aliases.
func builtinShopt(fr *frame, c *Command, args []arg) {
	on, set := false, false
	for _, a := range c.Args {
		switch a.Value {
		case "-s":
			on, set = true, true
		case "-u":
			on, set = false, true
		case "expand_aliases":
			if set {
				fr.st.expandAliases = on
				fr.st.maybeAliases = false
			}
		default:
			if o := globOptNames()[a.Value]; o != 0 && set {
				fr.st.setGlobOpt(o, on)
			}
			if !a.Literal() && set {
				fr.st.maybeAliases = true
				fr.st.globOpts |= optUnknown
			}
		}
	}
}

// aliasCall expands an alias at the first word of a command. It reports
// whether the command was replaced by the expansion (and needs nothing
// more).
func (fr *frame) aliasCall(s *syntax.Stmt, call *syntax.CallExpr, slot int) bool {
	st := fr.st
	if len(st.aliases) == 0 || len(call.Args) == 0 || !st.expandAliases && !st.maybeAliases {
		return false
	}
	w := call.Args[0]
	if len(w.Parts) != 1 {
		return false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok || strings.ContainsAny(lit.Value, "\\'\"$`") {
		return false
	}
	al := st.aliases[lit.Value]
	if al == nil || slices.Contains(fr.aliasesActive, al.name) {
		return false
	}
	at := fr.pos.of(w.Pos())
	sink := &Command{Name: al.name, Path: al.name, Dir: st.dir, Context: fr.ctx, Via: fr.via, Pos: at, Span: fr.span(s)}
	if !al.known {
		fr.emitDynamic(&Dynamic{Kind: DynAlias, Sink: sink, Known: al.value, Pos: at})
		return false
	}
	certain := st.expandAliases && !st.maybeAliases && !al.possibly && al.src == fr.src && fr.pos.exact && al.line < at.Line
	rest := ""
	if end := int(s.End().Offset()); int(w.End().Offset()) <= end && end <= len(fr.src) {
		rest = fr.src[w.End().Offset():end]
	}
	sub := fr.sub(InAlias)
	sub.aliasesActive = append(slices.Clip(fr.aliasesActive), al.name)
	sub.nest(nesting{sink: sink, via: "alias " + al.name, text: al.value + rest, pos: posMap{at: at}, kind: DynAlias, st: st, dialect: fr.dialect})
	if certain {
		fr.unreserve(slot)
		return true
	}
	return false
}
