package parse

import (
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Code bash takes from its environment, which no parse of the command line
// shows: BASH_ENV (sourced by every non-interactive bash), ENV (sourced by
// interactive sh and bash in POSIX mode), exported functions
// (BASH_FUNC_name%%=() { …; } and the older BASH_FUNC_name()), PS4 with a
// substitution (expanded under xtrace) and PROMPT_COMMAND (interactive).
// They are listed in Analysis.EnvCode.
//
// Exported functions and the BASH_ENV/ENV file are analysed, not stripped
// (tools such as bats rely on export -f): the file like source before the
// script, the functions as defined by the environment and judged where
// they are called, like the functions of a sourced file. An exported
// function stays only maybe defined (sh, dash and a bash that refuses the
// name do not import it), so a call is judged both as the function and as
// the program of that name. A value bash would import but that cannot be
// parsed, and a BASH_ENV file that cannot be read, give a DynEnvCode fact:
// what bash does with them is not known.

// isEnvCode reports whether an environment variable makes bash run code.
func isEnvCode(name, value string) bool {
	switch name {
	case "BASH_ENV", "ENV", "PROMPT_COMMAND":
		return true
	case "PS4":
		return strings.Contains(value, "$(") || strings.Contains(value, "`")
	}
	_, ok := envFuncName(name)
	return ok
}

// importEnvCode records the code-running variables of the top-level
// environment, imports its exported functions and follows the startup
// file a non-interactive shell sources.
func (fr *frame) importEnvCode() {
	env := fr.r.opts.Env
	if len(env) == 0 {
		return
	}
	var names []string
	for name, v := range env {
		if isEnvCode(name, v) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return
	}
	sort.Strings(names)
	fr.r.an.EnvCode = names
	for _, name := range names {
		if fn, ok := envFuncName(name); ok {
			fr.importFunc(fn, name, env[name], nil)
		}
	}
	name := "BASH_ENV"
	if fr.dialect == POSIX {
		name = "ENV"
	}
	fr.startupFile(nil, fr.st, name, fr.dialect, fr.st.dir)
}

// envFuncName returns the function an exported-function variable defines.
func envFuncName(name string) (string, bool) {
	fn, ok := strings.CutPrefix(name, "BASH_FUNC_")
	if !ok {
		return "", false
	}
	if f, ok := strings.CutSuffix(fn, "%%"); ok {
		fn = f
	} else if f, ok := strings.CutSuffix(fn, "()"); ok {
		fn = f
	} else {
		return "", false
	}
	return fn, fn != ""
}

// importFunc parses an exported function's value, "() { body; }", and
// defines the function as maybe defined in the frame's state. bash
// imports only a value that starts with exactly "() {" (any other value is
// a plain variable), and only if NAME VALUE parses as that one function
// definition; a value it would try that the guard cannot parse is a
// DynEnvCode fact. sink is the command whose environment held it, nil for
// the caller's.
func (fr *frame) importFunc(name, envVar, value string, sink *Command) {
	if !strings.HasPrefix(value, "() {") {
		return
	}
	at := Pos{Line: 1, Col: 1}
	if sink != nil {
		at = sink.Pos
	}
	bad := func() {
		fr.emitDynamic(&Dynamic{Kind: DynEnvCode, Sink: sink, Known: envVar, Pos: at, Span: envVar})
	}
	src := name + " " + value
	if len(value) > MaxScript/4 || checkBounds(src) != nil || strings.ContainsAny(name, " \t\n;&|<>()$`'\"\\") {
		bad()
		return
	}
	f, err := parseScript(src, Bash)
	if err != nil || len(f.Stmts) != 1 {
		bad()
		return
	}
	decl, ok := f.Stmts[0].Cmd.(*syntax.FuncDecl)
	if !ok || decl.Body == nil || decl.Name == nil || decl.Name.Value != name || len(f.Stmts[0].Redirs) > 0 {
		bad()
		return
	}
	def := &funcDef{name: name, body: decl.Body, src: src, pos: posMap{at: at}, via: []Via{{Sink: "env " + envVar, Pos: at}}, dialect: Bash, possibly: true, exported: true, envVar: envVar}
	fr.addFunc(def)
}

// startupFile follows the file a new shell sources before its code, named
// by the variable name (BASH_ENV, ENV: see startupVars): analysed like a
// sourced file, or unknown code when it cannot be read. st is the new
// shell's state; sink the command that starts it, nil for the shell
// guard-exec runs (BASH_ENV for bash, ENV for sh: followed whether or not
// it is interactive).
func (fr *frame) startupFile(sink *Command, st *state, name string, d Dialect, dir string) {
	vr := st.lookup(name)
	v, set := vr.value()
	if !vr.known || !set || v == "" {
		return // unknown (a remote shell's environment): nothing to follow
	}
	at := Pos{Line: 1, Col: 1}
	if sink != nil {
		at = sink.Pos
	}
	text, ok, _ := fr.readScript(dir, v)
	if !ok {
		fr.emitDynamic(&Dynamic{Kind: DynEnvCode, Sink: sink, Known: name + "=" + v, Pos: at, Span: name + "=" + v})
		return
	}
	pos, file := fr.diskFile(dir, v, at)
	fr.nest(nesting{sink: sink, via: name, text: text, pos: pos, kind: DynSource, st: st, dialect: d, user: fr.user, file: file})
}

// childEnvFuncs imports the exported functions a command gives a new
// shell in its own environment (env 'BASH_FUNC_ls%%=() { …; }' bash -c ls);
// those of the caller's environment are already in the state.
func (fr *frame) childEnvFuncs(c *Command, st *state) {
	for _, a := range c.Assigns {
		fn, ok := envFuncName(a.Name)
		if !ok {
			continue
		}
		if strings.Contains(a.Value.Value, Unknown) {
			if v := a.Value.Value; strings.HasPrefix(v, "() {") || strings.HasPrefix(v, Unknown) {
				fr.emitDynamic(&Dynamic{Kind: DynEnvCode, Sink: c, Known: a.Name, Pos: c.Pos})
			}
			continue
		}
		sub := *fr
		sub.st = st
		sub.importFunc(fn, a.Name, a.Value.Value, c)
	}
}
