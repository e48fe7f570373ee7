package parse

import (
	"path"
	"strings"
	"sync"
)

// A program's own modules run with it: python -c 'import m' runs m.py
// of the working directory, node -e 'require("./m")' runs m.js, ruby's
// require_relative "m" runs m.rb beside the script. The modules a
// program's code loads that are files the same line wrote (echo … >
// m.py; python3 -c 'import m') are read like the program, each file once
// per analysis. A module already on disk is the project's own, as the
// files a program runs by itself are (Program.Runs): its helpers delete
// what they are given and run what they are asked to, and following
// every import of an ordinary run would judge the whole code base on
// each python3 app.py. The program file a command names is read from
// disk (python3 x.py); what it imports from disk is not.

// maxImports bounds the modules followed from one program's code.
const maxImports = 16

// importWords are, per language, the words a program that loads a
// module of its own must contain: code without them is not tokenized
// for imports.
var importWords = sync.OnceValue(func() map[langID][]string {
	return map[langID][]string{
		langPython: {"import"},
		langJS:     {"require", "import"},
		langRuby:   {"require", "load"},
		langPerl:   {"require", "do"},
	}
})

// mayImport reports whether code may load a module by name: it holds
// one of its language's import words.
func mayImport(text string, lang langID) bool {
	for _, w := range importWords()[lang] {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// localImports lists the module specifiers a program's code loads by a
// literal name: Python's import a.b, from a.b import c, from . import c,
// __import__("m") and importlib.import_module("m"); JavaScript's
// require("./m"), import … from "./m", import("./m"); Ruby's require,
// require_relative and load; Perl's require and do of a file name.
// Python's are dotted names, leading dots relative; the others are
// paths, Ruby's require_relative marked with a leading "@".
func localImports(toks []tok, lang langID) []string {
	var out []string
	str := func(i int) (string, bool) {
		if i < len(toks) && toks[i].kind == tStr {
			return toks[i].s, true
		}
		if i+2 < len(toks) && toks[i].kind == tPunct && toks[i].s == "(" && toks[i+1].kind == tStr {
			return toks[i+1].s, true
		}
		return "", false
	}
	// dotted reads a Python module name at i: dots, then a.b.c.
	dotted := func(i int) (string, int) {
		var b strings.Builder
		for i < len(toks) && toks[i].kind == tPunct && toks[i].s == "." {
			b.WriteByte('.')
			i++
		}
		for i < len(toks) && toks[i].kind == tIdent {
			b.WriteString(toks[i].s)
			i++
			if i+1 < len(toks) && toks[i].kind == tPunct && toks[i].s == "." && toks[i+1].kind == tIdent {
				b.WriteByte('.')
				i++
				continue
			}
			break
		}
		return b.String(), i
	}
	for i := 0; i < len(toks) && len(out) < maxImports; i++ {
		t := toks[i]
		if t.kind != tIdent || i > 0 && toks[i-1].kind == tPunct && toks[i-1].s == "." {
			continue
		}
		switch lang {
		case langPython:
			switch t.s {
			case "import":
				for j := i + 1; j < len(toks); {
					m, k := dotted(j)
					if m == "" {
						break
					}
					out = append(out, m)
					if k+1 < len(toks) && toks[k].s == "as" {
						k += 2
					}
					if k >= len(toks) || toks[k].kind != tPunct || toks[k].s != "," {
						break
					}
					j = k + 1
				}
			case "from":
				m, k := dotted(i + 1)
				if m == "" || k >= len(toks) || toks[k].s != "import" {
					continue
				}
				if strings.Trim(m, ".") == "" {
					// from . import a, b: each name is a module of the
					// package, or a name in its __init__.
					for j := k + 1; j < len(toks) && toks[j].kind == tIdent; j += 2 {
						out = append(out, m+toks[j].s)
						if j+1 >= len(toks) || toks[j+1].s != "," {
							break
						}
					}
					out = append(out, m)
					continue
				}
				out = append(out, m)
			case "__import__", "import_module":
				if s, ok := str(i + 1); ok {
					out = append(out, s)
				}
			}
		case langJS:
			switch t.s {
			case "require":
				if s, ok := str(i + 1); ok {
					out = append(out, s)
				}
			case "import":
				if s, ok := str(i + 1); ok { // import "./m", import("./m")
					out = append(out, s)
					continue
				}
				for j := i + 1; j < len(toks) && j < i+64; j++ {
					if toks[j].kind == tIdent && toks[j].s == "from" {
						if s, ok := str(j + 1); ok {
							out = append(out, s)
						}
						break
					}
					if toks[j].kind == tPunct && toks[j].s == ";" {
						break
					}
				}
			}
		case langRuby:
			switch t.s {
			case "require", "load":
				if s, ok := str(i + 1); ok {
					out = append(out, s)
				}
			case "require_relative":
				if s, ok := str(i + 1); ok {
					out = append(out, "@"+s)
				}
			}
		case langPerl:
			switch t.s {
			case "require", "do":
				if s, ok := str(i + 1); ok {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// followImports reads the files of the modules a program's code loads
// (localImports) that the line wrote: Python's in base (the
// script's directory, or the working directory for code given on the
// line) and on the PYTHONPATH the line gives; the others' by path,
// relative to base (JavaScript's ./m, Ruby's require_relative) or to
// the working directory (Ruby's and Perl's ./m).
func (fr *frame) followImports(c *Command, lang langID, via string, toks []tok, base string) {
	if len(fr.r.imported) >= 4*maxImports {
		return
	}
	if base == "" {
		base = c.Dir
	}
	for _, m := range localImports(toks, lang) {
		for _, full := range fr.moduleCandidates(c, lang, m, base) {
			if fr.r.imported[full] {
				break
			}
			if fr.r.files[full] == nil {
				continue // not written by the line: on disk, or installed
			}
			if fr.r.imported == nil {
				fr.r.imported = map[string]bool{}
			}
			fr.r.imported[full] = true
			fr.scriptFile(c, lang, via+" import", arg{Word: Word{Value: full, Pos: c.Pos}})
			break
		}
	}
}

// moduleCandidates are the files a module specifier may be, in the
// order the interpreter looks.
func (fr *frame) moduleCandidates(c *Command, lang langID, m, base string) []string {
	if hasUnknown(m) || m == "" || base == "" || hasUnknown(base) {
		return nil
	}
	switch lang {
	case langPython:
		rel := strings.TrimLeft(m, ".")
		dirs := []string{base}
		if up := len(m) - len(rel); up > 0 {
			// from ..pkg import x: relative to the importing file's
			// package, one directory up per dot after the first.
			d := base
			for k := 1; k < up; k++ {
				d = path.Dir(d)
			}
			dirs = []string{d}
		} else {
			dirs = append(dirs, fr.searchPath(c, "PYTHONPATH")...)
		}
		if !validModule(rel, ".") && rel != "" {
			return nil
		}
		var out []string
		for _, d := range dirs {
			p := d
			if rel != "" {
				p = d + "/" + strings.ReplaceAll(rel, ".", "/")
			}
			if rel != "" {
				out = append(out, p+".py")
			}
			out = append(out, p+"/__init__.py")
		}
		return out
	case langJS:
		if !strings.HasPrefix(m, "./") && !strings.HasPrefix(m, "../") && !strings.HasPrefix(m, "/") {
			return nil // a package: node_modules, installed
		}
		p := resolvePath(base, m)
		return []string{p, p + ".js", p + ".cjs", p + ".mjs", p + ".ts", p + "/index.js"}
	case langRuby:
		dir := c.Dir
		if rel, ok := strings.CutPrefix(m, "@"); ok {
			m, dir = rel, base
		} else if !strings.HasPrefix(m, "./") && !strings.HasPrefix(m, "../") && !strings.HasPrefix(m, "/") {
			return nil // a gem or the standard library
		}
		p := resolvePath(dir, m)
		if strings.HasSuffix(p, ".rb") {
			return []string{p}
		}
		return []string{p + ".rb", p}
	case langPerl:
		if !strings.HasPrefix(m, "./") && !strings.HasPrefix(m, "../") && !strings.HasPrefix(m, "/") {
			return nil // found on @INC, which no longer holds "."
		}
		return []string{resolvePath(c.Dir, m)}
	}
	return nil
}
