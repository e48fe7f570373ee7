package parse

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// funcDef is a function the script defined, with where its body's text
// came from so that it can be analysed where it is called.
type funcDef struct {
	name    string
	body    *syntax.Stmt
	src     string
	pos     posMap
	via     []Via
	dialect Dialect
	// possibly is set when the function is defined only on some paths
	// (inside an if, or from the environment, which the runner strips):
	// a call may run it or a program of the same name.
	possibly bool
	exported bool
	orig     *funcDef
	maybeDef *funcDef
	expDef   *funcDef
	// envVar names the environment variable it came from, if any.
	envVar string
	// file is the file read from disk that defined it, if any.
	file string
}

func (f *funcDef) origin() *funcDef {
	if f.orig != nil {
		return f.orig
	}
	return f
}

func (f *funcDef) maybe() *funcDef {
	if f.possibly {
		return f
	}
	if f.maybeDef == nil {
		c := *f
		c.possibly, c.orig, c.maybeDef = true, f.origin(), nil
		f.maybeDef = &c
	}
	return f.maybeDef
}

func (f *funcDef) withExport() *funcDef {
	if f.exported {
		return f
	}
	if f.expDef == nil {
		c := *f
		c.exported, c.orig, c.expDef = true, f.origin(), nil
		f.expDef = &c
	}
	return f.expDef
}

// defineFunc records a function definition.
func (fr *frame) defineFunc(d *syntax.FuncDecl) {
	if d.Name == nil || d.Body == nil {
		return
	}
	name := d.Name.Value
	f := &funcDef{name: name, body: d.Body, src: fr.src, pos: fr.pos, via: fr.via, dialect: fr.dialect, file: fr.file}
	fr.addFunc(f)
}

func (fr *frame) addFunc(f *funcDef) {
	if fr.st.funcs == nil {
		fr.st.funcs = make(map[string]*funcDef)
	}
	fr.st.funcs[f.name] = f
	r := fr.r
	if r.quiet == 0 {
		if r.funcSeen == nil {
			r.funcSeen = make(map[string]bool)
		}
		if !r.funcSeen[f.name] {
			r.funcSeen[f.name] = true
			r.an.Functions = append(r.an.Functions, f.name)
		}
		r.defined = append(r.defined, f)
	}
}

// function returns the function a command calls, if any. Only a plain
// name finds one: sudo, env, command, exec … run programs, and a name
// with a slash is a path.
func (fr *frame) function(c *Command) *funcDef {
	if len(fr.st.funcs) == 0 || c.Path != c.Name {
		return nil
	}
	for _, w := range c.Wrappers {
		if w != "time" {
			return nil
		}
	}
	return fr.st.funcs[c.Name]
}

// definesFunc reports whether name, after the wrappers c has so far,
// surely calls a function the script defined: a plain name, reached only
// through the time keyword (sudo, env, command, exec … run programs).
func (fr *frame) definesFunc(c *Command, name string) bool {
	if len(fr.st.funcs) == 0 || strings.Contains(name, "/") {
		return false
	}
	for _, w := range c.Wrappers {
		if w != "time" {
			return false
		}
	}
	f := fr.st.funcs[name]
	return f != nil && !f.possibly
}

// callFunc analyses a function's body at its call: in this shell, with
// the call's arguments as positional parameters, its input and
// redirections. A call from inside the same function is not followed
// again; it is marked Recursive.
// funcDepthFactor is how many times deeper than MaxDepth function calls may nest.
const funcDepthFactor = 4

func (fr *frame) callFunc(f *funcDef, c *Command, args []arg) {
	c.Function = !f.possibly
	o := f.origin()
	for _, a := range fr.active {
		if a.origin() == o {
			c.Recursive = true
			if c.Context&(InPipeline|InBackground) != 0 {
				fr.r.an.ForkBomb = fr.r.an.ForkBomb || fr.r.quiet == 0
			}
			return
		}
	}
	// Calls nest deeper than scripts do (bats' failure trace is eight
	// functions deep); the work budget bounds them all the same.
	if fr.depth+1 > funcDepthFactor*fr.r.maxDepth {
		fr.emitDynamic(&Dynamic{Kind: DynTooDeep, Sink: c, Known: "function " + f.name, Pos: c.Pos})
		return
	}
	if !fr.spend(5, c.Pos) {
		return
	}
	if fr.r.quiet == 0 {
		if fr.r.called == nil {
			fr.r.called = make(map[*syntax.Stmt]bool)
		}
		fr.r.called[o.body] = true
	}
	st := fr.st
	savedArgs, savedKnown := st.args, st.argsKnown
	st.args = append([]string{argZero(st)}, values(args[1:])...)
	st.argsKnown = true
	savedLocals := st.locals
	st.locals = map[string]*variable{}
	// Prefix assignments hold during the call only.
	restore := map[string]*variable{}
	for _, a := range c.Assigns {
		if _, done := restore[a.Name]; !done {
			restore[a.Name] = st.vars[a.Name]
		}
		st.set(a.Name, strVar(a.Value.Value, true))
	}
	via := slices.Clip(fr.via)
	if f.envVar != "" {
		via = append(via, Via{Sink: "env " + f.envVar, Pos: c.Pos})
	}
	body := &frame{
		r: fr.r, src: f.src, pos: f.pos, depth: fr.depth + 1,
		via:     append(via, Via{Sink: "function " + f.name, Pos: c.Pos}),
		ctx:     fr.ctx | InFunction,
		st:      st,
		stdin:   c.Stdin,
		redirs:  c.Redirs,
		remote:  fr.remote,
		user:    fr.user,
		active:  append(slices.Clip(fr.active), f),
		partial: fr.partial,
		dialect: f.dialect,
		file:    f.file,
	}
	body.walkStmt(f.body)
	st.dead = false // return ends the function, not the script
	for name, old := range st.locals {
		st.restoreVar(name, old)
	}
	for name, old := range restore {
		st.restoreVar(name, old)
	}
	st.locals = savedLocals
	if !st.poisoned {
		st.args, st.argsKnown = savedArgs, savedKnown
	}
}

func (s *state) restoreVar(name string, old *variable) {
	if s.poisoned {
		return
	}
	if old == nil {
		delete(s.vars, name)
		return
	}
	s.vars[name] = old
}

// declareLocal records a local declaration inside a function call.
func (s *state) declareLocal(name string) {
	if s.locals == nil {
		return // local outside a function: an error in bash
	}
	if _, done := s.locals[name]; !done {
		s.locals[name] = s.vars[name]
	}
}

// finish analyses what was never called, and closes the analysis.
func (r *root) finish(top *frame) {
	top.runExitTraps()
	r.uncalled(top)
	r.an.Commands = slices.DeleteFunc(r.an.Commands, func(c *Command) bool { return c == nil })
}

// uncalled analyses the bodies of functions the script defines but never
// calls: nothing in the text runs them, but something outside it might
// (an exported function, a trap set elsewhere), so their commands are
// reported with InUncalled.
//
// Functions that come from a file on disk (a sourced file, a shell
// snapshot, BASH_ENV) or from the environment (BASH_FUNC_name%%) are not:
// such a file is a library of functions of which a command uses a few —
// Claude Code sources a capture of the user's whole shell before every
// command — so they are judged where they are called, and a risky one
// the command never calls blocks nothing. bash calls
// command_not_found_handle by itself, so it is always judged.
func (r *root) uncalled(top *frame) {
	for i := 0; i < len(r.defined); i++ {
		f := r.defined[i]
		if r.called[f.body] {
			continue
		}
		if (f.file != "" || f.envVar != "") && f.name != "command_not_found_handle" {
			continue
		}
		if r.called == nil {
			r.called = make(map[*syntax.Stmt]bool)
		}
		r.called[f.body] = true
		st := top.st.clone()
		st.args, st.argsKnown = nil, false
		st.dead = false
		ctx := InFunction | InUncalled
		if f.name == "command_not_found_handle" {
			ctx = InFunction // bash calls it for any command it cannot find
		}
		body := &frame{
			r: r, src: f.src, pos: f.pos, depth: 1,
			via:     append(slices.Clip(f.via), Via{Sink: "function " + f.name, Pos: f.pos.of(f.body.Pos())}),
			ctx:     ctx,
			st:      st,
			active:  []*funcDef{f},
			dialect: f.dialect,
			file:    f.file,
		}
		st.locals = map[string]*variable{}
		body.walkStmt(f.body)
	}
}
