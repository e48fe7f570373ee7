package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/guard-exec/guard-exec/ledger"
	"github.com/guard-exec/guard-exec/parse"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/shim"
)

// A script read from a pipe (`curl … | bash`, a tool that keeps one bash
// open and writes command after command to its stdin) cannot be judged as
// a whole before it runs: the rest may not have been written yet, and a
// guard that waited for the end would hang the tool. So guard-exec sits
// between the pipe and the real shell: it passes text on as soon as a
// complete piece has arrived (everything up to a line end that parses) and
// has been judged together with all the text before it, exactly as bash
// will see it.
//
// When a piece is held, it is judged again statement by statement, and
// only the held statements are replaced, each by `(exit 126)`: bash sees a
// command that failed with guard-exec's status, and the rest goes on as it
// would after any failing command. A tool that writes `CMD; echo MARKER`
// still gets its marker. A heredoc's body always stays with its
// statement.

// heldStmt is what bash runs in place of a held statement.
const heldStmt = "(exit 126)\n"

// maxStreamCtx bounds the text a new piece is judged with. Past
// compactAt, only the statements that define things later ones depend on
// (functions, variables, aliases, options, the directory) are kept, and
// again each time the context has doubled since. Judging every piece with
// all the text before it made a long script on a pipe quadratic (2 MiB of
// `true` lines: minutes), and past the analysis' work budget every
// statement was held as too deep.
const (
	maxStreamCtx = 256 << 10
	compactAt    = 16 << 10
)

type streamer struct {
	g         *guard
	dialect   parse.Dialect
	args      []string
	dir       string
	w         io.Writer
	ctx       string // what bash has been given so far (compacted, see maxStreamCtx)
	compacted int    // the length of ctx after the last compaction
	warned    map[string]bool
	dead      bool // the shell stopped reading
	// skipping is set after a piece was held for its size while its
	// statement had not ended: the rest of that line is dropped, or it
	// would reach bash as statements of their own.
	skipping bool
}

// runStream runs the real shell reading its script from a pipe that
// guard-exec feeds, judging each piece before bash can see it.
func (g *guard) runStream(ctx context.Context, j *job, inv *shim.Invocation, name string) error {
	sb := g.sandboxFor(j.dir) // sandbox.go
	led, err := g.book()
	if err != nil {
		return g.notRun(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	mode := g.policyEngine().Mode
	rec := &ledger.Record{Kind: ledger.KindExec, Session: g.session(), Cwd: j.dir, Project: g.projectRoot(),
		Mode: g.invocation, IO: "pipe", Command: inv.Shell + " (script from stdin, judged as it arrives)",
		Verdict: policy.Allow.String(), Enforce: mode.String(), Parent: g.parentID(), EnvRemoved: g.envRemoved()}
	if !g.sandboxUnavailable(sb, rec) {
		return status(exitBlocked)
	}
	rec.Sandbox, rec.ABI = sb.recordName(), sb.abiOf()
	id, err := led.Append(rec)
	if err != nil {
		return g.notRun(err)
	}
	spec := &shim.Spec{
		Path: j.path, Argv: inv.Argv(j.path), Dir: j.dir, Env: g.childEnv(),
		Stdin: r, Stdout: g.st.out, Stderr: g.st.err, PTY: g.ptyMode(), Timeout: g.timeout,
		Started: func(int) { r.Close() }, Start: sb.starter(),
	}
	defer announce(id, sb)()
	type outcome struct {
		res *shim.Result
		err error
	}
	done := make(chan outcome, 1)
	exited := make(chan struct{})
	start := time.Now()
	go func() {
		var res *shim.Result
		err := sb.wrap(spec) // sandbox.go: Seatbelt's sandbox-exec, on macOS
		if err == nil {
			k := startKeeper(spec) // keeper_linux.go, as in runRecorded
			becomeSubreaper()      // lineage.go
			res, err = shim.Run(ctx, spec)
			g.recordLineage(id, k)
			k.release()
		}
		close(exited)
		done <- outcome{res, err}
	}()
	s := &streamer{g: g, dialect: j.dialect, args: append([]string{name}, inv.Args...), dir: j.dir, w: w}
	s.feed(g.st.in, exited)
	w.Close()
	out := <-done
	g.sandboxAfter(sb, out.res)
	exit := exitRecord(id, start, out.res, out.err)
	exit.Protect = sb.protection()
	if _, err := led.Append(exit); err != nil {
		g.ledgerWarn(err)
	}
	g.reportTimeout(out.res)
	if out.err != nil {
		return fmt.Errorf("starting %s: %w", j.path, out.err)
	}
	return commandStatus(out.res)
}

// feed reads in until end of input or until the shell exits, passing each
// judged piece on.
func (s *streamer) feed(in io.Reader, exited <-chan struct{}) {
	chunks := make(chan []byte)
	go func() {
		defer close(chunks)
		for {
			b := make([]byte, 64<<10)
			n, err := in.Read(b)
			if n > 0 {
				select {
				case chunks <- b[:n]:
				case <-exited:
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	var buf []byte
	for !s.dead {
		select {
		case c, ok := <-chunks:
			if !ok {
				if len(buf) > 0 {
					s.piece(string(buf))
				}
				return
			}
			buf = s.take(append(buf, c...))
		case <-exited:
			return
		}
	}
}

// take passes on the complete part of buf and returns the rest.
func (s *streamer) take(buf []byte) []byte {
	if s.skipping {
		nl := bytes.IndexByte(buf, '\n')
		if nl < 0 {
			return nil
		}
		s.skipping = false
		buf = buf[nl+1:]
	}
	cut := bytes.LastIndexByte(buf, '\n') + 1
	if cut == 0 {
		if len(buf) > maxScript {
			s.piece(string(buf)) // judged, and held, as too large
			s.skipping = true
			return nil
		}
		return buf
	}
	text := string(buf[:cut])
	if len(buf) <= maxScript && (continues(text) || incomplete(text, s.dialect)) {
		return buf
	}
	s.piece(text)
	return buf[cut:]
}

// continues reports whether text ends in a backslash-newline, which joins
// the next line to this one: "rm -rf \" then "/" must be judged together.
func continues(text string) bool {
	t := strings.TrimSuffix(text, "\n")
	n := len(t) - len(strings.TrimRight(t, `\`))
	return n%2 == 1
}

// incomplete reports whether text stops inside a statement (an open quote,
// a heredoc not yet closed, a trailing && or |, an unfinished if).
func incomplete(text string, d parse.Dialect) bool {
	if e := parse.CheckBounds(text); e != nil && e.Kind != parse.ErrTooLarge {
		// Over a bound the parser must not see: judged (and held) as it
		// is; a statement of it still to come is judged with the rest.
		return false
	}
	_, err := newParser(d).Parse(strings.NewReader(text), "")
	return err != nil && syntax.IsIncomplete(err)
}

func newParser(d parse.Dialect) *syntax.Parser {
	lang := syntax.LangBash
	if d == parse.POSIX {
		lang = syntax.LangPOSIX
	}
	return syntax.NewParser(syntax.Variant(lang))
}

// piece judges text with everything before it and passes it on; a held
// piece is passed on statement by statement.
func (s *streamer) piece(text string) {
	d := s.decide(s.ctx + text)
	if !d.Verdict.Blocks() {
		s.accept(text, d)
		return
	}
	if overBounds(d) {
		// Held before parsing, for its size: splitting it would parse
		// what the bound is there to keep from the parser.
		s.hold(text, d)
		return
	}
	units := splitUnits(text, s.dialect)
	if units == nil {
		s.hold(text, d)
		return
	}
	pos := 0
	for _, u := range units {
		s.send(text[pos:u.start])
		stmt := text[u.start:u.end]
		if d := s.decide(s.ctx + stmt); d.Verdict.Blocks() {
			s.hold(stmt, d)
		} else {
			s.accept(stmt, d)
		}
		pos = u.end
	}
	s.send(text[pos:])
}

func (s *streamer) decide(text string) *policy.Decision {
	a := s.g.analyze(text, s.dialect, s.args, s.dir)
	return s.g.policyEngine().Decide(a, s.g.decisionCtx(s.dir))
}

// accept passes text on, printing the warnings not printed before.
func (s *streamer) accept(text string, d *policy.Decision) {
	if d.Verdict == policy.Warn && d.Mode != policy.Audit {
		for _, h := range d.Hits {
			k := h.Rule.ID + "\x00" + h.Pos.String() + "\x00" + h.Span
			if s.warned[k] {
				continue
			}
			if s.warned == nil {
				s.warned = map[string]bool{}
			}
			s.warned[k] = true
			fmt.Fprintf(s.g.st.err, "guard-exec: warning: %s: %s\n", h.Rule.ID, h.Rule.Message)
		}
		s.g.ciAnnotate("", d)
	}
	s.send(text)
}

// overBounds reports a decision held because the input is over the
// analysis' bounds (size, nesting, number of commands).
func overBounds(d *policy.Decision) bool {
	for _, h := range d.Hits {
		switch h.Rule.ID {
		case "input-too-large", "nesting-too-deep", "analysis-budget":
			return true
		}
	}
	return false
}

// hold records and explains a held statement and gives bash a failing
// command in its place.
func (s *streamer) hold(text string, d *policy.Decision) {
	g := s.g
	id := ""
	if led, err := g.book(); err == nil {
		rec := g.execRecord(&job{script: text, dir: s.dir}, &parse.Analysis{Canonical: strings.TrimSpace(text)}, d)
		rec.Kind = ledger.KindDecision
		id, _ = led.Append(rec)
	}
	g.reportBlock(d, id)
	g.ciAnnotate("", d)
	g.ciSummaryRow(blockWord(d), text, d, exitBlocked)
	s.send(heldStmt)
}

// send gives text to the shell and adds it to what later pieces are
// judged with.
func (s *streamer) send(text string) {
	if text == "" || s.dead {
		return
	}
	if _, err := io.WriteString(s.w, text); err != nil {
		s.dead = true
		return
	}
	s.ctx += text
	if len(s.ctx) > max(compactAt, 2*s.compacted) {
		s.ctx = s.compact(s.ctx)
		s.compacted = len(s.ctx)
	}
}

// compact keeps the statements of ctx that later statements may depend
// on. If even that judges as blocked (an uncalled function body, say) or
// stays too large, the context is dropped: later pieces are then judged on
// their own.
func (s *streamer) compact(ctx string) string {
	f, err := newParser(s.dialect).Parse(strings.NewReader(ctx), "")
	if err != nil {
		return ""
	}
	var b strings.Builder
	for _, st := range f.Stmts {
		if defining(st) {
			b.WriteString(ctx[st.Pos().Offset():st.End().Offset()])
			b.WriteByte('\n')
		}
	}
	out := b.String()
	if len(out) > maxStreamCtx/2 || s.decide(out).Verdict.Blocks() {
		return ""
	}
	return out
}

// defining reports whether a top-level statement sets up state for later
// ones rather than only doing work.
func defining(st *syntax.Stmt) bool {
	switch c := st.Cmd.(type) {
	case *syntax.FuncDecl, *syntax.DeclClause:
		return true
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			return true // VAR=value
		}
		switch c.Args[0].Lit() {
		case "alias", "unalias", "shopt", "set", "cd", "pushd", "popd", "source", ".", "umask", "enable", "hash":
			return true
		}
	}
	return false
}

// unit is a run of top-level statements that can be held alone: it starts
// at its first statement and takes the text up to the next unit.
type unit struct{ start, end int }

// splitUnits cuts text into units. A statement with a heredoc is glued to
// the next one, so that its body (which follows the line) never ends up
// passed on as commands of its own. nil means text does not parse.
func splitUnits(text string, d parse.Dialect) []unit {
	f, err := newParser(d).Parse(strings.NewReader(text), "")
	if err != nil || len(f.Stmts) == 0 {
		return nil
	}
	var units []unit
	glue := false
	for i, st := range f.Stmts {
		off := int(st.Pos().Offset())
		switch {
		case i == 0:
			units = append(units, unit{start: off})
		case !glue:
			units[len(units)-1].end = off
			units = append(units, unit{start: off})
		}
		glue = hasHeredoc(st)
	}
	units[len(units)-1].end = len(text)
	return units
}

func hasHeredoc(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if r, ok := n.(*syntax.Redirect); ok && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) {
			found = true
		}
		return !found
	})
	return found
}
