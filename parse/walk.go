package parse

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// walkStmts analyses a statement list in order.
func (fr *frame) walkStmts(stmts []*syntax.Stmt) {
	for _, s := range stmts {
		fr.walkStmt(s)
	}
}

// walkStmt analyses one statement.
func (fr *frame) walkStmt(s *syntax.Stmt) {
	if s == nil {
		return
	}
	f := fr
	if s.Background || s.Coprocess {
		// A background job runs in a subshell: its cd and assignments
		// do not reach the statements after it.
		f = fr.subshell(InBackground)
	}
	if call, ok := s.Cmd.(*syntax.CallExpr); ok || s.Cmd == nil {
		f.callStmt(s, call)
		return
	}
	if len(s.Redirs) > 0 {
		f = f.redirected(s)
	}
	f.compound(s)
}

// redirected returns the frame for the body of a compound command with
// redirections: they apply to every command inside ("{ a; b; } > f",
// "while read l; do …; done < <(cmd)").
func (fr *frame) redirected(s *syntax.Stmt) *frame {
	e := &evaluator{fr: fr}
	rs, in := fr.redirects(s.Redirs, e)
	c := fr.sub(0)
	c.redirs = append(append([]Redirect(nil), fr.redirs...), rs...)
	if in != nil {
		c.stdin = in
	}
	return c
}

// compound analyses a statement whose command is not a simple command.
func (fr *frame) compound(s *syntax.Stmt) {
	switch c := s.Cmd.(type) {
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.Pipe, syntax.PipeAll:
			fr.pipe(s)
		case syntax.AndStmt, syntax.OrStmt:
			fr.andOr(c)
		}
	case *syntax.Subshell:
		fr.subshell(InSubshell).walkStmts(c.Stmts)
	case *syntax.Block:
		fr.walkStmts(c.Stmts)
	case *syntax.IfClause:
		fr.ifClause(c)
	case *syntax.WhileClause:
		fr.loop(func(f *frame) {
			f.sub(InCondition | InLoop).walkStmts(c.Cond)
			f.sub(InLoop).walkStmts(c.Do)
		})
	case *syntax.ForClause:
		fr.forClause(c)
	case *syntax.CaseClause:
		fr.caseClause(c)
	case *syntax.FuncDecl:
		fr.defineFunc(c)
	case *syntax.DeclClause:
		fr.declClause(s, c)
	case *syntax.LetClause:
		e := &evaluator{fr: fr}
		for _, x := range c.Exprs {
			fr.arith(x, e)
		}
	case *syntax.ArithmCmd:
		fr.arith(c.X, &evaluator{fr: fr})
	case *syntax.TestClause:
		fr.walkSubsts(c.X, &evaluator{fr: fr})
	case *syntax.TimeClause:
		fr.walkStmt(c.Stmt)
	case *syntax.CoprocClause:
		fr.coproc(c)
	case *syntax.TestDecl:
		fr.walkStmt(c.Body)
	default:
		fr.walkSubsts(s.Cmd, &evaluator{fr: fr})
	}
}

// cond walks a statement in a condition and returns the state it leaves
// when it succeeds; fr.st is left as the state after it either way.
func (fr *frame) cond(s *syntax.Stmt) *state {
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.AndStmt || b.Op == syntax.OrStmt) && len(s.Redirs) == 0 && !s.Background && !s.Negated {
		return fr.andOr(b)
	}
	fr.walkStmt(s)
	return fr.st.clone()
}

// andOr analyses "A && B" and "A || B". B starts where A succeeded (&&)
// or where A may have left on failure (||: a failing cd left the
// directory where it was). It returns the state the list leaves on
// success, where a longer chain continues ("cd /a && cd b && ls").
//
// After the list: an && chain is read as a sequence, its commands assumed
// to succeed as a literal cd is ("cd build && make; ls" lists build),
// unless its left side is a test ([ -d x ], grep -q, command -v …): then
// B is a branch, and what it changes is unknown afterwards. After ||,
// what B changes is always unknown.
func (fr *frame) andOr(b *syntax.BinaryCmd) *state {
	if b.Op == syntax.AndStmt {
		okA := fr.sub(InCondition).cond(b.X)
		afterA := fr.st.clone()
		*fr.st = *okA
		okB := fr.sub(InBranch).cond(b.Y)
		if fr.r.hasTest(b.X) {
			fr.st.merge(afterA)
		}
		return okB
	}
	before := fr.st.clone()
	okA := fr.sub(InCondition | InOrLeft).cond(b.X)
	afterA := fr.st.clone()
	if !doneEitherWay(b.X) {
		fr.st.merge(before)
	}
	okB := fr.sub(InBranch).cond(b.Y)
	bDead := fr.st.dead
	fr.st.merge(afterA)
	okB.merge(okA)
	if made := fr.mkdirMade(b.X); made != "" && bDead && !b.X.Negated {
		fr.st.setFlag(made, true, false) // mkdir "$d" || exit 1
	}
	return okB
}

// pipeline analyses the stages of a pipeline, each in its own subshell
// (bash without lastpipe), feeding each stage the output of the previous.
func (fr *frame) pipe(s *syntax.Stmt) {
	b := s.Cmd.(*syntax.BinaryCmd) // s's own flags (&, !, redirections) are handled by walkStmt
	stages := flattenPipe(b.Y, flattenPipe(b.X, nil))
	fr.r.pipeSeq++
	id := fr.r.pipeSeq
	var prev, upstream []*Command
	for i, stage := range stages {
		sub := fr.subshell(InPipeline)
		sub.pipeline, sub.pipeIndex = id, i
		var got []*Command
		sub.collect = &got
		if i > 0 {
			sub.stdin = pipeInput(prev, upstream, fr.pos.of(stage.Pos()))
			for _, c := range prev {
				c.pipedOut = true // its output went to this stage
			}
		}
		sub.walkStmt(stage)
		prev = got
		upstream = append(upstream, got...)
		if fr.collect != nil {
			*fr.collect = append(*fr.collect, got...)
		}
	}
}

// flattenPipe lists the stages of a left-nested pipeline.
func flattenPipe(s *syntax.Stmt, out []*syntax.Stmt) []*syntax.Stmt {
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && !s.Negated && len(s.Redirs) == 0 && !s.Background {
		out = flattenPipe(b.X, out)
		return flattenPipe(b.Y, out)
	}
	return append(out, s)
}

// pipeInput is the input of a stage: what the previous stage prints.
func pipeInput(prev, upstream []*Command, at Pos) *Input {
	// upstream only grows: the stages share it, full-sliced so no append
	// of one can write into another (copying it made long pipelines
	// quadratic).
	in := &Input{Kind: InputPipe, Pos: at, upstream: upstream[:len(upstream):len(upstream)]}
	if len(prev) > 0 {
		in.From = prev[len(prev)-1]
	}
	in.Text, in.Known = outputOf(prev)
	if len(prev) == 1 && prev[0].outFrom != nil {
		in.verbatim, in.Pos = true, prev[0].outFrom.Pos
	}
	return in
}

// ifClause analyses if/elif/else. The then-branch starts where the
// condition left; the else-branch where the condition may have left
// (a failed condition may not have done all it does). After the clause
// what differs between the branches is unknown.
func (fr *frame) ifClause(c *syntax.IfClause) {
	before := fr.st.clone()
	okCond := fr.condList(c.Cond)
	afterCond := fr.st.clone()
	var last *syntax.Stmt
	if n := len(c.Cond); n > 0 {
		last = c.Cond[n-1]
	}
	made := fr.mkdirMade(last)
	*fr.st = *okCond
	if made != "" && !last.Negated {
		fr.st.setFlag(made, true, false) // if mkdir "$d"; then …
	}
	fr.sub(InBranch).walkStmts(c.Then)
	thenEnd := fr.st.clone()
	*fr.st = *afterCond
	switch {
	case made != "" && last.Negated: // if ! mkdir "$d"; then exit 1; else …
		fr.st.setFlag(made, true, false)
	case last == nil || !doneEitherWay(last):
		fr.st.merge(before)
	}
	if v := absentTested(last); v != "" {
		fr.st.setFlag(v, false, true) // if [ -e "$d" ]; then …; else …
	}
	if el := c.Else; el != nil {
		if len(el.Cond) > 0 {
			fr.sub(InBranch).ifClause(el)
		} else {
			fr.sub(InBranch).walkStmts(el.Then)
		}
	}
	fr.st.merge(thenEnd)
}

// doneEitherWay reports whether a condition does all it does whether it succeeds
// or fails, so that the state it leaves on failure is the state after it: a
// statement of assignments only (`if ! dir=$(mktemp -d); then exit 1; fi`), whose
// status is that of its last substitution but whose assignments happen anyway.
func doneEitherWay(s *syntax.Stmt) bool {
	c, ok := s.Cmd.(*syntax.CallExpr)
	return ok && len(c.Args) == 0 && len(c.Assigns) > 0 && len(s.Redirs) == 0 && !s.Background && !s.Coprocess
}

// condList walks the statements of a condition; it returns the state
// their success leaves.
func (fr *frame) condList(stmts []*syntax.Stmt) *state {
	f := fr.sub(InCondition)
	for i, s := range stmts {
		if i == len(stmts)-1 {
			return f.cond(s)
		}
		f.walkStmt(s)
	}
	return fr.st.clone()
}

// loop analyses a loop. Its body may run any number of times, so it is
// first walked quietly until the state at the top of the loop is stable
// (what an iteration changes is unknown at the next), then once for
// facts. After three quiet passes the variables still changing are made
// plainly unknown (no more values collected for them), and the others keep
// theirs: a counter or an array growing in the loop says nothing of a log
// file's name the loop never sets. Six passes at most; beyond, nothing is
// known.
func (fr *frame) loop(body func(*frame)) {
	entry := fr.st.clone()
	for pass := 0; ; pass++ {
		if !fr.spend(1, Pos{}) {
			return // nested loops multiply passes: bounded by the budget
		}
		trial := fr.sub(0)
		trial.st = entry.clone()
		fr.r.quiet++
		body(trial)
		fr.r.quiet--
		next := entry.clone()
		next.merge(trial.st)
		if next.equal(entry) {
			break
		}
		if pass >= 2 {
			next.widen(entry)
		}
		entry = next
		if pass == 5 {
			entry.forgetAll()
			break
		}
	}
	*fr.st = *entry.clone()
	body(fr)
	fr.st.merge(entry)
}

// maxLoopItems bounds the literal items a for loop is unrolled over.
const maxLoopItems = 16

// forClause analyses for loops. Over a few literal items the body is
// analysed once per item with the variable known ("for d in build dist;
// do rm -rf $d; done"); otherwise the variable is unknown, or a pattern
// for glob items.
func (fr *frame) forClause(c *syntax.ForClause) {
	switch l := c.Loop.(type) {
	case *syntax.WordIter:
		var items []arg
		if l.InPos.IsValid() {
			items, _ = fr.expandArgs(l.Items)
		} else {
			items = argsOf(fr.lookup("@"))
		}
		name := l.Name.Value
		if c.Select {
			fr.loop(func(f *frame) {
				f.st.forget(name)
				f.sub(InLoop).walkStmts(c.Do)
			})
			return
		}
		all := allOf(items)
		if literalItems(items) && len(items) <= maxLoopItems && all == "" {
			// With break or continue an iteration may stop short: each
			// then starts from what the previous may have left.
			jumps := hasJump(c.Do)
			for _, it := range items {
				if !fr.spend(1, fr.pos.of(c.Pos())) {
					return // nested unrolled loops multiply: bounded by the budget
				}
				start := fr.st.clone()
				fr.st.set(name, strVar(it.Value, false))
				fr.sub(InLoop).walkStmts(c.Do)
				if jumps {
					fr.st.merge(start)
				}
			}
			return
		}
		loopVar := &variable{}
		switch {
		case len(items) == 1 && items[0].Glob && !items[0].Dynamic:
			loopVar = &variable{known: true, pattern: true, v: strVar(items[0].Value, false).v}
		case all != "":
			// for f in *: each f is one of the directory's entries,
			// whatever it holds today (Word.AllOf).
			loopVar = &variable{known: true, pattern: true, v: strVar(strings.TrimSuffix(all, "/")+"/*", false).v}
		}
		fr.loop(func(f *frame) {
			f.st.set(name, loopVar)
			f.sub(InLoop).walkStmts(c.Do)
		})
	case *syntax.CStyleLoop:
		e := &evaluator{fr: fr}
		fr.arith(l.Init, e)
		fr.loop(func(f *frame) {
			f.arith(l.Cond, e)
			f.sub(InLoop).walkStmts(c.Do)
			f.arith(l.Post, e)
		})
	}
}

func argsOf(v *variable) []arg {
	if !v.known {
		return []arg{{Word: Word{Value: Unknown, Dynamic: true}}}
	}
	out := make([]arg, len(v.v.List))
	for i, s := range v.v.List {
		out[i] = arg{Word: Word{Value: s, Dynamic: hasUnknown(s)}}
	}
	return out
}

// allOf returns the directory when every item is one of the entries a
// pattern matching all of them expanded to (Word.AllOf), "" otherwise.
func allOf(items []arg) string {
	if len(items) == 0 || items[0].AllOf == "" {
		return ""
	}
	for _, it := range items[1:] {
		if it.AllOf != items[0].AllOf {
			return ""
		}
	}
	return items[0].AllOf
}

func literalItems(items []arg) bool {
	for _, it := range items {
		if !it.Literal() {
			return false
		}
	}
	return true
}

// caseClause analyses each arm from the state before the case; after it,
// what differs between the arms (and no arm matching) is unknown.
func (fr *frame) caseClause(c *syntax.CaseClause) {
	e := &evaluator{fr: fr}
	fr.single(c.Word, false)
	before := fr.st.clone()
	var end *state
	catchAll := false
	for _, it := range c.Items {
		*fr.st = *before.clone()
		for _, p := range it.Patterns {
			fr.walkSubsts(p, e)
			if p.Lit() == "*" {
				catchAll = true
			}
		}
		fr.sub(InBranch).walkStmts(it.Stmts)
		if end == nil {
			end = fr.st.clone()
		} else {
			end.merge(fr.st)
		}
	}
	if end == nil {
		end = before
	} else if !catchAll {
		end.merge(before)
	}
	*fr.st = *end
}

// hasTest reports whether a statement (or any command of an && / ||
// chain) is a test whose failure is expected: B of "TEST && B" is a
// conditional branch.
func (r *root) hasTest(s *syntax.Stmt) bool {
	if s == nil {
		return false
	}
	if s.Negated {
		return true
	}
	switch c := s.Cmd.(type) {
	case *syntax.BinaryCmd:
		// Each link of a long chain asks about all the links before it:
		// the answers are kept, or "a && b && … " is quadratic.
		if t, ok := r.tests[c]; ok {
			return t
		}
		var t bool
		if c.Op == syntax.AndStmt || c.Op == syntax.OrStmt {
			t = c.Op == syntax.OrStmt || r.hasTest(c.X) || r.hasTest(c.Y)
		} else {
			t = r.hasTest(c.Y) // a pipeline's status is its last stage's
		}
		if r.tests == nil {
			r.tests = make(map[*syntax.BinaryCmd]bool)
		}
		r.tests[c] = t
		return t
	case *syntax.TestClause, *syntax.ArithmCmd, *syntax.LetClause:
		return true
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			return false
		}
		name := c.Args[0].Lit()
		switch name {
		case "[", "test", "true", "false", "which", "type", "hash", "pgrep", "diff", "cmp", "id", "getent", "kill":
			return true
		case "command":
			return len(c.Args) > 1 && (c.Args[1].Lit() == "-v" || c.Args[1].Lit() == "-V")
		case "grep", "egrep", "fgrep", "rg":
			for _, a := range c.Args[1:] {
				if l := a.Lit(); l == "-q" || l == "--quiet" || l == "-s" || strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "--") && strings.Contains(l, "q") {
					return true
				}
			}
		}
	}
	return false
}

// hasJump reports whether statements hold break or continue (or a
// return or exit), which can cut a loop iteration short.
func hasJump(stmts []*syntax.Stmt) bool {
	found := false
	for _, st := range stmts {
		syntax.Walk(st, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
				switch c.Args[0].Lit() {
				case "break", "continue", "return", "exit":
					found = true
				}
			}
			return !found
		})
	}
	return found
}
