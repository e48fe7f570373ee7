package parse

import (
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// root holds what is shared by the whole analysis of one script.
type root struct {
	an       *Analysis
	opts     Options
	maxDepth int
	// budget bounds the total work (commands built, nested scripts and
	// function bodies followed), so that functions calling each other
	// many times cannot make the analysis explode.
	budget    int
	exhausted bool
	// quiet > 0 while a loop body is walked only to learn the state it
	// leaves: facts found then are dropped.
	quiet    int
	pipeSeq  int
	funcSeen map[string]bool
	called   map[*syntax.Stmt]bool // function bodies analysed at a call
	defined  []*funcDef
	// files are what the script wrote, by absolute path.
	files map[string]*written
	// dirs caches the directory listings globs were matched against
	// (not ok for a directory that could not be listed).
	dirs map[string]dirList
	// tests caches hasTest for && and || chains.
	tests map[*syntax.BinaryCmd]bool
	// gitAliases are the aliases git config set earlier in the script.
	gitAliases map[string]arg
	// channels are shells reading code from a pipe the script writes to
	// (channels.go).
	channels []*Command
	// madeVals are mktemp paths that stand in nested code for the
	// parameters ${__guard_exec_madeN__} (made.go).
	madeVals []string
	// history are the entries history -s added, which fc runs.
	history []string
	// imported are the module files a program's code loaded that were
	// followed (interp_local.go); codeBase is the directory of the
	// program file scanProgram reads next, which its imports are
	// relative to.
	imported map[string]bool
	codeBase string
}

// workBudget is the total number of work units an analysis may spend.
const workBudget = 20000

// frame is the analysis of one piece of code: a script, a nested script,
// a function body. Frames are values, copied for sub-contexts (a pipeline
// stage, a redirected block) and sharing or cloning the state as bash
// shares or copies it.
type frame struct {
	r     *root
	src   string
	pos   posMap
	depth int
	via   []Via
	ctx   Context
	st    *state
	// stdin is the input commands inherit: a pipe, a redirection of an
	// enclosing block, the input of the sink that runs this script.
	stdin *Input
	// redirs are redirections of enclosing compound commands, which
	// apply to every command inside.
	redirs []Redirect
	remote string
	user   string
	// inherit is the environment a program runner passed on to the
	// program it runs (Command.Inherited).
	inherit []Assign
	// collect, when set, receives the commands this frame itself runs
	// (not those of nested scripts or substitutions): a pipeline stage's
	// output comes from them.
	collect *[]*Command
	// pipeline and pipeIndex tag the commands of a pipeline stage.
	pipeline, pipeIndex int
	// active are the functions being called, innermost last.
	active []*funcDef
	// partial is set when src has holes (Unknown parts spelled as a
	// sentinel parameter): a dynamic command name there is already
	// covered by the enclosing Dynamic fact.
	partial bool
	// dialect is the shell the frame's code runs in: POSIX for sh and
	// dash, where bash-only behaviour (echo -e, aliases off) differs.
	dialect Dialect
	// placeholder marks commands whose arguments a sink supplies at run
	// time (find -exec, parallel).
	placeholder bool
	// synthetic marks commands that stand for an interpreter's file API.
	synthetic bool
	// aliasesActive are the aliases being expanded: bash does not expand
	// an alias again inside its own expansion.
	aliasesActive []string
	// file is the file read from disk whose code this frame runs (source
	// FILE, bash FILE, BASH_ENV, and everything nested in them), "" for
	// the command line's own code. Functions defined there are judged
	// only where they are called.
	file string
	// exits, set in the frames of the script's own shell (not a subshell,
	// not eval'd code), collects the traps that run when it exits and the
	// states it may exit in (traps.go).
	exits *exitTraps
}

func (fr *frame) posix() bool { return fr.dialect == POSIX }

func newRoot(an *Analysis, opts Options) *root {
	r := &root{an: an, opts: opts, maxDepth: opts.MaxDepth, budget: workBudget}
	if r.maxDepth < DefaultMaxDepth {
		r.maxDepth = DefaultMaxDepth
	}
	return r
}

// topFrame is the frame of the script itself.
func (r *root) topFrame(src string) *frame {
	st := &state{dir: r.opts.Dir, baseKnown: r.opts.Env != nil, base: r.opts.Env}
	if r.opts.Args != nil {
		st.args, st.argsKnown = r.opts.Args, true
	}
	if r.opts.Dialect == POSIX {
		st.expandAliases = true
	}
	if r.opts.Shell != "" && r.opts.Dialect == Bash {
		st.rawSet("BASH", strVar(r.opts.Shell, false))
	}
	fr := &frame{r: r, src: src, pos: posMap{exact: true, base: Pos{Line: 1, Col: 1}}, st: st, dialect: r.opts.Dialect, exits: &exitTraps{}}
	fr.importEnvCode()
	return fr
}

// spend takes n work units from the budget and reports whether there was
// enough. The first failure records a DynTooDeep fact.
func (fr *frame) spend(n int, at Pos) bool {
	r := fr.r
	if r.budget >= n {
		r.budget -= n
		return true
	}
	if !r.exhausted {
		r.exhausted = true
		r.an.Dynamic = append(r.an.Dynamic, &Dynamic{Kind: DynTooDeep, Known: "analysis budget exhausted", Pos: at})
	}
	return false
}

// posMap maps positions of a frame's source to the top-level script.
type posMap struct {
	// exact is set when the frame's source is a verbatim slice of the
	// top-level script starting at base; otherwise every position is at.
	exact bool
	base  Pos
	at    Pos
}

func (m posMap) of(p syntax.Pos) Pos {
	if !m.exact || !p.IsValid() {
		if !m.exact {
			return m.at
		}
		return m.base
	}
	l, c := int(p.Line()), int(p.Col())
	if l == 1 {
		return Pos{File: m.base.File, Line: m.base.Line, Col: m.base.Col + c - 1}
	}
	return Pos{File: m.base.File, Line: m.base.Line + l - 1, Col: c}
}

// span returns the bounded source text of a node.
func (fr *frame) span(n syntax.Node) string {
	if n == nil {
		return ""
	}
	a, b := int(n.Pos().Offset()), int(n.End().Offset())
	if a < 0 || b > len(fr.src) || a >= b {
		return ""
	}
	return bound(fr.src[a:b])
}

// bound cuts s to spanMax bytes at a rune boundary.
func bound(s string) string {
	if len(s) <= spanMax {
		return s
	}
	cut := spanMax
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// emitDynamic records a dynamic-execution fact.
func (fr *frame) emitDynamic(d *Dynamic) {
	if fr.r.quiet > 0 {
		return
	}
	if d.Span == "" && d.Sink != nil {
		d.Span = d.Sink.Span
	}
	fr.r.an.Dynamic = append(fr.r.an.Dynamic, d)
}

// emitAssignment records an assignment fact.
func (fr *frame) emitAssignment(a *Assignment) {
	if fr.r.quiet > 0 {
		return
	}
	a.Context |= fr.ctx
	a.Via = fr.via
	fr.r.an.Assignments = append(fr.r.an.Assignments, a)
	if a.Name == "PROMPT_COMMAND" || promptString(a.Name) {
		fr.laterCode(a)
	}
}

// sub returns a copy of the frame for a sub-context sharing the state.
func (fr *frame) sub(ctx Context) *frame {
	c := *fr
	c.ctx |= ctx
	return &c
}

// subshell returns a copy of the frame with a cloned state: what it
// changes does not leak (a subshell, a pipeline stage, a substitution).
func (fr *frame) subshell(ctx Context) *frame {
	c := fr.sub(ctx)
	c.st = fr.st.clone()
	c.exits = nil // a subshell's traps and exits are its own
	return c
}
