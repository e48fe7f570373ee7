package parse

import (
	"strings"
)

// Code bash runs later from variables the command line sets: the prompt
// strings (PS0, PS1, PS2 and PS4, expanded like an unquoted heredoc body
// before each prompt, command or traced line, so a $(…) in them runs) and
// PROMPT_COMMAND (run before each prompt of an interactive shell), set in
// this shell or for a command (PS4='$(…)' bash -xc …). Their values are
// analysed as code where they are set, whether or not a prompt or a trace
// follows: a later interactive shell, set -x or bash -x runs them. History
// that fc re-runs is code too: what history -s added, the HISTFILE the
// line names when it can be read, and for the rest unknown code.

// promptString reports a variable bash expands as a prompt.
func promptString(name string) bool {
	switch name {
	case "PS0", "PS1", "PS2", "PS4":
		return true
	}
	return false
}

// promptHeredoc is the delimiter of the heredoc a prompt string is
// analysed as.
const promptHeredoc = "__GUARD_EXEC_PROMPT__"

// laterCode analyses the value of an assignment bash runs as code later.
func (fr *frame) laterCode(a *Assignment) {
	v := a.Value.Value
	switch {
	case a.Name == "PROMPT_COMMAND":
		if strings.TrimSpace(v) == "" {
			return
		}
		fr.nest(nesting{via: a.Name, text: v, pos: posMap{at: a.Pos}, kind: DynEval, st: fr.st.clone(), dialect: fr.dialect})
	case promptString(a.Name):
		if !strings.Contains(v, "$(") && !strings.Contains(v, "`") {
			return // no command substitution: nothing runs
		}
		if strings.Contains(v, "\n"+promptHeredoc) {
			fr.emitDynamic(&Dynamic{Kind: DynEval, Known: v, Pos: a.Pos})
			return
		}
		text := ": <<" + promptHeredoc + "\n" + v + "\n" + promptHeredoc + "\n"
		fr.nest(nesting{via: a.Name, text: text, pos: posMap{at: a.Pos}, kind: DynEval, st: fr.st.clone(), dialect: fr.dialect})
	}
}

// builtinHistory notes the entries history -s adds, which fc can run.
func builtinHistory(fr *frame, c *Command, args []arg) {
	ws := args[1:]
	if len(ws) == 0 || ws[0].Value != "-s" {
		return
	}
	fr.r.history = append(fr.r.history, joinValues(ws[1:]))
}

// builtinFc follows fc, which runs commands from the history unless it
// only lists them (-l): the entries this line added, the HISTFILE when the
// line names one that can be read, and the history from before, unknown.
// Unless it re-runs them at once (-s, -e -), it first runs its editor on
// them: -e EDITOR, else $FCEDIT, else $EDITOR, a command line of the
// shell's (fc FCEDIT).
func builtinFc(fr *frame, c *Command, args []arg) {
	var editor *arg
	direct := false
	for i := 1; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if v == "--" || !strings.HasPrefix(v, "-") || len(v) < 2 {
			break
		}
		if v != "-e" && v != "-s" && strings.ContainsRune(v, 'l') {
			return // a listing
		}
		switch {
		case v == "-s":
			direct = true
		case v == "-e" && i+1 < len(args):
			i++
			editor = &args[i]
			direct = editor.Value == "-"
		}
	}
	if !direct {
		via := "fc -e"
		if editor == nil {
			for _, name := range []string{"FCEDIT", "EDITOR"} {
				v, ok := fr.envOf(c, name)
				if !ok {
					vr := fr.lookup(name)
					v, ok = vr.value()
					ok = ok && vr.known
				}
				if ok && v != "" {
					editor, via = &arg{Word: Word{Value: v, Dynamic: hasUnknown(v), Pos: c.Pos}}, "fc "+name
					break
				}
			}
		}
		if editor != nil {
			fr.nestShellWords(c, []arg{*editor}, via)
		}
	}
	parts := append([]string(nil), fr.r.history...)
	if hf, ok := fr.lookup("HISTFILE").value(); ok && hf != "" && !hasUnknown(hf) {
		if text, read, _ := fr.readScript(c.Dir, hf); read {
			parts = append(parts, text)
		}
	}
	parts = append(parts, Unknown)
	fr.nest(nesting{sink: c, via: "fc", text: strings.Join(parts, "\n"), pos: posMap{at: c.Pos}, kind: DynEval, st: fr.st, dialect: fr.dialect})
	fr.st.poisonCode(false)
}
