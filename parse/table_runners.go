package parse

import (
	"strings"
)

// Task runners: just X and task X run the recipe X of the justfile or
// Taskfile in the working directory (the first recipe, or "default", when
// none is named), after the recipes it depends on, by the shell. The file
// is read when this line wrote it or Options.Files reads it; one that is
// there but cannot be read is unknown code. Recipe bodies that another
// interpreter runs (a #! line in a just recipe) are not followed.

// runnerFile reads the file a -f/-t option names (a script role of
// lang), else the first of names that exists in dir.
func (fr *frame) runnerFile(c *Command, lang, dir string, names ...string) (string, bool) {
	for _, ra := range c.Roles {
		if ra.Role == RoleScript && ra.Lang == lang {
			if !ra.Word.Literal() {
				fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: ra.Word.Value, Pos: c.Pos})
				return "", false
			}
			names = []string{ra.Word.Value}
		}
	}
	for _, n := range names {
		full := resolvePath(dir, n)
		if w := fr.r.files[full]; w != nil {
			if !w.known {
				fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: full, Feeders: writers(w), Pos: c.Pos})
				return "", false
			}
			return w.text, true
		}
		switch text, st := fr.readRun(full); st {
		case fileRead:
			return text, true
		case fileUnreadable:
			fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: full, Pos: c.Pos})
			return "", false
		}
	}
	return "", false
}

type recipe struct {
	deps  []string
	lines []string
}

// runRecipes follows the goals' recipes and their dependencies.
func (fr *frame) runRecipes(c *Command, via string, recipes map[string]*recipe, goals []string) {
	seen := map[string]bool{}
	var visit func(string)
	visit = func(name string) {
		r := recipes[name]
		if r == nil || seen[name] || len(seen) > maxMakeRules {
			return
		}
		seen[name] = true
		for _, d := range r.deps {
			visit(d)
		}
		for _, l := range r.lines {
			fr.nestShellWords(c, []arg{{Word: Word{Value: l, Dynamic: hasUnknown(l), Pos: c.Pos}}}, via+" "+name)
		}
	}
	for _, g := range goals {
		visit(g)
	}
}

// justHook: just [RECIPE…].
func justHook(fr *frame, c *Command, args []arg, pa parsedArgs) {
	text, ok := fr.runnerFile(c, "just", c.Dir, "justfile", "Justfile", ".justfile")
	if !ok {
		return
	}
	vars := map[string]string{}
	recipes := map[string]*recipe{}
	first := ""
	var cur *recipe
	for _, line := range strings.Split(text, "\n") {
		if cur != nil && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")) {
			l := strings.TrimSpace(line)
			if l == "" || strings.HasPrefix(l, "#") {
				if strings.HasPrefix(l, "#!") && len(cur.lines) == 0 {
					cur = nil // a script in another language
				}
				continue
			}
			cur.lines = append(cur.lines, justInterp(strings.TrimLeft(l, "@-"), vars))
			continue
		}
		t := strings.TrimSpace(line)
		cur = nil
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "set ") || strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "[") {
			continue
		}
		if name, val, ok := strings.Cut(t, ":="); ok && !strings.Contains(name, ":") {
			name = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), "export "))
			if lit, ok := quotedLiteral(strings.TrimSpace(val)); ok {
				vars[name] = lit
			} else {
				vars[name] = Unknown
			}
			continue
		}
		head, deps, ok := strings.Cut(t, ":")
		if !ok {
			continue
		}
		f := strings.Fields(strings.TrimLeft(head, "@"))
		if len(f) == 0 {
			continue
		}
		cur = &recipe{deps: strings.Fields(deps)}
		recipes[f[0]] = cur
		for _, p := range f[1:] {
			vars[strings.TrimLeft(strings.SplitN(p, "=", 2)[0], "+*$")] = Unknown
		}
		if first == "" {
			first = f[0]
		}
	}
	var goals []string
	for _, i := range pa.ops {
		if recipes[args[i].Value] != nil {
			goals = append(goals, args[i].Value)
		}
	}
	if len(pa.ops) == 0 && first != "" {
		goals = []string{first}
	}
	fr.runRecipes(c, "just", recipes, goals)
}

// justInterp replaces {{name}} with the variable's value, unknown when it
// is not a literal.
func justInterp(s string, vars map[string]string) string {
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			return s
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return s
		}
		v, ok := vars[strings.TrimSpace(s[i+2:i+j])]
		if !ok {
			v = Unknown
		}
		s = s[:i] + v + s[i+j+2:]
	}
}

// taskHook: task [TASK…] (go-task), reading the tasks' cmds and deps of
// Taskfile.yml line by line.
func taskHook(fr *frame, c *Command, args []arg, pa parsedArgs) {
	text, ok := fr.runnerFile(c, "task", c.Dir, "Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml")
	if !ok {
		return
	}
	recipes := map[string]*recipe{}
	var cur *recipe
	inTasks, inCmds, inDeps := false, false, false
	taskIndent := -1
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if indent == 0 {
			inTasks, cur = t == "tasks:", nil
			continue
		}
		if !inTasks {
			continue
		}
		if taskIndent < 0 {
			taskIndent = indent
		}
		if indent == taskIndent && strings.HasSuffix(t, ":") {
			cur = &recipe{}
			recipes[strings.Trim(strings.TrimSuffix(t, ":"), `"'`)] = cur
			inCmds, inDeps = false, false
			continue
		}
		if cur == nil {
			continue
		}
		switch {
		case strings.HasPrefix(t, "cmds:"):
			inCmds, inDeps = true, false
		case strings.HasPrefix(t, "deps:"):
			inCmds, inDeps = false, true
			if l := strings.TrimSpace(strings.TrimPrefix(t, "deps:")); strings.HasPrefix(l, "[") {
				for _, d := range strings.Split(strings.Trim(l, "[]"), ",") {
					cur.deps = append(cur.deps, strings.Trim(strings.TrimSpace(d), `"'`))
				}
			}
		case strings.HasPrefix(t, "- "):
			item := strings.TrimSpace(t[2:])
			if strings.HasPrefix(item, "cmd:") {
				item = strings.TrimSpace(strings.TrimPrefix(item, "cmd:"))
			} else if strings.HasPrefix(item, "task:") {
				cur.deps = append(cur.deps, strings.Trim(strings.TrimSpace(strings.TrimPrefix(item, "task:")), `"'`))
				continue
			}
			if lit, ok := quotedLiteral(item); ok {
				item = lit
			}
			item = justInterp(item, nil)
			switch {
			case inCmds:
				cur.lines = append(cur.lines, item)
			case inDeps:
				cur.deps = append(cur.deps, strings.Trim(item, `"'`))
			}
		case strings.HasSuffix(t, ":") || strings.Contains(t, ": "):
			if indent <= taskIndent+2 {
				inCmds, inDeps = false, false
			}
		}
	}
	var goals []string
	for _, i := range pa.ops {
		if v := args[i].Value; v != "--" {
			goals = append(goals, v)
		}
	}
	if len(goals) == 0 {
		goals = []string{"default"}
	}
	fr.runRecipes(c, "task", recipes, goals)
}
