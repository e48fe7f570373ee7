package parse

import (
	"strings"
	"testing"
)

// TestTableLanguagesNoPanic feeds every code language of the program
// table truncated and unbalanced text: a converter never panics (the
// analysis would turn a panic into a hold, but a crash in a converter is
// a bug).
func TestTableLanguagesNoPanic(t *testing.T) {
	inputs := []string{"", "{", "}", "[", "(", "$(", "${", "\"", "'", "!", "(shell-command", "(call-process \"rm\"",
		"exec", "spawn {", "file delete", "x:;", "a: $(shell", "\t", "ext::", "ext::%", "%", "|", "||-", ":exe '",
		"norm :", "r !", "lua", "py3", "call system(", "shell", "pipe |", "{{", "[exec rm", "a := ", "x\\\n"}
	for lang, conv := range codeLangs {
		for _, in := range inputs {
			for _, s := range []string{in, in + in, strings.Repeat(in, 3) + "x"} {
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%s: %q: panic %v", lang, s, r)
						}
					}()
					fr := newRoot(&Analysis{}, testOptions()).topFrame("")
					conv(&codeRun{fr: fr, c: &Command{Name: lang}, via: lang}, s)
				}()
			}
		}
	}
	mf := &makefile{vars: map[string]string{}, env: func(string) (string, bool) { return "", false }}
	for _, in := range inputs {
		mf.read(in + "\n\t" + in)
		mf.expand(in, nil, 0)
		mf.recipes(nil)
	}
}

// TestProgramTableRows checks the rows parse: every option spec names a
// known role and language, and every row has a unique name.
func TestProgramTableRows(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range ProgramTable() {
		if seen[p.Name] {
			t.Errorf("row %q twice", p.Name)
		}
		seen[p.Name] = true
		for _, ra := range append(append([]argRow{}, p.args...), optArgRows(p)...) {
			if ra.spec.role == RoleCode || ra.spec.role == RoleScript {
				if _, ok := interpLangs[ra.spec.lang]; !ok && codeLangs[ra.spec.lang] == nil && rowHooks[p.Name] == nil && ra.spec.lang != "sh" {
					t.Errorf("%s: language %q has no converter", p.Name, ra.spec.lang)
				}
			}
		}
	}
}

func optArgRows(p *Program) []argRow {
	var out []argRow
	for _, o := range p.opts {
		if o.spec != nil {
			out = append(out, argRow{spec: *o.spec})
		}
	}
	return out
}
