package parse

import (
	"path"
	"strconv"
	"strings"
)

// builtinFunc carries out what a builtin does to the shell's state.
type builtinFunc func(fr *frame, c *Command, args []arg)

// builtins are the builtins that change what later commands see.
var builtins map[string]builtinFunc

func init() {
	builtins = map[string]builtinFunc{
		"cd":        builtinCd,
		"pushd":     builtinPushd,
		"popd":      builtinPopd,
		"read":      builtinRead,
		"mapfile":   builtinMapfile,
		"readarray": builtinMapfile,
		"unset":     builtinUnset,
		"set":       builtinSet,
		"shift":     builtinShift,
		"alias":     builtinAlias,
		"unalias":   builtinUnalias,
		"shopt":     builtinShopt,
		"exit":      builtinExit,
		"return":    builtinExit,
		"trap":      builtinTrap,
		"getopts":   builtinGetopts,
		"wait":      builtinWait,
		"export":    builtinDeclare,
		"declare":   builtinDeclare,
		"typeset":   builtinDeclare,
		"local":     builtinDeclare,
		"readonly":  builtinDeclare,
		"printf":    func(fr *frame, c *Command, args []arg) { fr.dataCommand(c, args) },
	}
}

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
	fr.chdir(fr.cdTarget(target))
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
	if dir != st.dir || dir == "" {
		st.dropRelativeMade()
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

// builtinRead sets the variables it reads: from known input (read X <<<
// rm, a heredoc) the first line split as bash does, otherwise unknown.
func builtinRead(fr *frame, c *Command, args []arg) {
	var names []Word
	raw, array := false, false
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i].Value
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			raw = raw || strings.Contains(a, "r")
			// Options with an argument: -a -d -i -n -N -p -t -u.
			if strings.ContainsAny(a[len(a)-1:], "adinNptu") {
				if a[len(a)-1] == 'a' && i+1 < len(c.Args) {
					names = append(names, c.Args[i+1])
					array = true
				}
				if a != "-r" {
					i++
				}
			}
			continue
		}
		names = append(names, c.Args[i])
	}
	if len(names) == 0 {
		names = []Word{{Value: "REPLY"}}
	}
	line, ok := readLine(c.Stdin, raw)
	if !ok || array {
		for _, n := range names {
			fr.forgetName(n)
		}
		return
	}
	fields := strings.Fields(line)
	for i, n := range names {
		if !n.Literal() || !validName(n.Value) {
			fr.st.poisonVars()
			return
		}
		v := ""
		switch {
		case i == len(names)-1 && i < len(fields):
			// The last name takes the rest of the line.
			rest := strings.TrimLeft(line, " \t")
			for k := 0; k < i; k++ {
				rest = strings.TrimLeft(strings.TrimPrefix(rest, fields[k]), " \t")
			}
			v = strings.TrimRight(rest, " \t")
		case i < len(fields):
			v = fields[i]
		}
		fr.st.set(n.Value, strVar(v, false))
	}
}

// readLine returns the line of a known one-line input, unescaped unless
// raw. With more lines, which one a read gets depends on the reads before
// it (a loop, two reads from one heredoc): unknown.
func readLine(in *Input, raw bool) (string, bool) {
	if in == nil || !in.Known {
		return "", false
	}
	line, rest, _ := strings.Cut(in.Text, "\n")
	if rest != "" {
		return "", false
	}
	if !raw && strings.Contains(line, "\\") {
		return "", false
	}
	return line, true
}

func (fr *frame) forgetName(w Word) {
	if w.Literal() && validName(w.Value) {
		fr.st.forget(w.Value)
		return
	}
	fr.st.poisonVars() // read "$X": any variable
}

// builtinMapfile forgets the array and follows a -C callback, which bash
// evaluates as a command.
func builtinMapfile(fr *frame, c *Command, args []arg) {
	name := "MAPFILE"
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i].Value
		switch {
		case a == "-C" && i+1 < len(c.Args):
			fr.nestedText(c, args[i+2], "mapfile -C")
			i++
		case len(a) == 2 && a[0] == '-' && strings.ContainsRune("dnOsuc", rune(a[1])):
			i++
		case strings.HasPrefix(a, "-"):
		default:
			name = a
		}
	}
	fr.st.forget(name)
}

func builtinUnset(fr *frame, c *Command, args []arg) {
	funcs := false
	for _, a := range c.Args {
		switch {
		case a.Value == "-f":
			funcs = true
		case a.Value == "-v" || a.Value == "-n":
		case !a.Literal():
			fr.st.poisonVars()
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
				i++
			}
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+"):
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
	flags := ""
	export := c.Name == "export"
	for _, a := range c.Args {
		v := a.Value
		if strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+") {
			flags += v[1:]
			continue
		}
		name, val, ok := strings.Cut(v, "=")
		if !validName(strings.TrimSuffix(name, "+")) {
			if hasUnknown(name) {
				fr.st.poisonVars()
			}
			continue
		}
		exp := export || strings.Contains(flags, "x")
		w := Word{Value: val, Dynamic: hasUnknown(val), Pos: a.Pos}
		fr.emitAssignment(&Assignment{Name: name, Value: w, Export: exp, Decl: c.Name, Pos: a.Pos})
		if !ok {
			if exp {
				v := *fr.st.lookup(name)
				v.exported = true
				fr.st.set(name, &v)
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
