package parse

import (
	"strings"
	"sync"
)

// Inline interpreter code (python -c, node -e, perl -e, ruby -e, php -r,
// lua -e, osascript -e, awk programs, code fed on standard input or
// given as a script file) is scanned for process and file APIs. The
// strings such APIs receive are analysed as shell scripts (Context
// InInterpreter, Via the interpreter then the API); argument lists become
// commands; file operations become Synthetic commands (shutil.rmtree(p)
// is rm -r p). A print of the same text stays data. What cannot be known
// is a DynInterpreter fact.

// interpreterSink is the sink of a language interpreter's name, or nil.
func interpreterSink(name string) sinkFunc {
	switch name {
	case "python", "python2", "python3", "pypy", "pypy3", "ipython", "ipython3", "micropython", "jython", "graalpy", "pyston":
		return sinkPython
	case "node", "nodejs", "tsx", "ts-node", "ts-node-esm", "babel-node", "esno":
		return sinkNode
	case "deno":
		return sinkDeno
	case "bun":
		return sinkBun
	case "perl":
		return sinkPerl
	case "ruby", "irb": // irb reads its program from its input too
		return sinkRuby
	case "php":
		return sinkPHP
	case "lua", "luajit":
		return sinkLua
	case "osascript":
		return sinkOsascript
	case "awk", "gawk", "mawk", "nawk":
		return sinkAwk
	case "sed", "gsed":
		return sinkSed
	}
	return nil
}

// versionedSink finds the sink of a versioned interpreter name
// (python3.12, perl5.36, ruby3.2, php8.3, lua5.4).
func versionedSink(name string) sinkFunc {
	for _, p := range []string{"python", "pypy", "perl", "ruby", "php", "lua", "node"} {
		if rest, ok := strings.CutPrefix(name, p); ok && rest != "" && strings.Trim(rest, "0123456789.") == "" {
			return sinkOf(p)
		}
	}
	return nil
}

// code is where an interpreter takes its program from.
type code struct {
	text  string
	arg   *arg   // the argument holding it, for -c/-e
	file  *arg   // a script file
	stdin bool   // the program comes from standard input
	flag  string // how it was given: "-c", "-e", "-r"
	// preload lists the modules node loads before the program
	// (-r/--require, --import, --loader), and perl's -M/-m and ruby's -r
	// values.
	preload []arg
	// libs are the directories perl's and ruby's -I put first on the
	// module search path.
	libs []arg
}

// sinkPython: python [options] -c CODE | -m MOD | FILE | - ; no program
// means standard input. The sitecustomize and usercustomize modules of
// a PYTHONPATH the line gives run first, whatever the program (not
// with -I, -E or -S).
func sinkPython(fr *frame, c *Command, args []arg) {
	var p code
	var letters string // the option letters before the program
	site := func() {
		if strings.ContainsAny(letters, "IES") {
			return
		}
		for _, d := range fr.searchPath(c, "PYTHONPATH") {
			fr.moduleFiles(c, langPython, "python sitecustomize", d, []string{"sitecustomize.py"})
			if !strings.Contains(letters, "s") {
				fr.moduleFiles(c, langPython, "python usercustomize", d, []string{"usercustomize.py"})
			}
		}
	}
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-":
			p.stdin = true
		case v == "-W" || v == "-X" || v == "--check-hash-based-pycs":
			i++
			continue
		case v == "-m" || strings.HasPrefix(v, "-m") && len(v) > 2:
			// A module of the project (python -m tools.clean) or of a
			// PYTHONPATH the line gives is its file; an installed one
			// (pytest, pip) is a program.
			mod := strings.TrimPrefix(v, "-m")
			if mod == "" && i+1 < len(args) {
				mod = args[i+1].Value
			}
			site()
			var dirs []string
			if !strings.ContainsAny(letters, "IP") && c.Dir != "" {
				dirs = append(dirs, c.Dir)
			}
			if !strings.ContainsAny(letters, "IE") {
				dirs = append(dirs, fr.searchPath(c, "PYTHONPATH")...)
			}
			fr.pythonModule(c, mod, dirs)
			if v == "-m" {
				fr.runByRow(c, "python -m", mod, args, i+2)
			} else {
				fr.runByRow(c, "python -m", mod, args, i+1)
			}
			return
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "c"):
			k := strings.IndexByte(v, 'c')
			if k+1 < len(v) {
				p.text, p.arg = v[k+1:], &args[i]
			} else if i+1 < len(args) {
				p.text, p.arg = args[i+1].Value, &args[i+1]
			}
			p.flag = "-c"
		case strings.HasPrefix(v, "-"):
			if !strings.HasPrefix(v, "--") {
				letters += v[1:]
			}
			continue
		default:
			p.file = &args[i]
			fr.runByRow(c, "python", p.file.Value, args, i+1)
		}
		break
	}
	if p.arg == nil && p.file == nil {
		p.stdin = true
		// An interactive python (-i, or its input a terminal) runs the
		// PYTHONSTARTUP file the line names before its first prompt.
		if v, ok := fr.envOf(c, "PYTHONSTARTUP"); ok && v != "" && (strings.Contains(letters, "i") || c.Stdin == nil) && !strings.ContainsAny(letters, "IE") {
			defer fr.scriptFile(c, langPython, "python PYTHONSTARTUP", arg{Word: Word{Value: v, Dynamic: hasUnknown(v), Pos: c.Pos}})
		}
	}
	site()
	fr.interpret(c, langPython, "python", p)
}

// sinkNode: node [options] -e|--eval|-p|--print CODE | FILE | -. The
// modules of -r/--require, --import and --loader, on the line or in
// NODE_OPTIONS (its row's OptsEnv), run first: one named by a path is
// read like the script.
func sinkNode(fr *frame, c *Command, args []arg) {
	p := jsCode(args, 1)
	fr.preloadFiles(c, langJS, "node --require", p.preload)
	fr.interpret(c, langJS, "node", p)
}

// preloadFiles reads the modules an interpreter loads before its program
// that are named by a path (node -r ./x.js, ruby -r/tmp/x.rb) like the
// script; a module named by name is an installed one.
func (fr *frame) preloadFiles(c *Command, lang langID, via string, mods []arg) {
	for _, m := range mods {
		if v := m.Value; strings.HasPrefix(v, "/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || !m.Literal() {
			fr.scriptFile(c, lang, via, m)
		}
	}
}

func isPreload(v string) bool { _, ok, _ := nodePreload(v); return ok }

// nodePreload reports whether v is one of node's options whose value is
// a module it loads before the program, and the value if attached.
func nodePreload(v string) (attached string, ok, hasValue bool) {
	for _, o := range []string{"-r", "--require", "--import", "--loader", "--experimental-loader"} {
		if v == o {
			return "", true, false
		}
		if val, found := strings.CutPrefix(v, o+"="); found && strings.HasPrefix(o, "--") {
			return val, true, true
		}
	}
	return "", false, false
}

func jsCode(args []arg, i int) code {
	var p code
	for ; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-":
			p.stdin = true
			return p
		case v == "-e" || v == "--eval" || v == "-p" || v == "--print" || v == "-pe" || v == "-ep":
			if i+1 < len(args) {
				p.text, p.arg, p.flag = args[i+1].Value, &args[i+1], "-e"
			}
			return p
		case strings.HasPrefix(v, "--eval=") || strings.HasPrefix(v, "--print="):
			_, val, _ := strings.Cut(v, "=")
			p.text, p.arg, p.flag = val, &arg{Word: Word{Value: val, Pos: args[i].Pos}}, "-e"
			return p
		case v == "-C" || v == "--conditions" || v == "--env-file" || v == "--input-type":
			i++
		case isPreload(v):
			if val, _, attached := nodePreload(v); attached {
				p.preload = append(p.preload, valueArg(args[i], val))
			} else if i+1 < len(args) {
				i++
				p.preload = append(p.preload, args[i])
			}
		case strings.HasPrefix(v, "-"):
		default:
			p.file = &args[i]
			return p
		}
	}
	p.stdin = true
	return p
}

// sinkDeno: deno eval CODE, deno run FILE.
func sinkDeno(fr *frame, c *Command, args []arg) {
	if len(args) < 3 {
		return
	}
	switch args[1].Value {
	case "eval":
		for i := 2; i < len(args); i++ {
			if !strings.HasPrefix(args[i].Value, "-") {
				fr.interpret(c, langJS, "deno eval", code{text: args[i].Value, arg: &args[i], flag: "eval"})
				return
			}
		}
	case "run":
		for i := 2; i < len(args); i++ {
			if !strings.HasPrefix(args[i].Value, "-") {
				fr.interpret(c, langJS, "deno", code{file: &args[i]})
				return
			}
		}
	}
}

// sinkBun: bun -e CODE, bun run FILE.js, bun FILE.js.
func sinkBun(fr *frame, c *Command, args []arg) {
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-e" || v == "--eval" || v == "-p" || v == "--print":
			if i+1 < len(args) {
				fr.interpret(c, langJS, "bun", code{text: args[i+1].Value, arg: &args[i+1], flag: "-e"})
			}
			return
		case v == "run":
		case strings.HasSuffix(v, ".js") || strings.HasSuffix(v, ".ts") || strings.HasSuffix(v, ".mjs") || urlValue(v):
			fr.interpret(c, langJS, "bun", code{file: &args[i]})
			return
		case !strings.HasPrefix(v, "-"):
			// bun [run] SCRIPT runs package.json's script of that name,
			// with its pre and post scripts; bun install the package's
			// own install scripts, as npm install does.
			switch {
			case (v == "install" || v == "i") && i+1 == len(args):
				fr.runPackageScript(c, "bun install", "install", nil)
				fr.runPackageScript(c, "bun install", "prepare", nil)
			case i > 1 && args[i-1].Value == "run" || !bunBuiltin(v):
				fr.runPackageScript(c, "bun run", v, args[i+1:])
			}
			return
		}
	}
}

// bunBuiltin reports whether bun's first word is one of its own
// commands (bun test is its test runner, bun build its bundler), not a
// package script bun runs by name.
func bunBuiltin(v string) bool {
	switch v {
	case "run", "test", "x", "repl", "exec", "install", "i", "add", "a", "remove", "rm", "update", "outdated", "link", "unlink",
		"publish", "patch", "patch-commit", "pm", "build", "init", "create", "c", "upgrade", "audit", "info", "why", "help", "completions":
		return true
	}
	return false
}

// perlish reads the options of perl and ruby: clusters like -pi.bak -e,
// -lne, several -e joined by newlines, options taking the rest of their
// cluster (takesRest) or the next argument (takesNext). The values of the
// options in loads (perl's -M and -m, ruby's -r) are what the program
// loads before it runs (code.preload), and those of -I the directories
// it looks for them in first (code.libs).
func perlish(args []arg, takesRest, takesNext, loads string) code {
	var p code
	var parts []string
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "--":
			if len(parts) == 0 && i+1 < len(args) {
				p.file = &args[i+1]
			}
			i = len(args)
			continue
		case v == "-":
			p.stdin = true
			i = len(args)
			continue
		case !strings.HasPrefix(v, "-") || !args[i].Literal():
			if len(parts) == 0 {
				p.file = &args[i]
			}
			i = len(args)
			continue
		}
		for k := 1; k < len(v); k++ {
			ch := v[k]
			if ch == 'e' || ch == 'E' {
				if k+1 < len(v) {
					parts = append(parts, v[k+1:])
				} else if i+1 < len(args) {
					i++
					parts = append(parts, args[i].Value)
					if p.arg == nil {
						p.arg = &args[i]
					}
				}
				break
			}
			if strings.IndexByte(takesRest, ch) >= 0 {
				var into *[]arg
				switch {
				case strings.IndexByte(loads, ch) >= 0:
					into = &p.preload
				case ch == 'I':
					into = &p.libs
				}
				switch {
				case k+1 < len(v) && into != nil:
					*into = append(*into, valueArg(args[i], v[k+1:]))
				case k+1 == len(v) && strings.IndexByte(takesNext, ch) >= 0:
					i++
					if into != nil && i < len(args) {
						*into = append(*into, args[i])
					}
				}
				break
			}
		}
	}
	if len(parts) > 0 {
		p.text, p.flag = strings.Join(parts, "\n"), "-e"
		if len(parts) > 1 {
			p.arg = nil
		}
		if p.arg == nil {
			p.arg = &arg{Word: Word{Value: p.text, Dynamic: hasUnknown(p.text)}}
		}
		p.file = nil
	}
	if p.text == "" && p.file == nil {
		p.stdin = true
	}
	return p
}

// sinkPerl: perl's -MMODULE is "use MODULE;" compiled before the
// program, so -M'strict;system(…)' runs the code after the ";" (what
// follows "=" is the import list, quoted data); -m is the same.
func sinkPerl(fr *frame, c *Command, args []arg) {
	p := perlish(args, "iIMmx0lFdDC", "IMm", "Mm")
	// A module in a directory of -I, PERL5LIB or PERLLIB the line gives
	// (Evil::Mod is Evil/Mod.pm there) is read like the script; one
	// installed is perl's own.
	lib := "PERL5LIB"
	if _, ok := fr.envOf(c, lib); !ok {
		lib = "PERLLIB" // read only when PERL5LIB is not set
	}
	dirs := append(fr.libDirs(c, p.libs), fr.searchPath(c, lib)...)
	for _, m := range p.preload {
		mod, _, _ := strings.Cut(m.Value, "=")
		use := "use "
		if rest, ok := strings.CutPrefix(mod, "-"); ok {
			mod, use = rest, "no "
		}
		if name, _, _ := strings.Cut(mod, ";"); validModule(name, "::") {
			for _, d := range dirs {
				if fr.moduleFiles(c, langPerl, "perl -M", d, []string{strings.ReplaceAll(name, "::", "/") + ".pm"}) {
					break
				}
			}
		}
		text := use + mod + ";"
		fr.interpret(c, langPerl, "perl", code{text: text, arg: &arg{Word: Word{Value: text, Dynamic: hasUnknown(text), Pos: m.Pos}, feeders: m.feeders}, flag: "-M"})
	}
	p.preload = nil
	fr.interpret(c, langPerl, "perl", p)
}

// sinkRuby: ruby -rLIB requires LIB before the program; one named by a
// path is read like the script, and so is one found in a directory of -I
// or RUBYLIB the line gives (-rx is x.rb there).
func sinkRuby(fr *frame, c *Command, args []arg) {
	p := perlish(args, "rICEFix0lWTK", "rICEF", "r")
	fr.preloadFiles(c, langRuby, "ruby -r", p.preload)
	dirs := append(fr.libDirs(c, p.libs), fr.searchPath(c, "RUBYLIB")...)
	for _, m := range p.preload {
		name := strings.TrimSuffix(m.Value, ".rb")
		if !validModule(name, "/") || strings.HasPrefix(name, ".") {
			continue
		}
		for _, d := range dirs {
			if fr.moduleFiles(c, langRuby, "ruby -r", d, []string{name + ".rb"}) {
				break
			}
		}
	}
	fr.interpret(c, langRuby, "ruby", p)
}

// searchPath returns the directories of a search-path variable the line
// sets (PYTHONPATH, PERL5LIB, RUBYLIB), ":" separated, relative ones
// under the command's directory; an empty entry is that directory. A
// value not known gives none.
func (fr *frame) searchPath(c *Command, name string) []string {
	v, ok := fr.envOf(c, name)
	if !ok || v == "" || hasUnknown(v) {
		return nil
	}
	var out []string
	for _, d := range strings.Split(v, ":") {
		if d == "" {
			d = "."
		}
		if full := resolvePath(c.Dir, d); full != "" {
			out = append(out, full)
		}
	}
	return out
}

// libDirs returns the directories of -I options that are known.
func (fr *frame) libDirs(c *Command, libs []arg) []string {
	var out []string
	for _, l := range libs {
		if l.Literal() && l.Value != "" {
			if full := resolvePath(c.Dir, l.Value); full != "" {
				out = append(out, full)
			}
		}
	}
	return out
}

// validModule reports whether name is a module name made of words
// joined by sep (os.path, Evil::Mod, json/add/core).
func validModule(name, sep string) bool {
	if name == "" || hasUnknown(name) {
		return false
	}
	for _, part := range strings.Split(name, sep) {
		if part == "" || strings.Trim(part, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != "" {
			return false
		}
	}
	return true
}

// moduleFiles reads, in order, the files of names (relative to dir) that
// exist, or that the line wrote, as code the interpreter loads (via),
// and reports whether the last of them was there: a module is the file
// found, the others what it needs first (a package's __init__.py).
func (fr *frame) moduleFiles(c *Command, lang langID, via, dir string, names []string) bool {
	found := false
	for _, n := range names {
		full := dir + "/" + n
		found = fr.r.files[full] != nil
		if !found {
			_, st := fr.readRun(full)
			found = st != fileMissing
		}
		if found {
			fr.scriptFile(c, lang, via, arg{Word: Word{Value: full, Pos: c.Pos}})
		}
	}
	return found
}

// sinkPHP: php -r CODE | -f FILE | FILE; -B/-R/-E CODE run per line.
func sinkPHP(fr *frame, c *Command, args []arg) {
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case (v == "-r" || v == "-B" || v == "-R" || v == "-E") && i+1 < len(args):
			fr.interpret(c, langPHP, "php", code{text: args[i+1].Value, arg: &args[i+1], flag: v})
			return
		case v == "-f" && i+1 < len(args):
			fr.interpret(c, langPHP, "php", code{file: &args[i+1]})
			return
		case v == "-a" || v == "-S" || v == "-l" || v == "-v" || v == "-m" || v == "-i":
			return
		case v == "-c" || v == "-d" || v == "-t" || v == "-z":
			i++
		case !strings.HasPrefix(v, "-"):
			fr.runByRow(c, "php", v, args, i+1)
			fr.interpret(c, langPHP, "php", code{file: &args[i]})
			return
		}
	}
	fr.interpret(c, langPHP, "php", code{stdin: true})
}

func sinkLua(fr *frame, c *Command, args []arg) {
	var parts []string
	var first *arg
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-e" && i+1 < len(args):
			i++
			parts = append(parts, args[i].Value)
			if first == nil {
				first = &args[i]
			}
		case v == "-l" && i+1 < len(args):
			i++
		case v == "-":
			fr.interpret(c, langLua, "lua", code{stdin: true})
			return
		case !strings.HasPrefix(v, "-"):
			if len(parts) == 0 {
				fr.interpret(c, langLua, "lua", code{file: &args[i]})
				return
			}
			i = len(args)
		}
	}
	if len(parts) > 0 {
		fr.interpret(c, langLua, "lua", code{text: strings.Join(parts, "\n"), arg: first, flag: "-e"})
	}
}

// sinkOsascript: osascript -e LINE… (AppleScript's do shell script), or
// -l JavaScript (doShellScript).
func sinkOsascript(fr *frame, c *Command, args []arg) {
	lang := langAppleScript
	var parts []string
	var first *arg
	for i := 1; i < len(args); i++ {
		switch v := args[i].Value; {
		case v == "-l" && i+1 < len(args):
			i++
			if strings.EqualFold(args[i].Value, "JavaScript") {
				lang = langJS
			}
		case v == "-e" && i+1 < len(args):
			i++
			parts = append(parts, args[i].Value)
			if first == nil {
				first = &args[i]
			}
		}
	}
	if len(parts) > 0 {
		fr.interpret(c, lang, "osascript", code{text: strings.Join(parts, "\n"), arg: first, flag: "-e"})
	}
}

// sinkAwk scans an awk program for system(), pipes and redirections.
func sinkAwk(fr *frame, c *Command, args []arg) {
	words := make([]Word, len(args)-1)
	for i := range words {
		words[i] = args[i+1].Word
	}
	if a := scanAwk(words); a.prog >= 0 {
		p := &args[a.prog+1]
		fr.interpret(c, langAwk, "awk", code{text: p.Value, arg: p, flag: "program"})
	}
}

// interpret scans an interpreter's program and turns what it calls into
// facts.
func (fr *frame) interpret(c *Command, lang langID, name string, p code) {
	via := name
	if p.flag != "" {
		via = name + " " + p.flag
	}
	fr.codeRole(c, lang, p)
	switch {
	case p.arg != nil:
		if forkLoop(p.text) {
			fr.r.an.ForkBomb = fr.r.an.ForkBomb || fr.r.quiet == 0
		}
		n := len(fr.r.an.Dynamic)
		fr.scanProgram(c, lang, via, p.text, 0)
		fr.feedDynamic(n, c, p.text, p.arg.feeders)
	case p.file != nil:
		if text, ok, _ := procSubstOutput(*p.file); ok {
			fr.scanProgram(c, lang, name+" file", text, 0)
			return
		}
		if p.file.syn != nil && isProcSubstWord(p.file.syn) {
			fr.emitDynamic(&Dynamic{Kind: DynProcSubst, Sink: c, Known: Unknown, Feeders: p.file.feeders, Pos: c.Pos})
			return
		}
		fr.scriptFile(c, lang, name, *p.file)
	case p.stdin:
		fr.execStdin(c, name+" stdin", func(text string, pos posMap, feeders []*Command, kind DynKind) {
			if hasUnknown(text) {
				fr.emitDynamic(&Dynamic{Kind: kind, Sink: c, Known: text, Feeders: feeders, Pos: c.Pos})
			}
			fr.scanProgram(c, lang, name+" stdin", text, 0)
		})
	}
}

// codeRole records where an interpreter's program comes from as a role
// of its command, so that policy reads the code the interpreter runs
// instead of its argv: the inline code (RoleCode, Opt the option that gave
// it: python -c, node -e, perl -e and -M, php -r; "" for awk's program
// operand and deno eval's), or the script file (RoleScript). Lang is the
// language's name in the program table ("python", "js").
func (fr *frame) codeRole(c *Command, lang langID, p code) {
	name := ""
	for n, id := range interpLangs() {
		if id == lang {
			name = n
		}
	}
	switch {
	case p.arg != nil:
		opt := ""
		if strings.HasPrefix(p.flag, "-") {
			opt = p.flag
		}
		c.Roles = append(c.Roles, RoleArg{Role: RoleCode, Lang: name, Opt: opt, Word: Word{Value: p.text, Dynamic: hasUnknown(p.text), Pos: p.arg.Pos}})
	case p.file != nil:
		c.Roles = append(c.Roles, RoleArg{Role: RoleScript, Lang: name, Word: p.file.Word, Path: fr.wordPath(c, p.file.Word)})
	}
}

// feedDynamic names the feeders of the dynamic facts emitted (from index
// from on) for an interpreter's program as a whole: the commands of the
// substitutions in the word it came from (python -c "$(curl …)" is fed
// by curl), as sh -c "$(curl …)" is.
func (fr *frame) feedDynamic(from int, c *Command, text string, feeders []*Command) {
	if len(feeders) == 0 {
		return
	}
	ds := fr.r.an.Dynamic
	for _, d := range ds[min(from, len(ds)):] {
		if d.Kind == DynInterpreter && d.Sink == c && d.Known == text && d.Feeders == nil {
			d.Feeders = feeders
		}
	}
}

// maxCodeDepth bounds code evaluating code (exec("exec(…)")).
const maxCodeDepth = 4

// scanProgram tokenizes a program and follows its calls.
func (fr *frame) scanProgram(c *Command, lang langID, via, text string, depth int) {
	base := fr.r.codeBase
	fr.r.codeBase = ""
	if text == "" || depth > maxCodeDepth || !fr.spend(1+len(text)/512, c.Pos) {
		return
	}
	if hasUnknown(text) && depth == 0 && via != "" && !strings.HasSuffix(via, "stdin") {
		fr.emitDynamic(&Dynamic{Kind: DynInterpreter, Sink: c, Known: text, Pos: c.Pos})
	}
	imports, calling := mayImport(text, lang) && fr.r.files != nil, mayCall(text, lang)
	if !imports && !calling {
		return // zero cost for code that names no API
	}
	toks := tokenize(text, lang)
	if imports {
		fr.followImports(c, lang, via, toks, base)
	}
	if !calling {
		return
	}
	calls := scanCalls(toks, lang)
	if lang == langAwk {
		calls = fr.awkFields(c, toks, calls)
	}
	if len(calls) == 0 {
		return
	}
	stdin := c.Stdin
	if strings.HasSuffix(via, "stdin") {
		stdin = nil // the interpreter read its code from it
	}
	ifr := fr.child(nesting{sink: c, via: via, st: fr.childState(c), stdin: stdin, ctx: InInterpreter, user: c.User, dialect: POSIX}, false)
	ifr.pos = posMap{at: c.Pos}
	dynFrom, cmdFrom := len(fr.r.an.Dynamic), len(fr.r.an.Commands)
	for _, cl := range calls {
		ifr.followCall(c, lang, cl, depth)
	}
	ifr.walkDeletes(c, lang, calls)
	fr.feedFetched(c, dynFrom, cmdFrom)
}

// walkDeletes finds a program that lists a tree and deletes what it
// finds: os.walk(R) or os.listdir(R) with os.remove of a computed path,
// fs.readdirSync(R) with fs.unlinkSync, File::Find's find(…, R) with
// unlink. Each entry's delete is of a path the analysis cannot know, but
// together they delete R's contents: the program is judged as rm -r R
// too, for every R it lists, as shutil.rmtree(R) is; an R the analysis
// cannot know (os.walk(os.environ["HOME"])) is an unknown place, held as
// rmtree of it is. A delete of a known path is judged as it is.
func (fr *frame) walkDeletes(c *Command, lang langID, calls []call) {
	var roots []value
	deletes := false
	for _, cl := range calls {
		if i, ok := walkAPI()[lang][cl.name]; ok && cl.method == "" && i < len(cl.args) {
			r := cl.args[i]
			if lang == langPerl && cl.name == "glob" && !r.isList || r.home {
				// Perl's glob expands ~ as the shell does; a root the
				// code computed from the home directory is under it.
				r.s = fr.expandTilde(r.s)
			}
			roots = append(roots, r)
			continue
		}
		if lang == langPython && cl.method != "" && (cl.name == "pathlib.Path" || cl.name == "Path" || cl.name == "pathlib.PosixPath") && len(cl.args) > 0 {
			switch cl.method {
			case "rglob", "glob", "iterdir", "walk":
				roots = append(roots, cl.args[0])
			case "unlink", "rmdir":
				deletes = deletes || !cl.args[0].known()
			}
			continue
		}
		a, ok := apiFor(lang, cl.name)
		if ok && a.kind == apiSynth && (strings.HasPrefix(a.cmd, "rm") || strings.HasPrefix(a.cmd, "truncate")) && (len(cl.args) == 0 || !cl.args[0].known()) {
			deletes = true
		}
	}
	if !deletes {
		return
	}
	for _, r := range roots {
		if r.isList || r.s == "" {
			continue
		}
		fr.interpSynth(c, "walk+delete", "rm -r", []value{r})
	}
}

// walkAPI are, per language, the calls that list a directory tree (or one
// level of it), with the index of the argument naming the directory.
var walkAPI = sync.OnceValue(func() map[langID]map[string]int {
	return map[langID]map[string]int{
		langPython: {"os.walk": 0, "os.fwalk": 0, "os.listdir": 0, "os.scandir": 0, "glob.glob": 0, "glob.iglob": 0},
		langJS: {"fs.readdirSync": 0, "fs.readdir": 0, "fs.promises.readdir": 0, "fs/promises.readdir": 0,
			"fs.opendirSync": 0, "fs.opendir": 0, "readdirSync": 0},
		langPerl: {"find": 1, "finddepth": 1, "File::Find::find": 1, "File::Find::finddepth": 1, "opendir": 1, "glob": 0},
		langRuby: {"Dir.glob": 0, "Dir.children": 0, "Dir.each_child": 0, "Dir.entries": 0, "Dir.foreach": 0, "Find.find": 0},
	}
})

// feedFetched names the downloads a program makes as the feeders of the
// code it runs that cannot be known (exec(urlopen(u).read()),
// r = requests.get(u); eval(r.text)): the scanner does not follow values
// through calls, and a program that fetches a URL and runs unknown code
// most likely runs what it fetched, as curl … | python does. Facts and
// commands from index dynFrom and cmdFrom on are the program's calls';
// a request that certainly sends a body (-d: data=, a body key) is an
// upload, not a source of code, while one whose second argument may or
// may not be a body (--data-binary: https.get(u, callback),
// requests.get(u, params)) is a download too.
func (fr *frame) feedFetched(c *Command, dynFrom, cmdFrom int) {
	an := fr.r.an
	var fetches []*Command
	for _, fc := range an.Commands[min(cmdFrom, len(an.Commands)):] {
		if fc.Synthetic && fc.Name == "curl" && !synthSends(fc) {
			fetches = append(fetches, fc)
		}
	}
	if len(fetches) == 0 {
		return
	}
	for _, d := range an.Dynamic[min(dynFrom, len(an.Dynamic)):] {
		if d.Kind == DynInterpreter && d.Sink == c && d.Feeders == nil {
			d.Feeders = fetches
		}
	}
}

// synthSends reports whether a curl that stands for a network API call
// sends a body (interpNet adds -d for it).
func synthSends(c *Command) bool {
	for _, w := range c.Args {
		if w.Value == "-d" {
			return true
		}
	}
	return false
}

// mayCall is a cheap pre-check: the code mentions something a process or
// file API could be called by.
func mayCall(text string, lang langID) bool {
	switch lang {
	case langAwk:
		return strings.Contains(text, "system") || strings.Contains(text, "|") || strings.Contains(text, ">")
	case langAppleScript:
		return strings.Contains(text, "shell")
	}
	for _, w := range []string{"system", "exec", "spawn", "popen", "open", "rm", "unlink", "remove", "rmdir", "rename",
		"move", "copy", "cp", "chmod", "chown", "write", "read", "`", "qx", "%x", "eval", "Function", "$", "getoutput", "Command", "truncate", "file_put", "file_get", "delete", "touch", "replace", "import",
		"http", "fetch", "request", "urlopen", "socket", "axios", "got", "curl", "SMTP", "FTP", "fsockopen"} {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// pythonModule follows python -m MOD when MOD is a file in one of dirs
// (the working directory, PYTHONPATH's): a/b.py or a/b/__main__.py,
// after the __init__.py of the packages it is in, which are imported
// first (and run even when the module is then not found). The first
// directory that holds the module or a package of it is python's.
func (fr *frame) pythonModule(c *Command, mod string, dirs []string) {
	if !validModule(mod, ".") || strings.Contains(mod, "-") {
		return
	}
	parts := strings.Split(mod, ".")
	there := func(full string) bool {
		if fr.r.files[full] != nil {
			return true
		}
		_, st := fr.readRun(full)
		return st != fileMissing
	}
	for _, d := range dirs {
		var names []string
		for k := 1; k < len(parts); k++ {
			// A directory without one is a namespace package.
			if init := strings.Join(parts[:k], "/") + "/__init__.py"; there(d + "/" + init) {
				names = append(names, init)
			}
		}
		rel := strings.Join(parts, "/")
		switch {
		case there(d + "/" + rel + ".py"):
			names = append(names, rel+".py")
		case there(d + "/" + rel + "/__main__.py"):
			if there(d + "/" + rel + "/__init__.py") {
				names = append(names, rel+"/__init__.py")
			}
			names = append(names, rel+"/__main__.py")
		case len(names) == 0:
			continue
		}
		fr.moduleFiles(c, langPython, "python -m", d, names)
		return
	}
}

// forkLoop reports whether code given on the line forks in a loop that
// never ends: perl -e 'fork while 1', python3 -c 'while True: os.fork()',
// ruby -e 'loop { fork }'. Such code has no use but freezing the
// machine; a program file that forks in its main loop (a pre-forking
// server) is not read this way.
func forkLoop(text string) bool {
	if !strings.Contains(text, "fork") {
		return false
	}
	t := strings.Join(strings.Fields(text), " ")
	for _, loop := range []string{"while 1", "while(1)", "while (1)", "while True", "while(True)", "while (True)", "while true",
		"while(true)", "while (true)", "for(;;)", "for (;;)", "for ( ; ; )", "loop {", "loop do", "until false", "until 0"} {
		if strings.Contains(t, loop) {
			return true
		}
	}
	return false
}
