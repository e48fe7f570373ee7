package parse

import (
	"strings"
	"sync"
)

// value is what the scanner knows of an expression: a string (Unknown in
// its holes), a list, or the boolean options of an object or keyword
// arguments.
type value struct {
	s      string
	list   []value
	isList bool
	flags  map[string]bool
	module string // a module object: require('child_process'), __import__('os')
	// glob is set for the paths a pattern matches (Dir.glob("x/*")): s
	// is the pattern, expanded where the value is used.
	glob bool
	// home is set for a path the code computes from the home directory
	// (os.path.expanduser("~/x"), os.homedir() + "/x", File.join(Dir.home,
	// "x")): s starts with "~", which the file APIs' use expands, where a
	// "~" the code spells in a string stays a name.
	home bool
}

var unknownValue = value{s: Unknown}

func (v value) known() bool { return !v.isList && !hasUnknown(v.s) }

// call is a call of a named function found in interpreter code.
type call struct {
	name string // resolved: "os.system", "child_process.execSync", "system"
	args []value
	kw   map[string]value
	// method is set for Path(p).unlink()-style calls: the method name,
	// with the receiver's arguments in args.
	method string
	// cmd is set for command literals (`…`, qx{…}, %x{…}).
	cmd bool
}

// callScanner walks tokens finding calls, tracking imports (aliases) and
// simple assignments of literal values.
type callScanner struct {
	toks    []tok
	lang    langID
	aliases map[string]string
	vars    map[string]value
	calls   []call
}

func scanCalls(toks []tok, lang langID) []call {
	sc := &callScanner{toks: desugar(toks, lang), lang: lang}
	toks = sc.toks
	sc.globLoops()
	for i := 0; i < len(toks); {
		i = sc.step(i)
	}
	if lang == langAwk {
		sc.awkGetlines()
	}
	return sc.calls
}

func (sc *callScanner) at(i int) tok {
	if i < len(sc.toks) {
		return sc.toks[i]
	}
	return tok{kind: tPunct, s: ""}
}

func (sc *callScanner) isPunct(i int, s string) bool {
	t := sc.at(i)
	return t.kind == tPunct && t.s == s && i < len(sc.toks)
}

func (sc *callScanner) alias(local, target string) {
	if sc.aliases == nil {
		sc.aliases = make(map[string]string)
	}
	sc.aliases[local] = target
}

// step handles the token at i and returns the next index.
func (sc *callScanner) step(i int) int {
	t := sc.toks[i]
	switch t.kind {
	case tCmd:
		sc.calls = append(sc.calls, call{name: "`", args: []value{{s: t.s}}, cmd: true})
		return i + 1
	case tStr:
		if t.s != "" && sc.lang == langJS && i > 0 && sc.at(i-1).kind == tIdent && (sc.at(i-1).s == "$" || strings.HasSuffix(sc.at(i-1).s, ".$")) {
			sc.calls = append(sc.calls, call{name: "$`", args: []value{{s: t.s}}, cmd: true})
		}
		return i + 1
	case tIdent:
	default:
		return i + 1
	}
	if i > 0 && sc.isPunct(i-1, ".") {
		if _, _, ok := sc.moduleRef(i); !ok || sc.lang != langJS || !sc.isPunct(i-2, ")") {
			return i + 1 // an attribute, handled from its head
		}
		// Function("return process")().mainModule.require("m"): a head
		// the scanner cannot name, holding the module loader.
	}
	switch {
	case sc.lang == langPython && t.s == "import":
		return sc.pyImport(i + 1)
	case sc.lang == langPython && t.s == "from":
		return sc.pyFrom(i + 1)
	case sc.lang == langJS && t.s == "import":
		return sc.jsImport(i + 1)
	case sc.lang == langJS && (t.s == "const" || t.s == "let" || t.s == "var") && sc.isPunct(i+1, "{"):
		return sc.jsDestructure(i + 1)
	case sc.lang == langAppleScript && t.s == "do" && sc.at(i+1).s == "shell" && sc.at(i+2).s == "script":
		v, j := sc.expr(i + 3)
		sc.calls = append(sc.calls, call{name: "do shell script", args: []value{v}})
		return j
	}
	// require('m').f(…), __import__('os').system(…): a module's function.
	if m, j, ok := sc.moduleRef(i); ok {
		if sc.lang == langJS && sc.isPunct(j, ".") && sc.at(j+1).s == "then" && sc.isPunct(j+2, "(") {
			// import("m").then(m => m.execSync(…)): the body is scanned
			// with the parameter bound to the module.
			return sc.thenParams(m, j+3)
		}
		if sc.isPunct(j, ".") && sc.at(j+1).kind == tIdent && sc.isPunct(j+2, "(") {
			args, kw, _ := sc.args(j + 3)
			sc.calls = append(sc.calls, call{name: m + "." + sc.at(j+1).s, args: args, kw: kw})
			return j + 3
		}
		return j
	}
	name, j := sc.chain(i)
	if i > 0 && (sc.isPunct(i-1, "(") || sc.isPunct(i-1, ",")) && (sc.isPunct(j, ")") || sc.isPunct(j, ",")) {
		// .then(eval), map(os.system, cmds), forEach(execSync): a
		// function that runs code, passed as a value, runs what it is
		// given, which the scanner does not know.
		if a, ok := apiFor(sc.lang, sc.resolve(name)); ok && runsCode(a.kind) {
			sc.calls = append(sc.calls, call{name: sc.resolve(name), args: []value{unknownValue}})
			return j
		}
	}
	if _, known := sc.vars[name]; known && sc.at(j).kind == tPunct && strings.Contains("+-*/.|&?^%<>", sc.at(j).s) && sc.isPunct(j+1, "=") {
		// d += chunk: the value changed in a way the scanner does not
		// follow, so it is no longer known.
		sc.vars[name] = unknownValue
		return j
	}
	if sc.isPunct(j, "=") && !sc.isPunct(j+1, "=") && !strings.Contains(name, ".") {
		// f = os.system: the name is the API from here on.
		if nt := sc.at(j + 1); nt.kind == tIdent {
			if rhs, k := sc.chain(j + 1); !sc.isPunct(k, "(") {
				if _, ok := apiFor(sc.lang, sc.resolve(rhs)); ok {
					sc.alias(name, sc.resolve(rhs))
					return k
				}
			}
		}
		v, _ := sc.expr(j + 1)
		if v.module != "" {
			sc.alias(name, v.module)
		} else {
			if sc.vars == nil {
				sc.vars = make(map[string]value)
			}
			sc.vars[name] = v
		}
		return j + 1 // the value may hold calls too
	}
	if sc.isPunct(j, "(") {
		args, kw, k := sc.args(j + 1)
		c := call{name: sc.resolve(name), args: args, kw: kw}
		// Path(p).unlink(), open(p).read(): a method on the result.
		if sc.isPunct(k, ".") && sc.at(k+1).kind == tIdent && sc.isPunct(k+2, "(") {
			margs, _, _ := sc.args(k + 3)
			if m := sc.at(k + 1).s; m != "then" && m != "catch" && m != "finally" {
				// (a promise's then takes a callback, not the call's
				// arguments)
				c.method = m
				c.args = append(c.args, margs...)
			}
		}
		if g, ok := sc.getattrCalled(c, k); ok {
			c = g
		}
		sc.calls = append(sc.calls, c)
		return j + 1 // calls nested in the arguments are found too
	}
	// Perl and Ruby call without parentheses: system "…", exec 'a', 'b',
	// FileUtils.rm_rf "/x", unlink glob("…").
	if sc.lang == langPerl || sc.lang == langRuby {
		bare := bareCallable(name) || sc.lang == langRuby && name == "sh"
		if !bare && sc.lang == langRuby && strings.Contains(name, ".") {
			_, bare = apiFor(sc.lang, sc.resolve(name))
		}
		nt := sc.at(j)
		switch {
		case !bare || j >= len(sc.toks):
		case nt.kind == tStr || nt.kind == tIdent && (strings.HasPrefix(nt.s, "$") || sc.lang == langPerl && strings.HasPrefix(nt.s, "@")) || sc.isPunct(j, "["):
			args, k := sc.bareArgs(j)
			sc.calls = append(sc.calls, call{name: sc.resolve(name), args: args})
			return k
		case nt.kind == tIdent && !nt.nl && !bareArgEnd(nt.s) && (sc.lang == langRuby || sc.isPunct(j+1, "(")):
			// unlink glob("…"), FileUtils.rm_r Dir.home: the argument is
			// a value the scanner cannot know (a call's result, a
			// variable); the calls inside it are scanned next (a
			// listing, which walkDeletes pairs with the delete).
			args, _ := sc.bareArgs(j)
			sc.calls = append(sc.calls, call{name: sc.resolve(name), args: args})
			return j
		}
	}
	if sc.lang == langAwk {
		return sc.awkPipe(i, j)
	}
	return j
}

// getattrCalled resolves getattr(MODULE, "name")(…), the attribute
// called at once, to a call of MODULE.name with those arguments, so
// getattr(__import__('os'), 'system')('rm -rf /') is os.system('rm -rf /').
// The second call's arguments start at k. A name that is not a literal
// is left to the getattr call (a dynamic fact).
func (sc *callScanner) getattrCalled(c call, k int) (call, bool) {
	if sc.lang != langPython || c.name != "getattr" && c.name != "builtins.getattr" || len(c.args) < 2 || !sc.isPunct(k, "(") {
		return call{}, false
	}
	mod, attr := c.args[0].module, c.args[1]
	if mod == "" || !attr.known() || attr.s == "" || strings.ContainsAny(attr.s, ". ") {
		return call{}, false
	}
	args, kw, _ := sc.args(k + 1)
	return call{name: mod + "." + attr.s, args: args, kw: kw}, true
}

// runsCode reports whether an API of the kind runs a command or code.
func runsCode(k apiKind) bool {
	switch k {
	case apiShell, apiAuto, apiSystem, apiArgvList, apiArgvAll, apiArgvFrom, apiSpawn, apiCode:
		return true
	}
	return false
}

// bareArgEnd reports whether a word after a name ends its statement
// rather than starting its arguments (system if x, exec do … end).
func bareArgEnd(s string) bool {
	switch s {
	case "if", "unless", "and", "or", "do", "end", "then", "else", "elsif", "while", "until", "rescue", "ensure", "when",
		"x", "eq", "ne", "lt", "gt", "le", "ge", "cmp":
		return true
	}
	return false
}

func bareCallable(name string) bool {
	switch name {
	case "system", "exec", "spawn", "unlink", "rmdir", "rmtree", "remove_tree", "eval", "qx":
		return true
	}
	return false
}

// chain reads a dotted name a.b.c (also a::b, require('m').f) and returns
// it and the index after it.
func (sc *callScanner) chain(i int) (string, int) {
	if i >= len(sc.toks) {
		return "", i // the text ended ("… from" as its last word)
	}
	var b strings.Builder
	b.WriteString(sc.toks[i].s)
	j := i + 1
	// require('m') / __import__('m') / importlib.import_module('m') as a head.
	for {
		if sc.isPunct(j, ".") || sc.isPunct(j, "::") || sc.isPunct(j, "->") && sc.lang == langPHP {
			if nt := sc.at(j + 1); nt.kind == tIdent {
				b.WriteByte('.')
				b.WriteString(nt.s)
				j += 2
				continue
			}
		}
		return b.String(), j
	}
}

// resolve maps the head of a dotted name through the imports.
func (sc *callScanner) resolve(name string) string {
	head, rest, _ := strings.Cut(name, ".")
	if a, ok := sc.aliases[head]; ok {
		if rest == "" {
			return a
		}
		return a + "." + rest
	}
	return name
}

// args reads call arguments up to the closing parenthesis.
func (sc *callScanner) args(i int) ([]value, map[string]value, int) {
	var args []value
	var kw map[string]value
	for i < len(sc.toks) {
		if sc.isPunct(i, ")") {
			return args, kw, i + 1
		}
		if sc.isPunct(i, ",") {
			i++
			continue
		}
		if t := sc.at(i); t.kind == tIdent && sc.isPunct(i+1, "=") && !sc.isPunct(i+2, "=") && sc.lang == langPython {
			v, j := sc.expr(i + 2)
			if kw == nil {
				kw = make(map[string]value)
			}
			kw[t.s] = v
			i = j
			continue
		}
		start := i
		v, j := sc.expr(i)
		args = append(args, v)
		i = sc.skipArg(j)
		if i == start {
			i++
		}
	}
	return args, kw, i
}

// bareArgs reads the arguments of a call without parentheses, up to ; or
// a closing bracket or a statement modifier.
func (sc *callScanner) bareArgs(i int) ([]value, int) {
	var args []value
	for i < len(sc.toks) {
		t := sc.at(i)
		if t.kind == tPunct && (t.s == ";" || t.s == ")" || t.s == "}") || t.kind == tIdent && bareArgEnd(t.s) {
			return args, i
		}
		if t.nl && len(args) > 0 && !sc.isPunct(i-1, ",") && !sc.isPunct(i-1, "\\") {
			return args, i // system "a"\nputs 1: the line ended the call
		}
		if sc.isPunct(i, ",") {
			i++
			continue
		}
		v, j := sc.expr(i)
		args = append(args, v)
		if j == i {
			j++
		}
		i = j
	}
	return args, i
}

// skipArg moves past the rest of an argument to the next , or ) at this
// depth.
func (sc *callScanner) skipArg(i int) int {
	depth := 0
	for i < len(sc.toks) {
		t := sc.at(i)
		if t.kind == tPunct {
			switch t.s {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth == 0 {
					return i
				}
				depth--
			case ",":
				if depth == 0 {
					return i
				}
			}
		}
		i++
	}
	return i
}

// expr reads an expression: terms joined by the language's string
// concatenation. What is not a literal is Unknown.
func (sc *callScanner) expr(i int) (value, int) {
	v, j := sc.term(i)
	for {
		op := sc.at(j)
		concat := op.kind == tPunct && (op.s == "+" && (sc.lang == langPython || sc.lang == langJS || sc.lang == langRuby) ||
			op.s == "." && (sc.lang == langPerl || sc.lang == langPHP) || op.s == ".." && sc.lang == langLua ||
			op.s == "&" && sc.lang == langAppleScript)
		if sc.lang == langAwk && (op.kind == tStr || op.kind == tIdent && !awkKeyword(op.s) || op.kind == tNum || op.kind == tPunct && op.s == "$") {
			w, k := sc.term(j)
			v = value{s: v.s + w.s}
			j = k
			continue
		}
		if !concat {
			return v, j
		}
		w, k := sc.term(j + 1)
		if v.isList || w.isList {
			return unknownValue, k
		}
		v = value{s: v.s + w.s, home: v.home}
		j = k
	}
}

func awkKeyword(s string) bool {
	switch s {
	case "getline", "print", "printf", "if", "else", "while", "for", "in", "do", "next", "exit", "return":
		return true
	}
	return false
}

// term reads one operand.
func (sc *callScanner) term(i int) (value, int) {
	t := sc.at(i)
	switch t.kind {
	case tStr:
		v := value{s: t.s}
		j := i + 1
		if sc.lang == langPython && sc.isPunct(j, "%") {
			_, k := sc.term(j + 1)
			return value{s: pyPercent(t.s)}, k
		}
		if sc.lang == langPython && sc.isPunct(j, ".") && sc.at(j+1).s == "format" && sc.isPunct(j+2, "(") {
			_, _, k := sc.args(j + 3)
			return value{s: pyBraces(t.s)}, k
		}
		if (sc.isPunct(j, ".") || sc.isPunct(j, "->")) && sc.at(j+1).kind == tIdent && sc.isPunct(j+2, "(") {
			// "".join(…), "x".upper(): a method's result, not the
			// string; the calls in its arguments are scanned anyway.
			return unknownValue, sc.skipGroup(j+2, ")")
		}
		return v, j
	case tWords:
		l := make([]value, len(t.words))
		for k, w := range t.words {
			l[k] = value{s: w}
		}
		return value{list: l, isList: true}, i + 1
	case tCmd:
		return unknownValue, i + 1
	case tNum:
		return value{s: t.s}, i + 1
	case tIdent:
		if m, j, ok := sc.moduleRef(i); ok {
			if sc.isPunct(j, ".") && sc.at(j+1).kind == tIdent {
				if v, k, ok := sc.homePath(m+"."+sc.at(j+1).s, j+2); ok {
					return v, k // require("os").homedir()
				}
			}
			// require("child_process").execSync, not called here: the
			// module's function, bound to the name assigned.
			for sc.isPunct(j, ".") && sc.at(j+1).kind == tIdent && !sc.isPunct(j+2, "(") {
				m += "." + sc.at(j+1).s
				j += 2
			}
			return value{module: m}, j
		}
		name, j := sc.chain(i)
		if sc.lang == langPython && (name == "getattr" || name == "builtins.getattr") && sc.isPunct(j, "(") {
			// getattr(os, "system"): the module's function, as a value.
			obj, k := sc.term(j + 1)
			if attr := sc.at(k + 1); obj.module != "" && sc.isPunct(k, ",") && attr.kind == tStr && isIdentName(attr.s) && sc.isPunct(k+2, ")") {
				return value{module: obj.module + "." + attr.s}, k + 3
			}
		}
		if decoder(name) && sc.isPunct(j, "(") && sc.at(j+1).kind == tStr {
			// exec(base64.b64decode("…")): the decoded text is the code.
			if out, ok := decodeBase64(sc.at(j + 1).s); ok {
				return value{s: out}, sc.skipGroup(j, ")")
			}
		}
		if v, k, ok := sc.globCall(name, j); ok {
			return v, k
		}
		if v, k, ok := sc.homePath(name, j); ok {
			return v, k
		}
		if sc.isPunct(j, "(") || sc.isPunct(j, "[") {
			close := ")"
			if sc.isPunct(j, "[") {
				close = "]"
			}
			return unknownValue, sc.skipGroup(j, close)
		}
		switch name {
		case "True", "true":
			return value{s: "true"}, j
		}
		if v, ok := sc.vars[name]; ok {
			return v, j
		}
		if a, ok := sc.aliases[name]; ok {
			return value{module: a}, j
		}
		return unknownValue, j
	case tPunct:
		switch t.s {
		case "$":
			if sc.lang == langAwk { // a field: $1, $NF, $(i+1)
				if n := sc.at(i + 1); n.kind == tNum && decimal(n.s) {
					return awkField(n.s), i + 2
				}
				_, j := sc.term(i + 1)
				return unknownValue, j
			}
		case "[":
			return sc.list(i+1, "]")
		case "(":
			if sc.lang == langPerl {
				return sc.list(i+1, ")")
			}
			v, j := sc.expr(i + 1)
			if sc.isPunct(j, ")") {
				return v, j + 1
			}
			return unknownValue, sc.skipGroup(i, ")")
		case "{":
			return sc.object(i)
		}
	}
	return unknownValue, i + 1
}

// moduleRef recognises require('m'), __import__('m') and
// importlib.import_module('m').
func (sc *callScanner) moduleRef(i int) (string, int, bool) {
	name, j := sc.chain(i)
	switch name {
	case "require", "__import__", "importlib.import_module", "builtins.__import__", "importlib.__import__":
	case "module.require", "require.main.require", "process.mainModule.require", "module.constructor._load",
		"process.mainModule.constructor._load", "globalThis.require", "global.require",
		"global.process.mainModule.require", "globalThis.process.mainModule.require":
		// node's other handles on the module loader.
		if sc.lang != langJS {
			return "", 0, false
		}
	default:
		if sc.lang == langJS && (name == "mainModule.require" || strings.HasSuffix(name, ".mainModule.require")) {
			break // Function("return process")().mainModule.require(…)
		}
		return "", 0, false
	}
	if sc.isPunct(j, "(") && sc.at(j+1).kind == tStr && sc.isPunct(j+2, ")") {
		return strings.TrimPrefix(sc.at(j+1).s, "node:"), j + 3, true
	}
	return "", 0, false
}

func (sc *callScanner) list(i int, close string) (value, int) {
	var l []value
	for i < len(sc.toks) && !sc.isPunct(i, close) {
		if sc.isPunct(i, ",") {
			i++
			continue
		}
		v, j := sc.expr(i)
		l = append(l, v)
		j = sc.skipArg(j)
		if j == i {
			j++
		}
		i = j
	}
	return value{list: l, isList: true}, i + 1
}

// object reads {key: true, …} for the boolean options that matter
// (recursive, force, shell).
func (sc *callScanner) object(i int) (value, int) {
	end := sc.skipGroup(i, "}")
	flags := map[string]bool{}
	for k := i + 1; k+2 < end; k++ {
		if t := sc.at(k); (t.kind == tIdent || t.kind == tStr) && (sc.isPunct(k+1, ":") || sc.isPunct(k+1, "=>")) {
			key := strings.TrimPrefix(t.s, ":")
			if v := sc.at(k + 2); v.kind == tIdent && v.s == "true" || key == "body" || key == "data" {
				flags[key] = true
			}
		}
	}
	return value{flags: flags}, end
}

// skipGroup returns the index after the bracket closing the one at i.
func (sc *callScanner) skipGroup(i int, close string) int {
	depth := 0
	for j := i; j < len(sc.toks); j++ {
		t := sc.at(j)
		if t.kind != tPunct {
			continue
		}
		switch t.s {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(sc.toks)
}

// globAPIs are, per language, the calls that return the paths a
// pattern matches, so that a delete of what they return deletes what
// the pattern names: FileUtils.rm_rf(Dir.glob("tmp/*")) is rm -rf
// tmp/*, judged by where tmp/* is.
var globAPIs = sync.OnceValue(func() map[langID][]string {
	return map[langID][]string{
		langPython: {"glob.glob", "glob.iglob"},
		langRuby:   {"Dir.glob", "Dir"},
		langPerl:   {"glob", "bsd_glob", "File.Glob.bsd_glob"},
		langJS:     {"glob.sync", "globSync", "glob.globSync", "fg.sync", "fast-glob.sync"},
	}
})

// globCall reads a call of a glob API at the name before j whose
// pattern is literal (Dir["*.log"] too) as the pattern, and returns the
// index after it.
func (sc *callScanner) globCall(name string, j int) (value, int, bool) {
	if !sc.isPunct(j, "(") && !(sc.lang == langRuby && name == "Dir" && sc.isPunct(j, "[")) {
		return value{}, 0, false
	}
	if !contains(globAPIs()[sc.lang], sc.resolve(name)) || name == "Dir" && !sc.isPunct(j, "[") {
		return value{}, 0, false
	}
	if p := sc.at(j + 1); p.kind == tStr && !hasUnknown(p.s) && p.s != "" && (sc.isPunct(j+2, ")") || sc.isPunct(j+2, "]")) {
		return value{s: p.s, glob: true}, j + 3, true
	}
	return value{}, 0, false
}

// globLoops binds the variable of a loop over a glob's paths to the
// pattern before the calls are read, as the comprehension's variable
// is used before its for: [shutil.rmtree(d) for d in glob.glob("b/*")],
// for f in glob.glob("*.o"): os.remove(f), Dir.glob("x/*").each do |f|.
func (sc *callScanner) globLoops() {
	for i := 0; i+3 < len(sc.toks); i++ {
		t := sc.at(i)
		switch {
		case sc.lang == langPython && t.kind == tIdent && t.s == "for" && sc.at(i+1).kind == tIdent && sc.at(i+2).s == "in":
			name, j := sc.chain(i + 3)
			if v, _, ok := sc.globCall(name, j); ok {
				sc.bind(sc.at(i+1).s, v)
			}
		case sc.lang == langRuby && t.kind == tIdent && (t.s == "each" || t.s == "each_with_index") && sc.isPunct(i-1, "."):
			// GLOB.each do |f| / { |f|: the glob call ends before the dot.
			k := i + 1
			if sc.at(k).s == "do" || sc.isPunct(k, "{") {
				k++
			}
			if !sc.isPunct(k, "|") || sc.at(k+1).kind != tIdent {
				continue
			}
			if v, ok := sc.globBefore(i - 1); ok {
				sc.bind(sc.at(k+1).s, v)
			}
		}
	}
}

// globBefore reads a glob call that ends just before the token at end
// (Dir.glob("x/*").each): its pattern.
func (sc *callScanner) globBefore(end int) (value, bool) {
	if end < 4 || !(sc.isPunct(end-1, ")") || sc.isPunct(end-1, "]")) || sc.at(end-2).kind != tStr {
		return value{}, false
	}
	open := end - 3
	for start := open - 1; start >= 0 && start >= open-5; start-- {
		if sc.at(start).kind != tIdent || start > 0 && sc.isPunct(start-1, ".") {
			continue
		}
		if name, j := sc.chain(start); j == open {
			if v, _, ok := sc.globCall(name, j); ok {
				return v, true
			}
		}
	}
	return value{}, false
}

func (sc *callScanner) bind(name string, v value) {
	if sc.vars == nil {
		sc.vars = make(map[string]value)
	}
	sc.vars[name] = v
}

// homeNames are, per language, the expressions that are the home
// directory: called (os.homedir()), indexed (os.environ["HOME"]) or
// read as they are (process.env.HOME, Dir.home).
var homeNames = sync.OnceValue(func() map[langID][]string {
	return map[langID][]string{
		langPython: {"pathlib.Path.home()", "Path.home()", "os.environ[HOME]", "os.getenv(HOME)", "os.environ.get(HOME)"},
		langJS:     {"os.homedir()", "process.env.HOME", "process.env[HOME]"},
		langRuby:   {"Dir.home", "Dir.home()", "ENV[HOME]", "ENV.fetch(HOME)"},
	}
})

// pathJoins are the calls that join path parts with "/".
var pathJoins = sync.OnceValue(func() map[langID][]string {
	return map[langID][]string{
		langPython: {"os.path.join", "posixpath.join"},
		langJS:     {"path.join", "path.resolve", "path.posix.join"},
		langRuby:   {"File.join"},
	}
})

// homePath reads the home directory, a path under it that expanduser
// or expand_path spells with "~", or a join of known parts the first of
// which is one, at the name before j, as "~…" with home set.
func (sc *callScanner) homePath(name string, j int) (value, int, bool) {
	full := sc.resolve(name)
	key := full
	k := j
	switch {
	case sc.isPunct(j, "(") && sc.isPunct(j+1, ")"):
		key, k = full+"()", j+2
	case (sc.isPunct(j, "(") || sc.isPunct(j, "[")) && sc.at(j+1).kind == tStr && (sc.isPunct(j+2, ")") || sc.isPunct(j+2, "]")):
		arg := sc.at(j + 1).s
		if (full == "os.path.expanduser" || full == "File.expand_path") && (arg == "~" || strings.HasPrefix(arg, "~/")) {
			return value{s: arg, home: true}, j + 3, true
		}
		key, k = full+sc.at(j).s+arg+sc.at(j+2).s, j+3
	case sc.isPunct(j, "(") && contains(pathJoins()[sc.lang], full):
		args, _, end := sc.args(j + 1)
		if len(args) == 0 || !args[0].home {
			return value{}, 0, false
		}
		parts := []string{args[0].s}
		for _, a := range args[1:] {
			if !a.known() || a.isList {
				return value{}, 0, false
			}
			parts = append(parts, strings.Trim(a.s, "/"))
		}
		return value{s: strings.Join(parts, "/"), home: true}, end, true
	}
	if contains(homeNames()[sc.lang], key) {
		return value{s: "~", home: true}, k, true
	}
	return value{}, 0, false
}
