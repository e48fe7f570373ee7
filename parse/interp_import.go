package parse

import "strings"

// pyImport reads "import a.b as c, d".
func (sc *callScanner) pyImport(i int) int {
	for i < len(sc.toks) && sc.at(i).kind == tIdent {
		name, j := sc.chain(i)
		if sc.at(j).s == "as" && sc.at(j+1).kind == tIdent {
			sc.alias(sc.at(j+1).s, name)
			j += 2
		} else if !strings.Contains(name, ".") {
			sc.alias(name, name) // the name now refers to the module
		}
		if !sc.isPunct(j, ",") {
			return j
		}
		i = j + 1
	}
	return i
}

// pyFrom reads "from m import a as b, c".
func (sc *callScanner) pyFrom(i int) int {
	mod, j := sc.chain(i)
	if sc.at(j).s != "import" {
		return j
	}
	j++
	if sc.isPunct(j, "(") {
		j++
	}
	return sc.aliasList(j, mod, func(t tok) bool { return t.s == "as" })
}

// aliasList reads NAME [SEP LOCAL], … from j and binds each local name
// (NAME itself without SEP) to mod.NAME: Python's "a as b, c", JS's
// destructuring "a: b, c". It returns the index after the list.
func (sc *callScanner) aliasList(j int, mod string, sep func(tok) bool) int {
	for j < len(sc.toks) && sc.at(j).kind == tIdent {
		name := sc.at(j).s
		local := name
		j++
		if sep(sc.at(j)) && sc.at(j+1).kind == tIdent {
			local = sc.at(j + 1).s
			j += 2
		}
		sc.alias(local, mod+"."+name)
		if !sc.isPunct(j, ",") {
			break
		}
		j++
	}
	return j
}

// jsImport reads import x from 'm', import * as x from 'm',
// import {a, b as c} from 'm'.
func (sc *callScanner) jsImport(i int) int {
	var locals [][2]string
	j := i
	for j < len(sc.toks) && sc.at(j).s != "from" && !sc.isPunct(j, ";") {
		t := sc.at(j)
		switch {
		case sc.isPunct(j, "*") && sc.at(j+1).s == "as":
			locals = append(locals, [2]string{sc.at(j + 2).s, ""})
			j += 3
			continue
		case sc.isPunct(j, "{"):
			k := j + 1
			for k < len(sc.toks) && !sc.isPunct(k, "}") {
				if sc.at(k).kind == tIdent {
					name, local := sc.at(k).s, sc.at(k).s
					if sc.at(k+1).s == "as" {
						local = sc.at(k + 2).s
						k += 2
					}
					locals = append(locals, [2]string{local, name})
				}
				k++
			}
			j = k + 1
			continue
		case t.kind == tIdent:
			locals = append(locals, [2]string{t.s, ""})
		}
		j++
	}
	if sc.at(j).s != "from" || sc.at(j+1).kind != tStr {
		return j + 1
	}
	mod := strings.TrimPrefix(sc.at(j+1).s, "node:")
	for _, l := range locals {
		if l[1] == "" {
			sc.alias(l[0], mod)
		} else {
			sc.alias(l[0], mod+"."+l[1])
		}
	}
	return j + 2
}

// jsDestructure reads const { a, b: c } = require('m').
func (sc *callScanner) jsDestructure(i int) int {
	end := sc.skipGroup(i, "}")
	if !sc.isPunct(end, "=") {
		return end
	}
	m, j, ok := sc.moduleRef(end + 1)
	if !ok {
		return end
	}
	for k := i + 1; k < end-1; k++ {
		if sc.at(k).kind != tIdent {
			continue
		}
		name, local := sc.at(k).s, sc.at(k).s
		if sc.isPunct(k+1, ":") && sc.at(k+2).kind == tIdent {
			local = sc.at(k + 2).s
			k += 2
		}
		sc.alias(local, m+"."+name)
	}
	return j
}

// awkPipe finds awk's pipes and redirections: "cmd" | getline, print … |
// "cmd", print … > "file".
func (sc *callScanner) awkPipe(i, j int) int {
	switch sc.toks[i].s {
	case "print", "printf":
		for k := j; k < len(sc.toks); k++ {
			t := sc.at(k)
			if t.kind == tPunct && (t.s == ";" || t.s == "}") {
				return k
			}
			if t.kind == tPunct && (t.s == "|" || t.s == ">") {
				v, end := sc.expr(k + 1)
				if t.s == ">" && sc.isPunct(k+1, ">") {
					v, end = sc.expr(k + 2)
				}
				if t.s == ">" {
					sc.calls = append(sc.calls, call{name: "awk >", args: []value{v}})
					return end
				}
				// The command reads what is printed: its standard input.
				sc.calls = append(sc.calls, call{name: "awk |", args: []value{v, sc.awkPrinted(sc.toks[i].s, j, k)}})
				return end
			}
		}
	}
	return j
}

// awkPrinted is the line print writes for the expressions in toks[j:end]
// (commas join them with a blank, the default OFS; none is $0), or
// Unknown for printf and whatever the scanner cannot read.
func (sc *callScanner) awkPrinted(verb string, j, end int) value {
	if verb != "print" {
		return unknownValue
	}
	if j == end {
		return awkField("0")
	}
	var b strings.Builder
	for k := j; k < end; {
		v, next := sc.expr(k)
		if next <= k || v.isList {
			return unknownValue
		}
		b.WriteString(v.s)
		switch {
		case next == end:
			return value{s: b.String() + "\n"}
		case sc.isPunct(next, ","):
			b.WriteByte(' ')
			k = next + 1
		default:
			return unknownValue
		}
	}
	return unknownValue
}

// awkGetlines finds CMD | getline, after the lexing: the command is the
// expression before the pipe, strings, variables and fields joined (awk's
// concatenation), read with the variables as the program left them. An
// expression the scanner cannot read back to its start ("x" (y) |
// getline) is a command that cannot be known.
func (sc *callScanner) awkGetlines() {
	toks := sc.toks
	for k := 1; k+1 < len(toks); k++ {
		if toks[k].kind != tPunct || toks[k].s != "|" || toks[k+1].kind != tIdent || toks[k+1].s != "getline" {
			continue
		}
		start := k
		for start > 0 {
			t := toks[start-1]
			if t.kind == tStr || t.kind == tNum || t.kind == tIdent && !awkKeyword(t.s) || t.kind == tPunct && t.s == "$" {
				start--
				continue
			}
			break
		}
		v := unknownValue
		if start < k {
			if w, end := sc.expr(start); end == k {
				v = w
			}
		}
		sc.calls = append(sc.calls, call{name: "awk |", args: []value{v}})
	}
}

// pyPercent replaces %-format conversions with Unknown.
func pyPercent(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+1 < len(s) {
			if s[i+1] == '%' {
				b.WriteByte('%')
				i++
				continue
			}
			j := i + 1
			for j < len(s) && strings.IndexByte("0123456789.-+ #()abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", s[j]) >= 0 && !strings.ContainsRune("sdifrxXoeEgGc", rune(s[j])) {
				j++
			}
			if j < len(s) {
				b.WriteString(Unknown)
				i = j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// pyBraces replaces str.format fields with Unknown.
func pyBraces(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "{{"):
			b.WriteByte('{')
			i++
		case strings.HasPrefix(s[i:], "}}"):
			b.WriteByte('}')
			i++
		case s[i] == '{':
			if j := strings.IndexByte(s[i:], '}'); j >= 0 {
				b.WriteString(Unknown)
				i += j
				continue
			}
			b.WriteByte('{')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func decoder(name string) bool {
	switch name {
	case "base64.b64decode", "base64.standard_b64decode", "b64decode", "atob", "base64_decode", "Base64.decode64", "MIME.Base64.decode_base64", "decode_base64":
		return true
	}
	return false
}
