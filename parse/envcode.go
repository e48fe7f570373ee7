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
// They are listed in Analysis.EnvCode for the runner to remove; exported
// functions are also analysed, as maybe defined (the runner strips them,
// so a call may reach the program instead).

// isEnvCode reports whether an environment variable makes bash run code.
func isEnvCode(name, value string) bool {
	switch name {
	case "BASH_ENV", "ENV", "PROMPT_COMMAND":
		return true
	case "PS4":
		return strings.Contains(value, "$(") || strings.Contains(value, "`")
	}
	return strings.HasPrefix(name, "BASH_FUNC_") && (strings.HasSuffix(name, "%%") || strings.HasSuffix(name, "()"))
}

// importEnvCode records the code-running variables of the top-level
// environment and imports its exported functions.
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
			fr.importFunc(fn, name, env[name])
		}
	}
}

func envFuncName(name string) (string, bool) {
	if !strings.HasPrefix(name, "BASH_FUNC_") {
		return "", false
	}
	fn := strings.TrimPrefix(name, "BASH_FUNC_")
	fn = strings.TrimSuffix(strings.TrimSuffix(fn, "%%"), "()")
	return fn, fn != ""
}

// importFunc parses an exported function's value, "() { body; }", and
// defines the function as maybe defined.
func (fr *frame) importFunc(name, envVar, value string) {
	if !strings.HasPrefix(strings.TrimSpace(value), "()") || len(value) > MaxScript/4 {
		return
	}
	src := "f" + strings.TrimSpace(value)
	if checkBounds(src) != nil {
		return
	}
	f, err := parseScript(src, Bash)
	if err != nil || len(f.Stmts) != 1 {
		return
	}
	decl, ok := f.Stmts[0].Cmd.(*syntax.FuncDecl)
	if !ok || decl.Body == nil {
		return
	}
	def := &funcDef{name: name, body: decl.Body, src: src, pos: posMap{at: Pos{}}, via: []Via{{Sink: "env " + envVar}}, dialect: Bash, possibly: true, exported: true, envVar: envVar}
	fr.addFunc(def)
}
