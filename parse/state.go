package parse

import (
	"maps"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
)

// state is what the shell knows at a point of the script: its variables,
// working directory, functions and aliases. Subshells, pipeline stages and
// command substitutions work on a clone, so their changes do not leak, as
// in bash. Paths that run only conditionally are merged afterwards: what
// differs between the paths becomes unknown.
type state struct {
	// vars are the variables the script set (or unset) in this shell.
	vars map[string]*variable
	// base is the environment the shell started with; exact when
	// baseKnown, else names missing from it are unknown.
	base      map[string]string
	baseKnown bool
	// dir is the working directory; "" when unknown.
	dir      string
	dirStack []string
	// dirPart is, while dir is unknown after a cd to a partly known
	// absolute path ("$TMPDIR/glob-test-$$"), that path with Unknown for
	// what is not known; dirMade is set while the directory is one the
	// script made itself (cd "$tmp" after tmp=$(mktemp -d)). See
	// Command.DirPart.
	dirPart string
	dirMade bool
	funcs   map[string]*funcDef
	aliases map[string]*aliasDef
	// expandAliases is whether bash expands aliases: off in a
	// non-interactive bash until shopt -s expand_aliases, always on in
	// POSIX sh. maybeAliases is set when it is on only on some paths.
	expandAliases, maybeAliases bool
	// args are the positional parameters, args[0] being $0; Unknown marks
	// unknown ones. argsKnown is false when not even their number is.
	args      []string
	argsKnown bool
	// poisoned is set once code the analysis cannot see ran in this shell
	// (eval of dynamic text, source of an unknown file): any variable,
	// the directory and the functions may have changed.
	poisoned bool
	// prior is, once poisoned, what the shell knew just before the unseen
	// code ran, with what the script set since laid over it: the values a
	// word would have if that code left them alone (assumed.go).
	prior *state
	// dead is set after exit, return or exec: nothing after it runs on
	// this path. Merges ignore dead paths; analysis goes on regardless.
	dead bool
	// locals collects the names a function call declared local, to
	// restore when the call returns.
	locals map[string]*variable
	// attrs are the attributes that change what an assignment stores
	// (declare -i, -l, -u, -c), by name; "?" when they differ between
	// the paths that reach this point.
	attrs map[string]string
	// flagged are the names that may carry attributes that change no
	// value (readonly, trace): ${X@a} and ${X@A} of them are unknown.
	flagged map[string]bool
	// globOpts are the shell options that change glob expansion
	// (dotglob, nullglob, set -f …), as bits; optUnknown when not known.
	globOpts uint8
}

// variable is one shell variable as far as it is known.
type variable struct {
	// known is false when the value cannot be known; v is then unused.
	known bool
	v     expand.Variable
	// pattern is set when the value stands for a filename matched by a
	// pattern (the variable of "for f in *.log"): expansions of it are
	// globs.
	pattern  bool
	exported bool
	// feeders are the commands whose output went into the value
	// (X=$(cat key)): they reach whatever the variable is expanded in.
	feeders []*Command
	// made is set while the value names a path the script made itself,
	// and absent while it names a path the script found missing (made.go).
	made, absent bool
	// madeIn is, for a made path that is not all known (so perhaps
	// relative), the directory it was made from once the shell has left
	// it; "" while the shell is still there. It is the script's own path
	// again when the shell returns (cd "$OLDPWD").
	madeIn string
	// nameHoles is set on a known value whose unknown parts are only
	// mktemp's random characters (letters and digits), or values bash
	// gives without a slash or blank ($$, $RANDOM: builtins.go's
	// holeParam): it splits and parses as its known parts say, so code
	// built from it is known in all but a file name (trap "rm -rf $tmp"
	// EXIT), and a cd to it stays below its known directory.
	nameHoles bool
	// stale is set on a value unknown only because, on some path that
	// reaches here, unseen code ran and the script did not set it since:
	// the assumed state (assumed.go) keeps the value it had before.
	stale bool
	// alts are, for a value unknown because the paths that reach here set
	// it differently, the values it has on those paths (at most maxAlts,
	// sorted; Unknown inside where a path's value holds an unknown part):
	// a write to it is judged by each (alts.go).
	alts []string
}

var unknownVar = &variable{}

func (s *state) clone() *state {
	c := *s
	c.vars = maps.Clone(s.vars)
	c.dirStack = slices.Clone(s.dirStack)
	c.funcs = maps.Clone(s.funcs)
	c.aliases = maps.Clone(s.aliases)
	c.args = slices.Clone(s.args)
	// A clone that becomes the function's state again (after a loop, an
	// && list, a branch) must still restore the locals declared so far.
	c.locals = maps.Clone(s.locals)
	c.attrs = maps.Clone(s.attrs)
	c.flagged = maps.Clone(s.flagged)
	return &c
}

// bashSets names variables bash sets itself, whatever the environment:
// their values are not known statically.
var bashSets = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"BASH": true, "BASHPID": true, "BASHOPTS": true, "BASH_ARGC": true, "BASH_ARGV": true,
		"BASH_COMMAND": true, "BASH_LINENO": true, "BASH_SOURCE": true, "BASH_SUBSHELL": true,
		"BASH_VERSINFO": true, "BASH_VERSION": true, "EPOCHREALTIME": true, "EPOCHSECONDS": true,
		"EUID": true, "FUNCNAME": true, "GROUPS": true, "HOSTNAME": true, "HOSTTYPE": true,
		"MACHTYPE": true, "OSTYPE": true, "PIPESTATUS": true, "PPID": true, "RANDOM": true,
		"SECONDS": true, "SHELLOPTS": true, "SHLVL": true, "SRANDOM": true, "UID": true,
		"LINENO": true, "REPLY": true, "OPTARG": true, "OPTIND": true, "COLUMNS": true, "LINES": true,
		"HISTCMD": true, "DIRSTACK": true, "MAPFILE": true, "COPROC": true,
	}
})

// lookup returns what is known of a variable.
func (s *state) lookup(name string) *variable {
	if v, ok := s.vars[name]; ok {
		return v
	}
	if name == "PWD" {
		if s.dir == "" {
			return unknownVar
		}
		return strVar(s.dir, true)
	}
	if s.poisoned {
		return unknownVar
	}
	switch name {
	case "IFS":
		// bash ignores an IFS from the environment and starts with the
		// default (verified: IFS=x bash -c 'echo "$IFS"').
		return strVar(" \t\n", false)
	}
	if bashSets()[name] {
		return unknownVar
	}
	if v, ok := s.base[name]; ok {
		return strVar(v, true)
	}
	if s.baseKnown {
		return &variable{known: true}
	}
	return unknownVar
}

func strVar(v string, exported bool) *variable {
	return &variable{known: true, v: expand.Variable{Set: true, Kind: expand.String, Str: v}, exported: exported}
}

// value returns a variable's string value, with Unknown for unknown
// values, and whether it is set.
func (v *variable) value() (string, bool) {
	if !v.known {
		return Unknown, true
	}
	if !v.v.Set {
		return "", false
	}
	switch v.v.Kind {
	case expand.Indexed:
		if len(v.v.List) == 0 {
			return "", true
		}
		return v.v.List[0], true
	case expand.Associative:
		return v.v.Map["0"], true
	}
	return v.v.Str, true
}

// set assigns a variable in this shell. An attribute of the name
// (declare -l, -u, -c, -i) applies to the value, as bash applies it to
// every assignment.
func (s *state) set(name string, v *variable) {
	if a := s.attrs[name]; a != "" && v.known && v.v.Set {
		v = withAttrs(v, a)
	}
	s.rawSet(name, v)
}

// rawSet sets a variable as it is, attributes not applied: for a change
// of flags only (export X keeps X's value).
func (s *state) rawSet(name string, v *variable) {
	if s.vars == nil {
		s.vars = make(map[string]*variable)
	}
	if old := s.vars[name]; old != nil && old.exported {
		v.exported = true
	} else if _, inBase := s.base[name]; inBase && !v.exported {
		v.exported = true // variables from the environment stay exported
	}
	s.vars[name] = v
}

// attrsOf returns the value attributes of a name.
func (s *state) attrsOf(name string) string { return s.attrs[name] }

// setAttrs changes the value attributes of a name by declare's options
// as written, signs included ("-l" sets l and clears u and c, "+i"
// clears i).
func (s *state) setAttrs(name, flags string) {
	a := s.attrs[name]
	if a == "?" {
		return
	}
	on := true
	for _, f := range flags {
		switch {
		case f == '-' || f == '+':
			on = f == '-'
			continue
		case !strings.ContainsRune("iluc", f):
			continue
		}
		a = strings.ReplaceAll(a, string(f), "")
		if on && f != 'i' {
			// -l, -u and -c exclude one another: the last one wins.
			a = strings.Trim(a, "luc")
		}
		if on {
			a += string(f)
		}
	}
	if a == s.attrs[name] {
		return
	}
	if s.attrs == nil {
		s.attrs = make(map[string]string)
	}
	s.attrs[name] = a
}

// withAttrs applies value attributes to a known value: case changes of
// ASCII text; an integer attribute keeps only a plain decimal number.
// What is not modelled (arithmetic, non-ASCII case) is unknown.
func withAttrs(v *variable, attrs string) *variable {
	if attrs == "?" {
		return &variable{exported: v.exported, feeders: v.feeders}
	}
	conv := func(s string) (string, bool) {
		if hasUnknown(s) || !isASCII(s) {
			return "", false
		}
		for _, a := range attrs {
			switch a {
			case 'i':
				if !isDecimal(s) {
					return "", false
				}
			case 'l':
				s = strings.ToLower(s)
			case 'u':
				s = strings.ToUpper(s)
			case 'c':
				s = strings.ToLower(s)
				if s != "" {
					s = strings.ToUpper(s[:1]) + s[1:]
				}
			}
		}
		return s, true
	}
	nv := *v
	switch v.v.Kind {
	case expand.String:
		s, ok := conv(v.v.Str)
		if !ok {
			return &variable{exported: v.exported, feeders: v.feeders}
		}
		nv.v.Str = s
	case expand.Indexed:
		nv.v.List = make([]string, len(v.v.List))
		for i, el := range v.v.List {
			s, ok := conv(el)
			if !ok {
				return &variable{exported: v.exported, feeders: v.feeders}
			}
			nv.v.List[i] = s
		}
	default:
		return &variable{exported: v.exported, feeders: v.feeders}
	}
	return &nv
}

func isDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// forgetBut makes a variable unknown after a merge of paths where it was a and
// b, keeping that it names a path the script made when it does on both.
func (s *state) forgetBut(name string, a, b *variable) {
	stale := a == unknownVar || b == unknownVar || a.stale || b.stale
	made := a.made && b.made && a.madeIn == b.madeIn
	s.set(name, &variable{made: made, madeIn: a.madeIn, absent: a.absent && b.absent, stale: stale, alts: joinAlts(a, b)})
}

// widen makes plainly unknown, without the values collected on the way
// (alts), every variable whose value differs from prev's: the step that lets
// a loop's state settle when an iteration keeps adding values.
func (s *state) widen(prev *state) {
	for name, v := range s.vars {
		if old := prev.lookup(name); !sameVar(old, v) {
			s.set(name, &variable{exported: v.exported || old.exported})
		}
	}
}

// forget makes a variable unknown.
func (s *state) forget(name string) {
	s.set(name, &variable{})
}

// exported returns the environment a child process of this shell starts
// with, and whether it is exact. The map may be s.base itself, which is
// never written: copy it before changing it.
func (s *state) exported() (map[string]string, bool) {
	if !s.poisoned && s.envUnchanged() {
		// The usual case (find -exec, sh -c, python -c in a script that
		// exports nothing): copying the caller's whole environment for
		// every nested program was a tenth of analysing such lines.
		return s.base, s.baseKnown
	}
	return s.buildExported()
}

// buildExported builds the environment of a child process afresh.
func (s *state) buildExported() (map[string]string, bool) {
	if s.poisoned {
		return nil, false
	}
	env := make(map[string]string, len(s.base)+len(s.vars))
	known := s.baseKnown
	for k, v := range s.base {
		env[k] = v
	}
	for k, v := range s.vars {
		switch {
		case !v.exported:
			if _, inBase := s.base[k]; inBase && v.known && !v.v.Set {
				delete(env, k) // unset
			}
		case !v.known:
			env[k] = Unknown
		case v.v.Set:
			val, _ := v.value()
			env[k] = val
		default:
			delete(env, k)
		}
	}
	if s.dir != "" {
		env["PWD"] = s.dir
	}
	return env, known
}

// envUnchanged reports whether the environment exported builds is s.base
// as it is: no variable of this shell changes it, and PWD already names
// the directory. It may say no when the change is only apparent.
func (s *state) envUnchanged() bool {
	if s.dir != "" {
		if pwd, ok := s.base["PWD"]; !ok || pwd != s.dir {
			return false
		}
	}
	for k, v := range s.vars {
		bv, inBase := s.base[k]
		switch {
		case !v.exported:
			if inBase && v.known && !v.v.Set {
				return false // unset
			}
		case !v.known:
			return false
		case v.v.Set:
			if val, _ := v.value(); !inBase || val != bv {
				return false
			}
		default:
			if inBase {
				return false // exported but not set: not in the environment
			}
		}
	}
	return true
}

// merge makes s the join of s and o, two states the same point can be
// reached in: whatever differs becomes unknown. A dead path contributes
// nothing.
func (s *state) merge(o *state) {
	switch {
	case o.dead:
		return
	case s.dead:
		*s = *o.clone()
		return
	}
	if s.prior != nil || o.prior != nil {
		ps, po := s.assumed(), o.assumed()
		if ps != nil && po != nil {
			ps.merge(po)
			s.prior = ps
		} else {
			s.prior = nil
		}
	}
	if s.poisoned || o.poisoned {
		s.poisoned = true
	}
	for name, v := range o.vars {
		if !sameVar(s.lookup(name), v) {
			s.forgetBut(name, s.lookup(name), v)
		}
	}
	for name, v := range s.vars {
		if _, ok := o.vars[name]; !ok && !sameVar(v, o.lookup(name)) {
			s.forgetBut(name, v, o.lookup(name))
		}
	}
	if s.dir != o.dir {
		s.dir = ""
	}
	if s.dirPart != o.dirPart || s.dir != "" {
		s.dirPart = ""
	}
	s.dirMade = s.dirMade && o.dirMade && s.dir == ""
	if !slices.Equal(s.dirStack, o.dirStack) {
		s.dirStack = nil
	}
	for name, f := range o.funcs {
		if g := s.funcs[name]; g != f {
			if s.funcs == nil {
				s.funcs = make(map[string]*funcDef)
			}
			s.funcs[name] = f.maybe()
		}
	}
	for name, f := range s.funcs {
		if o.funcs[name] != f {
			s.funcs[name] = f.maybe()
		}
	}
	// A local declared on either path is restored when the call returns.
	for name, v := range o.locals {
		if _, ok := s.locals[name]; !ok && s.locals != nil {
			s.locals[name] = v
		}
	}
	for name, al := range o.aliases {
		if s.aliases[name] != al {
			if s.aliases == nil {
				s.aliases = make(map[string]*aliasDef)
			}
			s.aliases[name] = al.maybe()
		}
	}
	for name, al := range s.aliases {
		if o.aliases[name] != al {
			s.aliases[name] = al.maybe()
		}
	}
	if s.globOpts != o.globOpts {
		s.globOpts |= optUnknown
	}
	if s.expandAliases != o.expandAliases {
		s.expandAliases, s.maybeAliases = true, true
	}
	s.maybeAliases = s.maybeAliases || o.maybeAliases
	if s.argsKnown != o.argsKnown || !slices.Equal(s.args, o.args) {
		s.args, s.argsKnown = nil, false
	}
	for name, a := range o.attrs {
		if s.attrs[name] != a {
			if s.attrs == nil {
				s.attrs = make(map[string]string)
			}
			s.attrs[name] = "?"
		}
	}
	for name, a := range s.attrs {
		if o.attrs[name] != a {
			s.attrs[name] = "?"
		}
	}
	for name := range o.flagged {
		s.flag(name)
	}
}

// flag notes that name may carry an attribute the analysis does not model.
func (s *state) flag(name string) {
	if s.flagged == nil {
		s.flagged = make(map[string]bool)
	}
	s.flagged[name] = true
}

// equal reports whether merging o into s would change nothing.
func (s *state) equal(o *state) bool {
	if s.dead != o.dead || s.poisoned != o.poisoned || s.dir != o.dir || s.dirPart != o.dirPart || s.dirMade != o.dirMade || len(s.vars) != len(o.vars) || !maps.Equal(s.attrs, o.attrs) || s.globOpts != o.globOpts {
		return false
	}
	for name, v := range s.vars {
		if w, ok := o.vars[name]; !ok || !sameVar(v, w) {
			return false
		}
	}
	return maps.Equal(s.funcs, o.funcs) && s.argsKnown == o.argsKnown && slices.Equal(s.args, o.args)
}

func sameVar(a, b *variable) bool {
	if a == b || !a.known && !b.known && a.made == b.made && a.madeIn == b.madeIn && a.absent == b.absent && slices.Equal(a.alts, b.alts) {
		return true // unknown is unknown
	}
	if !a.known || !b.known {
		return false
	}
	if a.v.Set != b.v.Set || a.v.Kind != b.v.Kind || a.pattern != b.pattern || a.made != b.made || a.madeIn != b.madeIn || a.absent != b.absent || a.nameHoles != b.nameHoles {
		return false
	}
	return a.v.Str == b.v.Str && slices.Equal(a.v.List, b.v.List) && maps.Equal(a.v.Map, b.v.Map)
}

// poison records that unseen code ran in this shell.
func (s *state) poison() {
	s.prior = s.assumed()
	s.poisoned = true
	s.dir, s.dirPart, s.dirMade = "", "", false
	s.dirStack = nil
	s.vars = nil
	s.args, s.argsKnown = nil, false
	s.globOpts |= optUnknown
}

// hasUnknown reports whether a value holds an unknown part.
func hasUnknown(s string) bool { return strings.Contains(s, Unknown) }

// poisonVars records that unseen code ran in this shell but, unlike
// poison, keeps the directory: used for a sourced file that cannot be
// read (". venv/bin/activate"), which sets variables and functions but
// rarely changes directory.

func (s *state) poisonVars() {
	dir, part, made, stack := s.dir, s.dirPart, s.dirMade, s.dirStack
	s.poison()
	s.dir, s.dirPart, s.dirMade, s.dirStack = dir, part, made, stack
}

// poisonCode is poison for code that cannot be seen (eval of unknown text, a
// sourced file that cannot be read), unlike data read into an unknown name
// (`read "$X"`): the variables the shell knew keep their values. The code may
// change them, but what runs after it is judged as the script wrote it (bats
// removes its own output file after sourcing the test file it runs, and after
// an eval that builds an array), and the code itself could do anything, which
// it is warned or held for. Variables the shell did not set are unknown.
// keepDir keeps the directory too, as poisonVars does.
func (s *state) poisonCode(keepDir bool) {
	vars := s.vars
	if keepDir {
		s.poisonVars()
	} else {
		s.poison()
	}
	for name, v := range vars {
		if v.known {
			s.set(name, v)
		}
	}
}

func indexed(list []string) expand.Variable {
	return expand.Variable{Set: true, Kind: expand.Indexed, List: list}
}
