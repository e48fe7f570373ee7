package parse

import (
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// builtinFunc carries out what a builtin does to the shell's state.
type builtinFunc func(fr *frame, c *Command, args []arg)

// builtinOf is the builtin of a name that changes what later commands
// see, or nil. (A switch, not a map: a map is built at package init,
// which every command paid.)
func builtinOf(name string) builtinFunc {
	switch name {
	case "cd":
		return builtinCd
	case "pushd":
		return builtinPushd
	case "popd":
		return builtinPopd
	case "read":
		return builtinRead
	case "mapfile", "readarray":
		return builtinMapfile
	case "unset":
		return builtinUnset
	case "set":
		return builtinSet
	case "shift":
		return builtinShift
	case "alias":
		return builtinAlias
	case "unalias":
		return builtinUnalias
	case "shopt":
		return builtinShopt
	case "exit", "return":
		return builtinExit
	case "trap":
		return builtinTrap
	case "fc":
		return builtinFc
	case "history":
		return builtinHistory
	case "getopts":
		return builtinGetopts
	case "wait":
		return builtinWait
	case "export", "declare", "typeset", "local", "readonly":
		return builtinDeclare
	case "printf":
		return builtinPrintf
	}
	return nil
}

// builtinPrintf works out what printf prints, which is data
// (dataCommand).
func builtinPrintf(fr *frame, c *Command, args []arg) { fr.dataCommand(c, args) }

// builtinCd follows cd. A literal target is resolved lexically against
// the directory in effect; anything unknown (a dynamic word, CDPATH
// search, ~user) makes the directory unknown from here on.
func builtinCd(fr *frame, c *Command, args []arg) {
	ops := cdOperands(c.Args)
	var target Word
	switch {
	case len(ops) == 0:
		h := fr.lookup("HOME")
		v, set := h.value()
		if !set {
			return // bash: "HOME not set", nothing changes
		}
		target = Word{Value: v, Dynamic: hasUnknown(v)}
	case ops[0].Value == "-":
		v, set := fr.lookup("OLDPWD").value()
		if !set {
			return
		}
		target = Word{Value: v, Dynamic: hasUnknown(v)}
	default:
		target = ops[0]
	}
	part, made := "", false
	for _, a := range args {
		if a.whole && a.Pos == target.Pos && a.Value == target.Value && fr.nameOnlyHoles(a.syn) {
			part, made = fr.partDir(target)
		}
	}
	fr.chdir(fr.cdTarget(target))
	if fr.st.dir == "" {
		fr.st.dirPart, fr.st.dirMade = part, made
	}
}

// partDir is where a cd whose target is not known goes, as far as it is:
// an absolute target with unknown parts, cleaned, and whether it is a
// path the script made; or a relative literal target below a directory
// that is partly known already (cd "$tmp"; cd sub). Nothing for a target
// whose text climbs ("/tmp/$x/..", ".."): an unknown part may hold
// slashes, so where that lands is not known.
func (fr *frame) partDir(target Word) (string, bool) {
	v := target.Value
	if v == "" || target.Glob || Climbs(v) {
		return "", false
	}
	switch {
	case strings.HasPrefix(v, "/"):
		if !target.Dynamic {
			return "", false
		}
		return path.Clean(v), target.Made
	case fr.st.dir == "" && fr.st.dirPart != "" && target.Literal() && v != "-":
		if !strings.HasPrefix(v, "./") {
			if cdpath, set := fr.lookup("CDPATH").value(); set && cdpath != "" {
				return "", false // CDPATH may send it elsewhere
			}
		}
		return path.Join(fr.st.dirPart, v), fr.st.dirMade
	}
	return "", false
}

// holeParam reports whether bash sets the parameter to a number, or to a
// name without a slash: as a part of a path it cannot make it climb or
// leave its directory.
func holeParam(name string) bool {
	switch name {
	case "$", "BASHPID", "PPID", "RANDOM", "SRANDOM", "UID", "EUID", "SECONDS", "EPOCHSECONDS", "HOSTNAME":
		return true
	}
	return false
}

// nameOnlyHoles reports whether every unknown part of w is one that holds
// no slash: $$, $RANDOM and the like, mktemp's name (a variable set from it,
// or $(mktemp …) itself). A cd to "$TMPDIR/t-$$" is then below $TMPDIR;
// one to "/tmp/$(cat f)" could be anywhere ("../home/me").
func (fr *frame) nameOnlyHoles(w *syntax.Word) bool {
	if isMktempSubst(w) {
		return true
	}
	pes, ok := plainParams(w)
	for _, p := range pes {
		if !ok || holeParam(p.Param.Value) {
			continue
		}
		v := fr.lookup(p.Param.Value)
		val, _ := v.value()
		ok = !hasUnknown(val) || v.nameHoles
	}
	return ok
}

// Climbs reports whether a path has a ".." component: relative to a
// directory, it may leave it.
func Climbs(p string) bool {
	for _, c := range strings.Split(p, "/") {
		if c == ".." {
			return true
		}
	}
	return false
}

// cdOperands drops cd's options (-L -P -e -@).
func cdOperands(args []Word) []Word {
	for i, a := range args {
		switch {
		case a.Value == "--":
			return args[i+1:]
		case len(a.Value) > 1 && a.Value[0] == '-' && strings.Trim(a.Value[1:], "LPe@") == "":
			continue
		default:
			return args[i:]
		}
	}
	return nil
}

// cdTarget resolves where cd goes; "" when unknown.
func (fr *frame) cdTarget(w Word) string {
	if !w.Literal() || w.Value == "" {
		return ""
	}
	v := w.Value
	if !strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "./") && !strings.HasPrefix(v, "../") && v != "." && v != ".." {
		if cdpath, set := fr.lookup("CDPATH").value(); set && cdpath != "" {
			return "" // CDPATH may send it elsewhere
		}
	}
	return resolvePath(fr.st.dir, v)
}

// chdir moves the shell to dir ("" for unknown), keeping OLDPWD.
func (fr *frame) chdir(dir string) {
	st := fr.st
	if st.dir != "" {
		st.set("OLDPWD", strVar(st.dir, true))
	} else {
		st.forget("OLDPWD")
	}
	delete(st.vars, "PWD")
	st.dirPart, st.dirMade = "", false
	if dir != st.dir || dir == "" {
		st.dropRelativeMade(dir)
	}
	st.dir = dir
}

func builtinPushd(fr *frame, c *Command, args []arg) {
	st := fr.st
	ops := c.Args
	noCd := false
	if len(ops) > 0 && ops[0].Value == "-n" {
		noCd, ops = true, ops[1:]
	}
	switch {
	case len(ops) == 0:
		if len(st.dirStack) == 0 {
			return
		}
		top := st.dirStack[0]
		st.dirStack[0] = st.dir
		fr.chdir(top)
	case strings.HasPrefix(ops[0].Value, "+") || strings.HasPrefix(ops[0].Value, "-") && len(ops[0].Value) > 1:
		st.dirStack = nil // rotation: not followed
		fr.chdir("")
	default:
		to := fr.cdTarget(ops[0])
		if noCd {
			st.dirStack = append([]string{to}, st.dirStack...)
			return
		}
		st.dirStack = append([]string{st.dir}, st.dirStack...)
		fr.chdir(to)
	}
}

func builtinPopd(fr *frame, c *Command, args []arg) {
	st := fr.st
	if len(c.Args) > 0 {
		st.dirStack = nil
		if c.Args[0].Value != "-n" {
			fr.chdir("")
		}
		return
	}
	if len(st.dirStack) == 0 {
		// Either the stack is empty (popd fails) or it is not known.
		return
	}
	to := st.dirStack[0]
	st.dirStack = st.dirStack[1:]
	fr.chdir(to)
}

// builtinRead sets the variables it reads. From known input (read X
// <<< rm, a heredoc, a file) the first record is split as bash does:
// up to the -d delimiter (newline by default), backslashes removed unless
// -r, fields split by the IFS in effect for read (IFS=, read …), the last
// name taking the rest; with -a, every field into the array. Otherwise,
// and with options that are not modelled (-n, -N, -t, -u, -e, -i), the
// names are unknown.
func builtinRead(fr *frame, c *Command, args []arg) {
	var names []Word
	raw, array, modelled := false, false, true
	delim := "\n"
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i].Value
		if a == "--" {
			names = append(names, c.Args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || len(a) < 2 || len(names) > 0 {
			names = append(names, c.Args[i])
			continue
		}
		for j := 1; j < len(a); j++ {
			o := a[j]
			if !strings.ContainsRune("adinNptu", rune(o)) {
				raw = raw || o == 'r'
				modelled = modelled && strings.ContainsRune("rs", rune(o))
				continue
			}
			// The option's value is the rest of the word, or the next one.
			val, ok := a[j+1:], true
			if val == "" {
				ok = i+1 < len(c.Args) && c.Args[i+1].Literal()
				if i+1 < len(c.Args) {
					val = c.Args[i+1].Value
					i++
				}
			}
			switch {
			case !ok:
				modelled = false
			case o == 'a':
				array = true
				names = []Word{{Value: val, Pos: c.Args[i].Pos}}
			case o == 'd':
				delim = val
				if len(delim) > 1 {
					delim = delim[:1]
				}
			case o == 'p':
			default:
				modelled = false
			}
			break
		}
	}
	if len(names) == 0 {
		names = []Word{{Value: "REPLY"}}
	}
	for _, n := range names {
		if !n.Literal() || !validName(n.Value) {
			fr.st.forgetVars()
			return
		}
	}
	rec, ok := fr.inputRecord(c, delim, raw)
	if !ok || !modelled || !isASCII(rec) {
		for _, n := range names {
			fr.forgetName(n)
		}
		return
	}
	ifs := fr.ifsFor(c)
	if hasUnknown(ifs) {
		for _, n := range names {
			fr.forgetName(n)
		}
		return
	}
	if array {
		fields, ok := splitRead(rec, ifs, 0)
		if !ok {
			fr.forgetName(names[0])
			return
		}
		fr.st.set(names[0].Value, &variable{known: true, v: indexed(fields)})
		return
	}
	fields, ok := splitRead(rec, ifs, len(names))
	for i, n := range names {
		v := ""
		if i < len(fields) {
			v = fields[i]
		}
		if !ok {
			fr.st.forget(n.Value)
			continue
		}
		fr.st.set(n.Value, strVar(v, false))
	}
}

// ifsFor is the IFS a builtin sees: its own prefix assignment, else the
// shell's.
func (fr *frame) ifsFor(c *Command) string {
	for i := len(c.Assigns) - 1; i >= 0; i-- {
		if c.Assigns[i].Name == "IFS" {
			return c.Assigns[i].Value.Value
		}
	}
	v, set := fr.lookup("IFS").value()
	if !set {
		return " \t\n"
	}
	return v
}

// inputRecord returns the record a read of the command's input gets: the
// text up to delim, when it is known; with the backslashes removed unless
// raw, a backslash-newline joining lines and an escaped character kept
// (its protection from splitting is not modelled: unknown if it is an IFS
// character). Input the command does not open itself (a loop's, a pipe's)
// may have been partly read already: it must hold a single record.
func (fr *frame) inputRecord(c *Command, delim string, raw bool) (string, bool) {
	text, own, ok := fr.inputText(c)
	if !ok || hasUnknown(text) {
		return "", false
	}
	d := byte(0)
	if delim != "" {
		d = delim[0]
	}
	var b strings.Builder
	i := 0
	for ; i < len(text); i++ {
		ch := text[i]
		if ch == d {
			break
		}
		if ch == '\\' && !raw {
			if i+1 >= len(text) {
				break
			}
			i++
			if text[i] == '\n' {
				continue
			}
			if strings.IndexByte(fr.ifsFor(c), text[i]) >= 0 {
				return "", false
			}
			ch = text[i]
		}
		b.WriteByte(ch)
	}
	if !own && i+1 < len(text) {
		return "", false
	}
	return b.String(), true
}

// inputText returns the command's input when it is known, and whether the
// command opened it itself (a redirection of its own).
func (fr *frame) inputText(c *Command) (text string, own, ok bool) {
	in := c.Stdin
	if in == nil {
		return "", false, false
	}
	own = c.ownStdin && in.Kind != InputPipe
	switch {
	case in.Known:
		return in.Text, own, true
	case in.Kind == InputFile && in.Path != "":
		t, ok := fr.readData("/", in.Path)
		return t, own, ok
	}
	return "", false, false
}

// splitRead splits a record into at most n fields (all when n is 0) as
// read does: IFS whitespace at the ends is dropped, each other IFS
// character ends a field along with the whitespace around it, and the
// last field takes the rest with trailing IFS whitespace dropped. A rest
// that still ends with an IFS character is not modelled.
func splitRead(rec, ifs string, n int) ([]string, bool) {
	isWhite := func(c byte) bool { return (c == ' ' || c == '\t' || c == '\n') && strings.IndexByte(ifs, c) >= 0 }
	isIFS := func(c byte) bool { return strings.IndexByte(ifs, c) >= 0 }
	if ifs == "" {
		return []string{rec}, true
	}
	var out []string
	i := 0
	for i < len(rec) && isWhite(rec[i]) {
		i++
	}
	for i < len(rec) {
		if n > 0 && len(out) == n-1 {
			rest := strings.TrimRightFunc(rec[i:], func(r rune) bool { return r < 0x80 && isWhite(byte(r)) })
			if rest != "" && isIFS(rest[len(rest)-1]) {
				return nil, false
			}
			out = append(out, rest)
			return out, true
		}
		j := i
		for j < len(rec) && !isIFS(rec[j]) {
			j++
		}
		out = append(out, rec[i:j])
		// Skip whitespace, at most one other IFS character, whitespace.
		for j < len(rec) && isWhite(rec[j]) {
			j++
		}
		if j < len(rec) && isIFS(rec[j]) && !isWhite(rec[j]) {
			j++
			for j < len(rec) && isWhite(rec[j]) {
				j++
			}
			if j == len(rec) && n == 0 {
				break
			}
			if j == len(rec) {
				out = append(out, "")
			}
		}
		i = j
	}
	return out, true
}

func (fr *frame) forgetName(w Word) {
	if w.Literal() && validName(w.Value) {
		fr.st.forget(w.Value)
		return
	}
	fr.st.forgetVars() // read "$X": any variable
}

// builtinMapfile sets the array from known input the command opens
// itself (<<<, <<, < file): one element per record, the delimiter (-d,
// newline by default) kept unless -t. Other options (-n, -O, -s, -u, -c)
// and input it may share with earlier reads make the array unknown. A
// -C callback is followed: bash evaluates it as a command.
func builtinMapfile(fr *frame, c *Command, args []arg) {
	name := "MAPFILE"
	trim, modelled := false, true
	delim := "\n"
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i].Value
		switch {
		case a == "-C" && i+1 < len(c.Args):
			fr.nestedText(c, args[i+2], "mapfile -C")
			modelled = false
			i++
		case a == "-d" && i+1 < len(c.Args):
			delim = c.Args[i+1].Value
			modelled = modelled && c.Args[i+1].Literal()
			i++
		case len(a) == 2 && a[0] == '-' && strings.ContainsRune("nOsuc", rune(a[1])):
			modelled = false
			i++
		case a == "-t":
			trim = true
		case strings.HasPrefix(a, "-"):
			modelled = false
		default:
			name = a
		}
	}
	text, own, ok := fr.inputText(c)
	if !ok || !own || !modelled || hasUnknown(text) || !validName(name) {
		if !validName(name) && hasUnknown(name) {
			fr.st.forgetVars()
			return
		}
		fr.st.forget(name)
		return
	}
	d := "\x00"
	if delim != "" {
		d = delim[:1]
	}
	var list []string
	for text != "" {
		rec, rest, found := strings.Cut(text, d)
		if found && !trim {
			rec += d
		}
		list = append(list, rec)
		text = rest
	}
	fr.st.set(name, &variable{known: true, v: indexed(list)})
}

func builtinUnset(fr *frame, c *Command, args []arg) {
	recordRow(c, args) // its names, for policy
	funcs := false
	for _, a := range c.Args {
		switch {
		case a.Value == "-f":
			funcs = true
		case a.Value == "-v" || a.Value == "-n":
		case !a.Literal():
			fr.st.forgetVars()
		case funcs:
			delete(fr.st.funcs, a.Value)
		default:
			_, isVar := fr.st.vars[a.Value]
			_, inEnv := fr.st.base[a.Value]
			fr.st.set(a.Value, &variable{known: true})
			if !isVar && !inEnv {
				// bash unsets a function of that name when no variable has it.
				delete(fr.st.funcs, a.Value)
			}
		}
	}
}

// builtinSet follows set -- ARGS (the positional parameters) and set -o
// posix (which turns alias expansion on).
func builtinSet(fr *frame, c *Command, args []arg) {
	st := fr.st
	ws := c.Args
	if len(ws) == 0 {
		// set alone prints every shell variable and function.
		c.Flags = append(c.Flags, "prints")
	}
	for i := 0; i < len(ws); i++ {
		a := ws[i].Value
		switch {
		case a == "--" || a == "-":
			fr.setArgs(ws[i+1:])
			return
		case (strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+")) && strings.Contains(a[1:], "o"):
			// -o NAME, also in a cluster ("set -euo pipefail").
			if i+1 < len(ws) {
				if ws[i+1].Value == "posix" {
					st.expandAliases = a[0] == '-'
				}
				if ws[i+1].Value == "noglob" {
					st.setGlobOpt(optNoglob, a[0] == '-')
				}
				if !ws[i+1].Literal() {
					st.globOpts |= optUnknown
				}
				i++
			}
			if strings.Contains(a, "f") {
				st.setGlobOpt(optNoglob, a[0] == '-')
			}
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+"):
			if strings.Contains(a, "f") {
				st.setGlobOpt(optNoglob, a[0] == '-')
			}
		default:
			fr.setArgs(ws[i:])
			return
		}
	}
}

func (fr *frame) setArgs(ws []Word) {
	st := fr.st
	zero := Unknown
	if st.argsKnown && len(st.args) > 0 {
		zero = st.args[0]
	}
	list := []string{zero}
	for _, w := range ws {
		if w.Glob {
			st.args, st.argsKnown = nil, false
			return
		}
		list = append(list, w.Value)
	}
	st.args, st.argsKnown = list, true
}

func builtinShift(fr *frame, c *Command, args []arg) {
	st := fr.st
	n := 1
	if len(c.Args) > 0 {
		v, err := strconv.Atoi(c.Args[0].Value)
		if err != nil || !c.Args[0].Literal() {
			st.args, st.argsKnown = nil, false
			return
		}
		n = v
	}
	if !st.argsKnown || n < 0 || n > len(st.args)-1 {
		return
	}
	st.args = append([]string{st.args[0]}, st.args[1+n:]...)
}

func builtinExit(fr *frame, c *Command, args []arg) {
	fr.exited()
	fr.st.dead = true
}

// builtinTrap follows the code of a trap, which runs later in this shell.
func builtinTrap(fr *frame, c *Command, args []arg) {
	ws := args[1:]
	for len(ws) > 0 && strings.HasPrefix(ws[0].Value, "-") && ws[0].Value != "-" {
		if ws[0].Value == "--" {
			ws = ws[1:]
			break
		}
		if ws[0].Value == "-l" || ws[0].Value == "-p" || ws[0].Value == "-P" {
			return
		}
		ws = ws[1:]
	}
	if len(ws) < 2 || ws[0].Value == "-" || ws[0].Value == "" {
		return
	}
	if fr.deferTrap(c, ws[0], ws[1:]) {
		return
	}
	fr.nestedText(c, ws[0], "trap")
}

func builtinGetopts(fr *frame, c *Command, args []arg) {
	if len(c.Args) >= 2 {
		fr.forgetName(c.Args[1])
	}
	fr.st.forget("OPTARG")
	fr.st.forget("OPTIND")
}

func builtinWait(fr *frame, c *Command, args []arg) {
	for i, a := range c.Args {
		if a.Value == "-p" && i+1 < len(c.Args) {
			fr.forgetName(c.Args[i+1])
		}
	}
}

// builtinDeclare handles export, declare … reached as commands (builtin
// export X=1); the keyword forms are DeclClause, handled in decl.go.
func builtinDeclare(fr *frame, c *Command, args []arg) {
	recordRow(c, args)
	flags := ""
	export := c.Name == "export"
	for _, a := range c.Args {
		v := a.Value
		if strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+") {
			flags += v
			continue
		}
		name, val, ok := strings.Cut(v, "=")
		if !validName(strings.TrimSuffix(name, "+")) {
			if hasUnknown(name) {
				fr.st.forgetVars()
			}
			continue
		}
		exp := export || strings.Contains(flags, "x")
		fr.st.setAttrs(strings.TrimSuffix(name, "+"), flags)
		w := Word{Value: val, Dynamic: hasUnknown(val), Pos: a.Pos}
		fr.emitAssignment(&Assignment{Name: name, Value: w, Export: exp, Decl: c.Name, Pos: a.Pos})
		if !ok {
			if exp {
				v := *fr.st.lookup(name)
				v.exported = true
				fr.st.rawSet(name, &v)
			}
			continue
		}
		nv := strVar(val, exp)
		if w.Dynamic || a.Glob {
			nv = &variable{exported: exp}
		}
		fr.st.set(name, nv)
	}
}

// basename returns the last element of a program path.
func basename(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 && i < len(p)-1 {
		return p[i+1:]
	}
	return path.Base(p)
}
