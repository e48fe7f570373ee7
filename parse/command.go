package parse

import (
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// callSite is where a command was found: what the command line around
// its words says.
type callSite struct {
	pos    Pos
	span   string
	redirs []Redirect
	stdin  *Input
	slot   int
	// feeders are the commands of the substitutions in the command's
	// words and redirections.
	feeders []*Command
}

// callStmt analyses a statement whose command is simple (or empty: only
// assignments and redirections).
func (fr *frame) callStmt(s *syntax.Stmt, call *syntax.CallExpr) {
	at := fr.pos.of(s.Pos())
	if !fr.spend(1, at) {
		return
	}
	slot := fr.reserve()
	if call != nil && fr.aliasCall(s, call, slot) {
		return
	}
	e := &evaluator{fr: fr, split: true}
	var args []arg
	if call != nil {
		args = make([]arg, 0, len(call.Args))
		for _, w := range call.Args {
			args = e.expandArg(w, args)
		}
	}
	redirs, in := fr.redirects(s.Redirs, e)
	var assigns []Assign
	var assignFeeders [][]*Command
	if call != nil && len(call.Assigns) > 0 {
		assigns, assignFeeders = fr.assigns(call.Assigns, len(args) > 0)
	}
	feeders := e.feeders
	for _, a := range assignFeeders {
		feeders = append(feeders, a...)
	}
	site := &callSite{pos: at, span: fr.span(s), redirs: redirs, stdin: in, slot: slot, feeders: feeders}
	if len(args) == 0 {
		if len(redirs) == 0 {
			fr.unreserve(slot)
			return
		}
		// A command with no words still performs its redirections:
		// "> f" truncates f.
		c := fr.newCommand(site, assigns)
		c.outKnown = true // "> f" empties f
		fr.fill(slot, c)
		fr.recordWrites(c)
		return
	}
	fr.run(args, assigns, site)
}

// runArgv analyses an argument vector with no source syntax around it.
func (fr *frame) runArgv(words []Word, assigns []Assign, at Pos, span string) {
	args := make([]arg, len(words))
	for i, w := range words {
		args[i] = arg{Word: w}
	}
	site := &callSite{pos: at, span: bound(span), slot: fr.reserve()}
	fr.run(args, assigns, site)
}

// newCommand starts a Command with what the frame and the site say.
func (fr *frame) newCommand(site *callSite, assigns []Assign) *Command {
	c := &Command{
		Assigns:     assigns,
		Inherited:   fr.inherit,
		Dir:         fr.st.dir,
		DirPart:     fr.st.dirPart,
		DirMade:     fr.st.dirMade,
		Context:     fr.ctx,
		Via:         fr.via,
		Remote:      fr.remote,
		User:        fr.user,
		Pipeline:    fr.pipeline,
		PipeIndex:   fr.pipeIndex,
		Pos:         site.pos,
		Span:        site.span,
		Placeholder: fr.placeholder,
		Synthetic:   fr.synthetic,
		Feeders:     site.feeders,
	}
	if len(fr.redirs) > 0 || len(site.redirs) > 0 {
		c.Redirs = append(slices.Clip(fr.redirs), site.redirs...)
	}
	switch {
	case site.stdin != nil:
		c.Stdin = site.stdin
		c.ownStdin = true
	case fr.stdin != nil:
		in := *fr.stdin // a copy: whether it is executed is per command
		c.Stdin = &in
	}
	return c
}

// run analyses a command given its expanded fields: wrappers are peeled,
// the command is recorded, and whatever it runs is followed.
func (fr *frame) run(args []arg, assigns []Assign, site *callSite) {
	if fr.partial {
		fr.unsentinel(args)
	}
	c := fr.newCommand(site, assigns)
	args = fr.peel(c, args)
	setName(c, args[0].Word)
	c.Args = words(args[1:])
	c.ArgFeeders = argFeeders(args[1:])
	fr.dispatch(c, args, site)
}

// setName resolves the program name as bash does: the word after quote
// removal, its directory stripped.
func setName(c *Command, w Word) {
	c.Path = w.Value
	c.Name = w.Value
	if !w.Literal() {
		c.NameDynamic = true
	}
	if i := strings.LastIndexByte(w.Value, '/'); i >= 0 && i < len(w.Value)-1 {
		c.Name = w.Value[i+1:]
	}
}

func words(args []arg) []Word {
	if len(args) == 0 {
		return nil
	}
	out := make([]Word, len(args))
	for i, a := range args {
		out[i] = a.Word
	}
	return out
}

// argFeeders lists the feeders of each argument, or nil when no
// argument has any.
func argFeeders(args []arg) [][]*Command {
	var out [][]*Command
	for i, a := range args {
		if len(a.feeders) == 0 {
			continue
		}
		if out == nil {
			out = make([][]*Command, len(args))
		}
		out[i] = a.feeders
	}
	return out
}

// reserve keeps a place for a command in source order: the commands of
// its substitutions, found while expanding its words, come after it.
func (fr *frame) reserve() int {
	if fr.r.quiet > 0 {
		return -1
	}
	fr.r.an.Commands = append(fr.r.an.Commands, nil)
	return len(fr.r.an.Commands) - 1
}

func (fr *frame) unreserve(slot int) {
	if slot < 0 {
		return
	}
	cs := fr.r.an.Commands
	if slot < len(cs) && cs[slot] == nil {
		fr.r.an.Commands = slices.Delete(cs, slot, slot+1)
	}
}

// fill records c in its reserved place.
func (fr *frame) fill(slot int, c *Command) {
	if fr.collect != nil {
		// Also when quiet: collected commands inform outputs, not facts.
		*fr.collect = append(*fr.collect, c)
	}
	if slot < 0 || slot >= len(fr.r.an.Commands) || fr.r.an.Commands[slot] != nil {
		if fr.r.quiet == 0 {
			fr.r.an.Commands = append(fr.r.an.Commands, c)
		}
		return
	}
	fr.r.an.Commands[slot] = c
}

// assigns evaluates assignments. Before a command they are prefixes: set
// for that command only, visible to the later prefixes. Alone they
// assign in the shell, left to right.
func (fr *frame) assigns(as []*syntax.Assign, prefix bool) ([]Assign, [][]*Command) {
	f := fr
	if prefix {
		f = fr.sub(0)
		f.st = fr.st.clone()
	}
	out := make([]Assign, 0, len(as))
	var feeders [][]*Command
	for _, a := range as {
		if a.Name == nil {
			continue
		}
		v := f.assignValue(a, "")
		if v.v != nil && len(v.v.feeders) > 0 {
			feeders = append(feeders, v.v.feeders)
		}
		out = append(out, Assign{Name: a.Name.Value, Value: v.word})
		f.apply(a.Name.Value, v, prefix)
		f.emitAssignment(&Assignment{Name: a.Name.Value, Value: v.word, Export: prefix, Prefix: prefix, Append: a.Append, Array: a.Array != nil, Pos: fr.pos.of(a.Pos())})
	}
	return out, feeders
}

// assigned is an evaluated assignment value.
type assigned struct {
	word Word
	v    *variable
}

// assignValue evaluates the value of an assignment.
func (fr *frame) assignValue(a *syntax.Assign, flags string) assigned {
	pos := fr.pos.of(a.Pos())
	switch {
	case a.Array != nil:
		var list []string
		dyn, keyed := false, false
		e := &evaluator{fr: fr, split: true}
		var fields []arg
		for _, el := range a.Array.Elems {
			if el.Index != nil {
				keyed = true
				fr.walkSubsts(el.Index, e) // a=([$(cmd)]=x) runs cmd
			}
			if el.Value != nil {
				fields = e.expandArg(el.Value, fields)
			}
		}
		for _, f := range fields {
			list = append(list, f.Value)
			dyn = dyn || !f.Literal()
		}
		w := Word{Value: strings.Join(list, " "), Dynamic: dyn, Pos: pos}
		if a.Append && !dyn && !keyed {
			// arr+=(x): appended to a known array.
			if old := fr.lookup(a.Name.Value); old.known && (old.v.Kind == expand.Indexed && old.v.Indexes == nil || !old.v.Set) {
				list = append(slices.Clone(old.v.List), list...)
				return assigned{word: w, v: &variable{known: true, v: indexed(list), feeders: e.feeders}}
			}
		}
		if keyed && !dyn && !a.Append && (strings.Contains(flags, "A") || fr.isAssoc(a.Name.Value)) {
			if m, ok := fr.assocElems(a.Array.Elems, e); ok {
				return assigned{word: w, v: &variable{known: true, v: expand.Variable{Set: true, Kind: expand.Associative, Map: m}, feeders: e.feeders}}
			}
		}
		if dyn || keyed || strings.Contains(flags, "A") || a.Append {
			return assigned{word: w, v: &variable{feeders: e.feeders}}
		}
		return assigned{word: w, v: &variable{known: true, v: indexed(list), feeders: e.feeders}}
	case a.Naked:
		return assigned{word: Word{Pos: pos}, v: nil}
	}
	w, feeders := fr.single(a.Value, true)
	w.Pos = pos
	v := fr.assignWord(a, w, flags)
	made := a.Index == nil && !a.Append && (w.Made || isMktempSubst(a.Value))
	// A value whose unknown parts hold no slash or blank ($$, $RANDOM,
	// mktemp's name: TESTDIR=$TMPDIR/glob-test-$$) is known but for a file
	// name (state.go's nameHoles).
	holes := a.Index == nil && !a.Append && v.v != nil && v.v.known && hasUnknown(v.v.v.Str) && fr.nameOnlyHoles(a.Value)
	if len(feeders) > 0 || made || holes {
		nv := *v.v
		nv.feeders = feeders
		nv.made = made
		nv.nameHoles = nv.known && (holes || made && (isMktempSubst(a.Value) || soleParam(a.Value) != "" && fr.lookup(soleParam(a.Value)).nameHoles))
		v.v = &nv
	}
	return v
}

func (fr *frame) assignWord(a *syntax.Assign, w Word, flags string) assigned {
	if a.Index != nil {
		if fr.walkSubsts(a.Index, &evaluator{fr: fr}) { // a[$(cmd)]=x runs cmd
			return assigned{word: w, v: &variable{}}
		}
		return assigned{word: w, v: fr.elemAssign(a, w)}
	}
	if a.Append {
		old := fr.lookup(a.Name.Value)
		if !old.known || strings.Contains(fr.st.attrsOf(a.Name.Value), "i") {
			return assigned{word: w, v: &variable{}}
		}
		ov, _ := old.value()
		w.Value = ov + w.Value
		w.Dynamic = w.Dynamic || hasUnknown(ov)
	}
	if w.Dynamic || strings.Contains(flags, "i") {
		if strings.Contains(flags, "i") || !strings.Contains(w.Value, Unknown) {
			return assigned{word: w, v: &variable{}}
		}
		// Keep the known parts: X="rm $Y" is "rm " and something.
		return assigned{word: w, v: strVar(w.Value, false)}
	}
	return assigned{word: w, v: strVar(w.Value, false)}
}

// apply sets a variable in the frame's shell, following namerefs.
func (fr *frame) apply(name string, v assigned, export bool) {
	if v.v == nil {
		return
	}
	if old, ok := fr.st.vars[name]; ok && old.known && old.v.Kind == expand.NameRef {
		if target := old.v.Str; validName(target) {
			name = target
		} else {
			fr.st.forgetAll()
			return
		}
	} else if ok && !old.known && old.exported && !export {
		export = true
	}
	nv := *v.v
	nv.exported = export
	fr.st.set(name, &nv)
}

// dispatch records the command and follows what it runs.
func (fr *frame) dispatch(c *Command, args []arg, site *callSite) {
	fr.fill(site.slot, c)
	fr.follow(c, args)
	if c.Name == "git" && !c.outKnown {
		c.out, c.outKnown = fr.revParse(c) // git has a sink of its own
	}
	fr.feedChannels(c)
	// What it wrote, for a script run later in the line; its output
	// went to the file, not to a pipe or substitution.
	fr.recordWrites(c)
	if redirectsStdout(c.Redirs) {
		c.out, c.outKnown = "", true
	}
}

func (fr *frame) follow(c *Command, args []arg) {
	if c.NameDynamic {
		fr.dynamicName(c, args)
		return
	}
	if fn := fr.function(c); fn != nil {
		fr.callFunc(fn, c, args)
		return
	}
	if h := builtinOf(c.Name); h != nil && (len(c.Wrappers) == 0 || builtinThrough(c)) {
		h(fr, c, args)
		return
	}
	if p := fr.writtenOnPath(c); p != "" {
		// PATH=/tmp:$PATH x, x a copy of rm this line made: the file
		// the name finds is what runs.
		c.Path = p
		if fr.execFile(c, args) {
			return
		}
	}
	args = fr.optionsFromEnv(c, args)
	fr.followTable(c, args)
	if h := sinkOf(c.Name); h != nil {
		h(fr, c, args)
		return
	}
	if h := versionedSink(c.Name); h != nil {
		h(fr, c, args)
		return
	}
	if fr.execFile(c, args) {
		return
	}
	fr.dataCommand(c, args)
}

// builtinThrough reports whether the builtin still runs in this shell
// after the wrappers peeled off it (builtin cd, command cd, time cd).
func builtinThrough(c *Command) bool {
	for _, w := range c.Wrappers {
		if w != "builtin" && w != "command" {
			return false
		}
	}
	return true
}

// dynamicName records a command whose name is not known.
func (fr *frame) dynamicName(c *Command, args []arg) {
	if fr.partial && strings.Trim(c.Path, Unknown) == "" {
		return // the enclosing dynamic fact covers it
	}
	var known []string
	for _, a := range args {
		known = append(known, a.Value)
	}
	fr.emitDynamic(&Dynamic{Kind: DynCommandName, Sink: c, Known: strings.Join(known, " "), Feeders: fr.nameFeeders(args[0]), Pos: c.Pos})
}

// nameFeeders are the commands whose output makes a command name: those
// of the substitutions in its word.
func (fr *frame) nameFeeders(a arg) []*Command {
	return a.feeders
}

// resolvePath makes p absolute against dir and cleans it lexically; ""
// when it cannot be known.
func resolvePath(dir, p string) string {
	switch {
	case p == "" || hasUnknown(p):
		return ""
	case strings.HasPrefix(p, "/"):
		return path.Clean(p)
	case dir == "":
		return ""
	}
	return path.Join(dir, p)
}

// unsentinel turns the sentinel that stood for an unknown part back into
// Unknown where quoting kept it as text (eval "echo '$X'").
func (fr *frame) unsentinel(args []arg) {
	for i := range args {
		if v, ok := fr.unmade(args[i].Value); ok {
			args[i].Value, args[i].Dynamic = v, true
		}
		if strings.Contains(args[i].Value, sentinelText) {
			args[i].Value = strings.ReplaceAll(args[i].Value, sentinelText, Unknown)
			args[i].Dynamic = true
		}
	}
}

func (fr *frame) isAssoc(name string) bool {
	v := fr.lookup(name)
	return v.known && v.v.Kind == expand.Associative
}

// assocElems evaluates the ([key]=value …) of an associative array.
func (fr *frame) assocElems(elems []*syntax.ArrayElem, e *evaluator) (map[string]string, bool) {
	m := make(map[string]string, len(elems))
	for _, el := range elems {
		key, ok := fr.assocKey(el.Index)
		if !ok || el.Value == nil && el.Index == nil {
			return nil, false
		}
		val := ""
		if el.Value != nil {
			w, _ := fr.single(el.Value, false)
			if !w.Literal() {
				return nil, false
			}
			val = w.Value
		}
		m[key] = val
	}
	return m, true
}

// assocKey is the key of an associative array's element: the word in
// brackets, expanded as a word (not arithmetic).
func (fr *frame) assocKey(x syntax.ArithmExpr) (string, bool) {
	w, ok := x.(*syntax.Word)
	if !ok {
		return "", false
	}
	k, _ := fr.single(w, false)
	return k.Value, k.Literal()
}

// elemAssign is the variable after a[i]=value: an element of an
// associative array by key; of an indexed (or scalar, or unset) array by
// arithmetic index, as long as the array stays dense (an index at most
// its length, or negative from the end). Anything else is unknown.
func (fr *frame) elemAssign(a *syntax.Assign, w Word) *variable {
	name := a.Name.Value
	old := fr.lookup(name)
	if !old.known || !w.Literal() || a.Append {
		return &variable{}
	}
	if old.v.Kind == expand.Associative {
		key, ok := fr.assocKey(a.Index)
		if !ok {
			return &variable{}
		}
		m := maps.Clone(old.v.Map)
		if m == nil {
			m = make(map[string]string)
		}
		m[key] = w.Value
		return &variable{known: true, v: expand.Variable{Set: true, Kind: expand.Associative, Map: m}}
	}
	var list []string
	switch {
	case !old.v.Set:
	case old.v.Kind == expand.String:
		list = []string{old.v.Str}
	case old.v.Kind == expand.Indexed && old.v.Indexes == nil:
		list = slices.Clone(old.v.List)
	default:
		return &variable{}
	}
	is, ok := fr.arith(a.Index, &evaluator{fr: fr})
	if !ok {
		return &variable{}
	}
	i, err := strconv.Atoi(is)
	if err != nil {
		return &variable{}
	}
	if i < 0 {
		i += len(list)
	}
	switch {
	case i < 0 || i > len(list):
		return &variable{}
	case i == len(list):
		list = append(list, w.Value)
	default:
		list[i] = w.Value
	}
	return &variable{known: true, v: indexed(list)}
}

// writtenOnPath returns the file a command name without a slash finds on
// the PATH the command runs with, when it is one this line wrote (cp
// /bin/rm bin/ls; PATH=bin:$PATH ls): the directories of PATH in order,
// up to the first that is not known; "" when none is.
func (fr *frame) writtenOnPath(c *Command) string {
	if len(fr.r.files) == 0 || strings.Contains(c.Path, "/") || c.NameDynamic || hasUnknown(c.Path) || c.Path == "" {
		return ""
	}
	v, ok := fr.envOf(c, "PATH")
	if !ok {
		return ""
	}
	for _, d := range strings.Split(v, ":") {
		if hasUnknown(d) {
			return ""
		}
		if d == "" {
			d = "."
		}
		full := resolvePath(c.Dir, d+"/"+c.Path)
		if full != "" && fr.r.files[full] != nil {
			return full
		}
	}
	return ""
}
