package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/guard-exec/guard-exec/parse"
	"github.com/guard-exec/guard-exec/policy"
)

// runExplain prints what the analysis found in a command line and why the
// verdict is what it is. It never runs anything.
func runExplain(_ context.Context, g *guard, args []string) error {
	fs := g.flags("explain")
	asJSON := fs.Bool("json", false, "print the facts and the decision as JSON")
	cf := addCommandFlags(fs, "explain")
	if err := g.parseFlags(fs, args); err != nil {
		return err
	}
	if err := cf.applyCwd(g); err != nil {
		return err
	}
	script, err := cf.script(fs, "explain needs -c 'COMMAND'")
	if err != nil {
		return err
	}
	dir := g.workdir()
	a := g.analyze(script, parse.Bash, nil, dir)
	d := g.policyEngine().Decide(a, g.decisionCtx(dir))
	v := newExplanation(a, d)
	v.Sandbox = g.sandboxReport(dir)
	if *asJSON {
		enc := newJSONEncoder(g.st.out)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	v.print(g.st.out)
	return nil
}

// explanation is the analysis in a shape for people and machines; commands
// refer to each other by index instead of by pointer.
type explanation struct {
	Commands  []explainedCommand `json:"commands"`
	Dynamic   []explainedDynamic `json:"dynamic"`
	Functions []string           `json:"functions,omitempty"`
	EnvCode   []string           `json:"env_code,omitempty"`
	Canonical string             `json:"canonical"`
	Decision  *policy.Report     `json:"decision"`
	Sandbox   *sandboxReport     `json:"sandbox"`
}

type explainedCommand struct {
	Index    int             `json:"index"`
	Pos      string          `json:"pos"`
	Name     string          `json:"name"`
	Path     string          `json:"path,omitempty"`
	Dynamic  bool            `json:"name_dynamic,omitempty"`
	Args     []explainedWord `json:"args"`
	Wrappers []string        `json:"wrappers,omitempty"`
	Assigns  []string        `json:"assigns,omitempty"`
	Dir      string          `json:"dir"`
	Context  []string        `json:"context,omitempty"`
	Via      []string        `json:"via,omitempty"`
	Stdin    *explainedInput `json:"stdin,omitempty"`
	Redirs   []string        `json:"redirects,omitempty"`
	Span     string          `json:"span"`
}

type explainedWord struct {
	Value   string `json:"value"`
	Literal bool   `json:"literal"`
}

type explainedInput struct {
	Kind     string `json:"kind"`
	Text     string `json:"text,omitempty"`
	From     *int   `json:"from,omitempty"`
	Executed bool   `json:"executed"`
}

type explainedDynamic struct {
	Kind    string `json:"kind"`
	Pos     string `json:"pos"`
	Known   string `json:"known,omitempty"`
	Sink    *int   `json:"sink,omitempty"`
	Feeders []int  `json:"feeders,omitempty"`
	Span    string `json:"span"`
}

var contextNames = []struct {
	c    parse.Context
	name string
}{
	{parse.InPipeline, "pipeline"}, {parse.InBackground, "background"}, {parse.InSubshell, "subshell"},
	{parse.InCmdSubst, "command-substitution"}, {parse.InProcSubst, "process-substitution"},
	{parse.InFunction, "function"}, {parse.InAlias, "alias"}, {parse.InCondition, "condition"},
	{parse.InLoop, "loop"}, {parse.InNested, "nested"}, {parse.InInterpreter, "interpreter"},
}

// inputName is how explain names an input.
func inputName(k parse.InputKind) string {
	switch k {
	case parse.InputHeredoc:
		return "heredoc"
	case parse.InputHereString:
		return "here-string"
	case parse.InputPipe:
		return "pipe"
	case parse.InputFile:
		return "file"
	case parse.InputProcSubst:
		return "process-substitution"
	}
	return ""
}

func newExplanation(a *parse.Analysis, d *policy.Decision) *explanation {
	index := map[*parse.Command]int{}
	for i, c := range a.Commands {
		index[c] = i
	}
	ref := func(c *parse.Command) *int {
		if i, ok := index[c]; ok {
			return &i
		}
		return nil
	}
	v := &explanation{Functions: a.Functions, EnvCode: a.EnvCode, Canonical: a.Canonical, Decision: d.Report(),
		Commands: []explainedCommand{}, Dynamic: []explainedDynamic{}}
	for i, c := range a.Commands {
		v.Commands = append(v.Commands, explainCommand(i, c, ref))
	}
	for _, dy := range a.Dynamic {
		e := explainedDynamic{Kind: string(dy.Kind), Pos: dy.Pos.String(), Known: show(dy.Known), Span: dy.Span}
		if dy.Sink != nil {
			e.Sink = ref(dy.Sink)
		}
		for _, f := range dy.Feeders {
			if i := ref(f); i != nil {
				e.Feeders = append(e.Feeders, *i)
			}
		}
		v.Dynamic = append(v.Dynamic, e)
	}
	return v
}

func explainCommand(i int, c *parse.Command, ref func(*parse.Command) *int) explainedCommand {
	e := explainedCommand{Index: i, Pos: c.Pos.String(), Name: show(c.Name), Dynamic: c.NameDynamic,
		Wrappers: c.Wrappers, Dir: c.Dir, Span: c.Span, Args: []explainedWord{}}
	if c.Path != c.Name {
		e.Path = show(c.Path)
	}
	for _, w := range c.Args {
		e.Args = append(e.Args, explainedWord{Value: w.String(), Literal: w.Literal()})
	}
	for _, as := range c.Assigns {
		e.Assigns = append(e.Assigns, as.Name+"="+as.Value.String())
	}
	for _, cn := range contextNames {
		if c.Context&cn.c != 0 {
			e.Context = append(e.Context, cn.name)
		}
	}
	for _, via := range c.Via {
		e.Via = append(e.Via, via.Sink+" ("+via.Pos.String()+")")
	}
	if in := c.Stdin; in != nil && in.Kind != parse.InputNone {
		ei := &explainedInput{Kind: inputName(in.Kind), Text: show(in.Text), Executed: in.Executed}
		if in.From != nil {
			ei.From = ref(in.From)
		}
		e.Stdin = ei
	}
	for _, r := range c.Redirs {
		e.Redirs = append(e.Redirs, redirString(r))
	}
	return e
}

func redirString(r parse.Redirect) string {
	s := fmt.Sprintf("%d%s%s", r.Fd, r.Op, r.Target.String())
	if r.Path != "" && r.Path != r.Target.Value {
		s += " → " + r.Path
	}
	if r.Target.Assumed != "" {
		s += " (if unseen code left it: " + show(r.Target.Assumed) + ")"
	}
	if r.Target.Unseen {
		s += " (named only by unseen code)"
	}
	return s
}

// show renders unknown parts for people.
func show(s string) string { return strings.ReplaceAll(s, parse.Unknown, "…") }

func (v *explanation) print(w io.Writer) {
	for _, c := range v.Commands {
		fmt.Fprintf(w, "command %d at %s: %s\n", c.Index, c.Pos, c.Span)
		name := c.Name
		if c.Path != "" {
			name += " (" + c.Path + ")"
		}
		if c.Dynamic {
			name += " [dynamic]"
		}
		fmt.Fprintf(w, "  program   %s\n", name)
		for _, a := range c.Args {
			kind := "literal"
			if !a.Literal {
				kind = "dynamic"
			}
			fmt.Fprintf(w, "  arg       %q [%s]\n", a.Value, kind)
		}
		printList(w, "wrappers", c.Wrappers)
		printList(w, "assigns", c.Assigns)
		dir := c.Dir
		if dir == "" {
			dir = "(unknown)"
		}
		fmt.Fprintf(w, "  dir       %s\n", dir)
		printList(w, "context", c.Context)
		printList(w, "via", c.Via)
		printList(w, "redirects", c.Redirs)
		if in := c.Stdin; in != nil {
			what := "data"
			if in.Executed {
				what = "executed"
			}
			fmt.Fprintf(w, "  stdin     %s (%s) %q\n", in.Kind, what, in.Text)
		}
	}
	for _, d := range v.Dynamic {
		fmt.Fprintf(w, "dynamic %s at %s: %s", d.Kind, d.Pos, d.Span)
		if d.Known != "" {
			fmt.Fprintf(w, " (known: %q)", d.Known)
		}
		fmt.Fprintln(w)
	}
	printList(w, "env code", v.EnvCode)
	if pe := v.Decision.ParseError; pe != nil {
		fmt.Fprintf(w, "parse error (%s) %s: %s\n", pe.Kind, pe.Pos, pe.Message)
	}
	for _, r := range v.Decision.Rules {
		fmt.Fprintf(w, "rule %s %s at %s: %s — %s\n", r.Severity, r.ID, r.Pos, r.Span, r.Message)
	}
	fmt.Fprintf(w, "verdict %s\n", v.Decision.Verdict)
	if v.Sandbox != nil {
		v.Sandbox.print(w)
	}
}

func printList(w io.Writer, label string, items []string) {
	if len(items) > 0 {
		fmt.Fprintf(w, "  %-9s %s\n", label, strings.Join(items, ", "))
	}
}
