package parse

import (
	"path"
	"strings"
)

// make: the recipes of the targets that would run, with make's variables
// resolved where they are literal. The makefiles are those of -f (a file,
// or "-" for standard input), the --eval texts, else GNUmakefile,
// makefile or Makefile in the directory; each is read when this line
// wrote it or Options.Files can read it. $(shell …) and != assignments
// run when the makefile is read, whatever the target: in an assignment,
// a directive (ifeq ($(shell …),)), a line alone, and in the X:=VALUE
// and X!=CMD of the command line (or MAKEFLAGS), which run even with no
// makefile.

// maxMakeRules bounds the targets followed.
const maxMakeRules = 256

type mkRule struct {
	targets, prereqs []string
	recipe           []string
}

type makefile struct {
	vars   map[string]string
	fixed  map[string]string // set on the command line: they win over the makefile's
	rules  []*mkRule
	shells []string // $(shell …) and != commands, run at read time
	env    func(string) (string, bool)
}

// makeHook runs after the make row's roles are recorded.
func makeHook(fr *frame, c *Command, args []arg, pa parsedArgs) {
	mf := &makefile{vars: map[string]string{}, env: func(name string) (string, bool) {
		v := fr.lookup(name)
		if !v.known {
			return "", false
		}
		return v.value()
	}}
	var texts []string
	dir := c.Dir
	haveFile := false
	cr := &codeRun{fr: fr, c: c, via: "make", at: arg{Word: Word{Pos: c.Pos}}}
	for _, ra := range c.Roles {
		switch {
		case ra.Role == RoleDir:
			if d := resolvePath(c.Dir, ra.Word.Value); d != "" || !ra.Word.Literal() {
				dir = d
			}
		case ra.Role == RoleCode && ra.Lang == "make":
			texts = append(texts, ra.Word.Value)
		case ra.Role == RoleScript && ra.Lang == "make":
			haveFile = true
			if ra.Word.Value == "-" || isStdinPath(ra.Word.Value) {
				got := false
				fr.execStdin(c, "make -f -", func(text string, pos posMap, feeders []*Command, kind DynKind) {
					got = true
					if hasUnknown(text) {
						fr.emitDynamic(&Dynamic{Kind: kind, Sink: c, Known: text, Feeders: feeders, Pos: c.Pos})
					}
					texts = append(texts, text)
				})
				if !got {
					fr.emitDynamic(&Dynamic{Kind: DynPipeShell, Sink: c, Known: Unknown, Pos: c.Pos})
				}
				continue
			}
			text, ok, writer := fr.readScript(dir, ra.Word.Value)
			if !ok {
				if writer != nil || !ra.Word.Literal() {
					fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: ra.Word.Value, Feeders: withWriter(nil, writer), Pos: c.Pos})
				}
				continue
			}
			texts = append(texts, text)
		}
	}
	if !haveFile && dir != "" {
		for _, name := range []string{"GNUmakefile", "makefile", "Makefile"} {
			if text, ok, writer := fr.readScript(dir, name); ok {
				texts = append(texts, text)
				break
			} else if writer != nil {
				fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: path.Join(dir, name), Feeders: []*Command{writer}, Pos: c.Pos})
				break
			}
		}
	}
	var goals []string
	for _, i := range pa.ops {
		v := args[i].Value
		if name, val, ok := strings.Cut(v, "="); ok && validName(strings.TrimRight(name, ":+?!")) {
			if mf.fixed == nil {
				mf.fixed = map[string]string{}
			}
			// X:=VALUE is expanded, and X!=CMD run, as make starts,
			// makefile or not.
			switch {
			case strings.HasSuffix(name, "!"):
				mf.shells = append(mf.shells, mf.expand(val, nil, 0))
				val = Unknown
			case strings.HasSuffix(name, ":"):
				val = strings.ReplaceAll(mf.expand(val, nil, 0), "$", "$$")
			}
			mf.fixed[strings.TrimRight(name, ":+?!")] = val
			continue
		}
		goals = append(goals, v)
	}
	if len(texts) == 0 {
		for _, s := range mf.shells {
			cr.shell(s)
		}
		return
	}
	for _, t := range texts {
		mf.read(t)
	}
	// The recipes run as $(SHELL) $(.SHELLFLAGS) 'recipe': a SHELL of
	// the command line or the makefile is a command line of its own.
	if sh, ok := mf.fixed["SHELL"]; ok {
		cr.shell(sh + " -c :")
	} else if sh, ok := mf.vars["SHELL"]; ok && !strings.Contains(sh, "$") {
		cr.shell(sh + " -c :")
	}
	for _, s := range mf.shells {
		cr.shell(s)
	}
	for _, line := range mf.recipes(goals) {
		cr.shell(line)
	}
}

// read parses a makefile's text into variables and rules.
func (mf *makefile) read(text string) {
	text = strings.ReplaceAll(text, "\\\n", " ")
	var cur *mkRule
	inDefine := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "\t") && cur != nil {
			cur.recipe = append(cur.recipe, line[1:])
			continue
		}
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		t := strings.TrimSpace(line)
		if inDefine {
			inDefine = t != "endef"
			continue
		}
		if t == "" {
			continue
		}
		word, rest, _ := strings.Cut(t, " ")
		switch word {
		case "define":
			inDefine = true
			continue
		case "ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "include", "-include", "sinclude", "vpath", "unexport":
			// Both branches of a conditional are read: either may be
			// taken. What the directive names is expanded as it is
			// read: ifeq ($(shell …),) runs.
			mf.expand(rest, nil, 0)
			continue
		case "export", "override", "private":
			t = strings.TrimSpace(rest)
		}
		eq := strings.IndexByte(t, '=')
		colon := strings.IndexByte(t, ':')
		if eq >= 0 && (colon < 0 || colon > eq || strings.HasPrefix(t[colon:], ":=") || strings.HasPrefix(t[colon:], "::=")) {
			name := strings.TrimSpace(t[:eq])
			val := strings.TrimSpace(t[eq+1:])
			switch {
			case strings.HasSuffix(name, "!"):
				mf.shells = append(mf.shells, mf.expand(val, nil, 0))
				mf.vars[strings.TrimSpace(strings.TrimSuffix(name, "!"))] = Unknown
			case strings.HasSuffix(name, "+"):
				n := strings.TrimSpace(strings.TrimSuffix(name, "+"))
				mf.vars[n] = strings.TrimSpace(mf.vars[n] + " " + val)
			case strings.HasSuffix(name, "?"):
				n := strings.TrimSpace(strings.TrimSuffix(name, "?"))
				if _, ok := mf.vars[n]; !ok {
					mf.vars[n] = val
				}
			case strings.HasSuffix(name, ":"):
				n := strings.TrimSpace(strings.TrimRight(name, ":"))
				mf.vars[n] = mf.expand(val, nil, 0)
			default:
				mf.vars[name] = val
			}
			cur = nil
			continue
		}
		if colon < 0 {
			// A line that is neither a rule nor an assignment is
			// expanded as it is read ($(shell …) or $(eval …) alone).
			mf.expand(t, nil, 0)
			continue
		}
		targets := strings.Fields(mf.expand(t[:colon], nil, 0))
		after := strings.TrimPrefix(t[colon+1:], ":")
		r := &mkRule{targets: targets}
		if pre, recipe, ok := strings.Cut(after, ";"); ok {
			after = pre
			r.recipe = append(r.recipe, recipe)
		}
		if strings.Contains(after, "=") {
			cur = nil // a target-specific variable
			continue
		}
		r.prereqs = strings.Fields(mf.expand(strings.ReplaceAll(after, "|", " "), nil, 0))
		mf.rules = append(mf.rules, r)
		cur = r
	}
}

// recipes returns the recipe lines of the goals (the first target when
// none is named) and of the prerequisites they need, expanded.
func (mf *makefile) recipes(goals []string) []string {
	if len(goals) == 0 {
		for _, r := range mf.rules {
			if len(r.targets) > 0 && (!strings.HasPrefix(r.targets[0], ".") || strings.Contains(r.targets[0], "/")) && !strings.Contains(r.targets[0], "%") {
				goals = []string{r.targets[0]}
				break
			}
		}
	}
	var out []string
	seen := map[string]bool{}
	var visit func(t string)
	visit = func(t string) {
		if seen[t] || len(seen) > maxMakeRules {
			return
		}
		seen[t] = true
		for _, r := range mf.rules {
			for _, rt := range r.targets {
				if rt != t {
					continue
				}
				for _, p := range r.prereqs {
					visit(p)
				}
				autos := map[string]string{"@": t, "^": strings.Join(r.prereqs, " "), "+": strings.Join(r.prereqs, " "), "*": Unknown, "?": strings.Join(r.prereqs, " ")}
				if len(r.prereqs) > 0 {
					autos["<"] = r.prereqs[0]
				} else {
					autos["<"] = ""
				}
				for _, line := range r.recipe {
					line = strings.TrimLeft(mf.expand(line, autos, 0), " \t@+-")
					out = append(out, line)
				}
			}
		}
	}
	for _, g := range goals {
		visit(g)
	}
	return out
}

// expand resolves make's references: $$, $(VAR), ${VAR}, $X, the
// automatic variables, $(shell …) (recorded to run); other functions are
// unknown.
func (mf *makefile) expand(s string, autos map[string]string, depth int) string {
	if !strings.Contains(s, "$") {
		return s
	}
	if depth > 8 {
		return Unknown
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		var ref string
		switch c := s[i]; c {
		case '$':
			b.WriteByte('$')
			continue
		case '(', '{':
			closeC := byte(')')
			if c == '{' {
				closeC = '}'
			}
			end := skipBalanced(s, i, c, closeC)
			if end <= i+1 || s[end-1] != closeC {
				b.WriteString(Unknown)
				i = len(s)
				continue
			}
			ref = s[i+1 : end-1]
			i = end - 1
		default:
			ref = s[i : i+1]
		}
		if fn, arg, ok := strings.Cut(ref, " "); ok {
			if fn == "shell" {
				mf.shells = append(mf.shells, mf.expand(arg, autos, depth+1))
			}
			b.WriteString(Unknown)
			continue
		}
		if v, ok := autos[ref]; ok {
			b.WriteString(v)
			continue
		}
		if v, ok := mf.fixed[ref]; ok {
			b.WriteString(mf.expand(v, autos, depth+1))
			continue
		}
		if v, ok := mf.vars[ref]; ok {
			b.WriteString(mf.expand(v, autos, depth+1))
			continue
		}
		switch ref {
		case "MAKE":
			b.WriteString("make")
			continue
		case "CURDIR", "SHELL", "MAKEFLAGS", "MAKECMDGOALS":
			b.WriteString(Unknown)
			continue
		}
		if v, ok := mf.env(ref); ok {
			b.WriteString(v)
			continue
		}
		b.WriteString(Unknown)
	}
	return b.String()
}
