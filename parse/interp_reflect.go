package parse

import "strings"

// Reflective calls name the function they call by a string, a symbol or
// a reference, and call it later or through another function; they are
// spelled back as the direct call they make before the scanner reads the
// tokens, so the process and file APIs are found whichever way they are
// called:
//
//   - Ruby: RECV.send(:name, ARGS) (public_send, __send__, and send
//     without a receiver) is RECV.name(ARGS); method(:name).call(ARGS)
//     (and RECV.method(:name), .call or .()) is name(ARGS).
//   - Perl: &{\&NAME}(ARGS), &$f(ARGS), &{$f}(ARGS) and $f->(ARGS) are
//     NAME(ARGS) or $f(ARGS); \&NAME is NAME, so $f = \&CORE::system
//     binds $f as the scanner binds f = os.system.
//   - JavaScript: import("m") is require("m"), await is passed over,
//     OBJ["name"] is OBJ.name, and the parameter of a .then callback on
//     a module (import("m").then(m => …), .then(({execSync}) => …)) is
//     that module or its functions (callScanner.thenParams).
//   - Python: MOD.__dict__["name"] is MOD.name, and getattr(MOD, "name")
//     as a value is MOD.name (the scanner's term), as getattr(MOD,
//     "name")(ARGS) called at once already was.

// desugar returns toks with the reflective calls of lang spelled as
// direct ones.
func desugar(toks []tok, lang langID) []tok {
	switch lang {
	case langRuby, langPerl, langJS, langPython:
	default:
		return toks
	}
	out := make([]tok, 0, len(toks))
	in := func(i int) bool { return i >= 0 && i < len(toks) }
	at := func(i int) tok {
		if in(i) {
			return toks[i]
		}
		return tok{kind: tPunct}
	}
	punct := func(i int, s string) bool { t := at(i); return in(i) && t.kind == tPunct && t.s == s }
	ident := func(i int) bool { return in(i) && toks[i].kind == tIdent }
	// symbol reads :name or "name" at i (Ruby): the name and the index
	// after it.
	symbol := func(i int) (string, int, bool) {
		if punct(i, ":") && ident(i+1) {
			return toks[i+1].s, i + 2, true
		}
		if t := at(i); in(i) && t.kind == tStr && isIdentName(t.s) {
			return t.s, i + 1, true
		}
		return "", 0, false
	}
	// termStart reports whether the token before i ends no operand, so
	// an & at i is a call sigil, not a bitwise and.
	termStart := func(i int) bool {
		if i == 0 {
			return true
		}
		p := toks[i-1]
		return p.kind == tPunct && p.s != ")" && p.s != "]" && p.s != "}" || p.kind == tIdent && (p.s == "return" || p.s == "and" || p.s == "or" || p.s == "not")
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch lang {
		case langRuby:
			// RECV.send(:name, …) / send(:name, …)
			if t.kind == tIdent && (t.s == "send" || t.s == "public_send" || t.s == "__send__") && punct(i+1, "(") {
				if name, j, ok := symbol(i + 2); ok {
					out = append(out, tok{kind: tIdent, s: name, nl: t.nl}, tok{kind: tPunct, s: "("})
					if punct(j, ",") {
						j++
					}
					i = j - 1
					continue
				}
			}
			// method(:name).call(…) / method(:name).(…)
			if t.kind == tIdent && t.s == "method" && punct(i+1, "(") {
				if name, j, ok := symbol(i + 2); ok && punct(j, ")") && punct(j+1, ".") {
					k := j + 2
					if ident(k) && toks[k].s == "call" {
						k++
					}
					if punct(k, "(") {
						out = append(out, tok{kind: tIdent, s: name, nl: t.nl}, tok{kind: tPunct, s: "("})
						i = k
						continue
					}
				}
			}
		case langPerl:
			// &{\&NAME}(…) and &{$f}(…)
			if t.kind == tPunct && t.s == "&" && termStart(i) && punct(i+1, "{") {
				k := i + 2
				if punct(k, "\\") && punct(k+1, "&") {
					k += 2
				}
				if ident(k) {
					end := k + 1
					for punct(end, "::") && ident(end+1) {
						end += 2
					}
					if punct(end, "}") {
						out = append(out, toks[k:end]...)
						i = end
						continue
					}
				}
			}
			// &$f(…), \&NAME
			if t.kind == tPunct && (t.s == "&" && termStart(i) && ident(i+1) && strings.HasPrefix(at(i+1).s, "$") ||
				t.s == "\\" && punct(i+1, "&") && ident(i+2)) {
				if t.s == "\\" {
					i++
				}
				continue
			}
			// $f->(…)
			if t.kind == tPunct && t.s == "->" && punct(i+1, "(") && i > 0 && toks[i-1].kind == tIdent && strings.HasPrefix(toks[i-1].s, "$") {
				continue
			}
		case langPython:
			// MOD.__dict__["name"]
			if t.kind == tIdent && t.s == "__dict__" && punct(i-1, ".") && punct(i+1, "[") && at(i+2).kind == tStr && isIdentName(at(i+2).s) && punct(i+3, "]") {
				out = append(out, tok{kind: tIdent, s: at(i + 2).s})
				i += 3
				continue
			}
		case langJS:
			if t.kind == tIdent && t.s == "await" {
				continue
			}
			// import("m"): the dynamic import, a module as require gives.
			if t.kind == tIdent && t.s == "import" && punct(i+1, "(") && (i == 0 || !punct(i-1, ".")) {
				out = append(out, tok{kind: tIdent, s: "require", nl: t.nl})
				continue
			}
			// OBJ["name"]
			if t.kind == tPunct && t.s == "[" && i > 0 && (toks[i-1].kind == tIdent || punct(i-1, ")")) && at(i+1).kind == tStr && isIdentName(at(i+1).s) && punct(i+2, "]") {
				out = append(out, tok{kind: tPunct, s: "."}, tok{kind: tIdent, s: at(i + 1).s})
				i += 2
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

// isIdentName reports whether s is a plain identifier.
func isIdentName(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentChar(s[i]) {
			return false
		}
	}
	return true
}

// thenParams reads the callback of MODULE.then( at i, just after its
// "(": its parameter is the module (m => …, (m) => …, function (m) …)
// and a destructured one its functions (({execSync: run}) => …). It
// returns the index of the callback's body, or i when there is none.
func (sc *callScanner) thenParams(mod string, i int) int {
	j := i
	if sc.at(j).kind == tIdent && sc.at(j).s == "function" {
		j++
		if sc.at(j).kind == tIdent {
			j++ // its name
		}
	}
	paren := sc.isPunct(j, "(")
	if paren {
		j++
	}
	switch {
	case sc.at(j).kind == tIdent:
		sc.alias(sc.at(j).s, mod)
		j++
	case sc.isPunct(j, "{"):
		j = sc.aliasList(j+1, mod, func(t tok) bool { return t.kind == tPunct && t.s == ":" })
		if !sc.isPunct(j, "}") {
			return i
		}
		j++
	default:
		return i
	}
	if paren {
		if !sc.isPunct(j, ")") {
			return i
		}
		j++
	}
	if sc.isPunct(j, "=>") {
		j++
	}
	return j
}
