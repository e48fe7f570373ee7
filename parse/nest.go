package parse

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// nesting describes a nested script to analyse: text that a command runs
// as shell code.
type nesting struct {
	sink    *Command
	via     string // Via.Sink
	text    string // the code, with Unknown in the gaps
	pos     posMap // where positions inside text map to
	kind    DynKind
	feeders []*Command
	// st is the state the code runs in: the frame's own for code run in
	// this shell (eval, source, trap, a function), a fresh one for a new
	// shell process.
	st      *state
	ctx     Context
	stdin   *Input
	dialect Dialect
	remote  string
	user    string
	// keepRedirs passes the sink's redirections on (eval, source: the
	// redirections of the eval apply to what it runs).
	keepRedirs bool
	// holesAreData is set when the unknown parts are quoted values, not
	// code (parallel's {}): no Dynamic fact for them.
	holesAreData bool
	// supplied is set when the holes are only the arguments the sink
	// splices in at run time (Dynamic.Placeholder).
	supplied bool
	// file is set when text is a file read from disk (frame.file).
	file string
	// names are the mktemp paths whose random parts are the holes
	// (holesAreData): they stand in the code as made parameters.
	names []string
}

// sentinel is the parameter that stands for an unknown part when text with
// holes is analysed for what is known of it.
const (
	sentinel     = "__guard_exec_unknown__"
	sentinelText = "${" + sentinel + "}"
)

// nest analyses text as a shell script run by n.sink.
func (fr *frame) nest(n nesting) {
	at := n.pos.at // code with no command to run it (PROMPT_COMMAND=…)
	if n.sink != nil {
		at = n.sink.Pos
	}
	if hasUnknown(n.text) {
		if !n.holesAreData {
			fr.emitDynamic(&Dynamic{Kind: n.kind, Sink: n.sink, Known: n.text, Feeders: n.feeders, Pos: at, Placeholder: n.supplied})
		}
		if strings.TrimSpace(strings.ReplaceAll(n.text, Unknown, "")) == "" {
			return
		}
		n.text = fr.nameText(n.text, n.names)
		n.pos = posMap{at: at}
		fr.nestParsed(n, true)
		return
	}
	fr.nestParsed(n, false)
}

func (fr *frame) nestParsed(n nesting, partial bool) {
	at := Pos{}
	if n.sink != nil {
		at = n.sink.Pos
	}
	if fr.depth+1 > fr.r.maxDepth {
		fr.emitDynamic(&Dynamic{Kind: DynTooDeep, Sink: n.sink, Known: bound(n.text), Feeders: n.feeders, Pos: at})
		return
	}
	if !fr.spend(1+len(n.text)/256, at) {
		return
	}
	if e := checkBounds(n.text); e != nil {
		kind := DynUnparsable
		if e.Kind == ErrTooDeep {
			kind = DynTooDeep
		}
		fr.emitDynamic(&Dynamic{Kind: kind, Sink: n.sink, Known: bound(n.text), Pos: at})
		return
	}
	n.text = joinDollarContinuations(n.text)
	f, perr := parseScript(n.text, Bash)
	if perr != nil {
		if !partial {
			fr.emitDynamic(&Dynamic{Kind: DynUnparsable, Sink: n.sink, Known: n.text, Feeders: n.feeders, Pos: at})
		}
		return
	}
	child := fr.child(n, partial)
	child.walkStmts(f.Stmts)
	if n.st == fr.st {
		fr.st.dead = false // exit inside eval ends the shell; over-approximate
	}
}

// child builds the frame of a nested script.
func (fr *frame) child(n nesting, partial bool) *frame {
	c := &frame{
		r:       fr.r,
		src:     n.text,
		pos:     n.pos,
		depth:   fr.depth + 1,
		via:     append(slices.Clip(sinkVia(fr, n)), Via{Sink: n.via, Pos: viaPos(n)}),
		ctx:     fr.ctx | InNested | n.ctx,
		st:      n.st,
		stdin:   n.stdin,
		remote:  n.remote,
		user:    n.user,
		active:  fr.active,
		partial: partial || fr.partial,
		dialect: n.dialect,

		placeholder:   fr.placeholder || n.sink != nil && n.sink.Placeholder,
		aliasesActive: fr.aliasesActive,
		file:          n.file,
	}
	if c.file == "" {
		c.file = fr.file
	}
	if c.remote == "" {
		c.remote = fr.remote
	}
	if c.remote != "" {
		c.ctx |= InRemote
	}
	if c.user == "" {
		c.user = fr.user
	}
	if n.keepRedirs && n.sink != nil {
		c.redirs = n.sink.Redirs
	}
	if n.st == nil {
		c.st = fr.st
	}
	return c
}

// sinkVia is the chain a nested script's commands start from: the
// sink's own, which may go further than the frame's when a wrapper added
// a step ("xargs sh -c …": the commands of the script are run by xargs
// too, and carry its step and its run-time arguments).
func sinkVia(fr *frame, n nesting) []Via {
	if n.sink != nil && len(n.sink.Via) > len(fr.via) {
		return n.sink.Via
	}
	return fr.via
}

func viaPos(n nesting) Pos {
	if n.sink != nil {
		return n.sink.Pos
	}
	return n.pos.at
}

// textPos maps positions inside the text of an argument: exactly when the
// argument is one plain literal of the script ('…', "…" without escapes,
// or a bare word), otherwise everything points at the argument.
func (fr *frame) textPos(a arg) posMap {
	at := a.Pos
	if a.syn == nil || !a.whole || !fr.pos.exact || len(a.syn.Parts) != 1 {
		return posMap{at: at}
	}
	switch p := a.syn.Parts[0].(type) {
	case *syntax.SglQuoted:
		if !p.Dollar {
			return exactAt(fr.pos.of(p.Left), 1)
		}
	case *syntax.DblQuoted:
		if len(p.Parts) == 0 {
			return exactAt(fr.pos.of(p.Left), 1)
		}
		if l, ok := p.Parts[0].(*syntax.Lit); ok && len(p.Parts) == 1 && strings.IndexByte(l.Value, '\\') < 0 {
			return exactAt(fr.pos.of(p.Left), 1)
		}
	case *syntax.Lit:
		if strings.IndexByte(p.Value, '\\') < 0 {
			return exactAt(fr.pos.of(p.ValuePos), 0)
		}
	}
	return posMap{at: at}
}

func exactAt(p Pos, shift int) posMap {
	return posMap{exact: true, base: Pos{File: p.File, Line: p.Line, Col: p.Col + shift}, at: p}
}

// inputPos maps positions inside a command's input text.
func inputPos(in *Input) posMap {
	if in.verbatim {
		return posMap{exact: true, base: in.Pos, at: in.Pos}
	}
	return posMap{at: in.Pos}
}

// nestedText analyses one argument as code run in this shell (trap,
// mapfile -C, …).
func (fr *frame) nestedText(c *Command, a arg, via string) {
	vals, names := fr.holesAreNames(a.syn)
	names = names && hasUnknown(a.Value)
	fr.nest(nesting{sink: c, via: via, text: a.Value, pos: fr.textPos(a), kind: DynEval, st: fr.st, dialect: fr.dialect, feeders: a.feeders, holesAreData: names, names: vals})
	if hasUnknown(a.Value) && !names {
		fr.st.poison()
	}
}
