package parse

import (
	"path"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Globs are expanded against the filesystem when the line is checked, as
// bash will expand them when it runs: "rm -rf ./.g*" deletes .git and
// .guard-exec, and is judged by what it matches. A glob that matches
// nothing is the word itself, as bash leaves it (nothing with nullglob).
// Only what is modelled exactly is expanded: a pattern whose every part
// is known, in a known directory, with *, ? and [ … ] (no character
// classes, no extended globs, no globstar **, no nocaseglob), under
// dotglob and nullglob as the script set them; and at most maxGlob
// matches from directories of at most maxGlobDir entries. Anything else
// keeps the pattern (Glob), which policy judges as a pattern: "*" takes
// its whole directory (policy/places.go globPlace).

// DirReader is implemented by an Options.Files that can list directories
// (names only): globs are then expanded.
type DirReader interface {
	ReadDir(path string) ([]string, error)
}

const maxGlob = 32

// MaxGlobDir is the most entries a directory may have for globs in it to
// be expanded; a DirReader may stop reading past it.
const MaxGlobDir = 4096

// Shell options that change how globs expand.
const (
	optDotglob uint8 = 1 << iota
	optNullglob
	optFailglob
	optGlobstar
	optExtglob
	optNocaseglob
	optNoglob
	// optUnknown: the options are not known (set on some paths only, or
	// by a dynamic word): globs are not expanded.
	optUnknown
)

var globOptNames = sync.OnceValue(func() map[string]uint8 {
	return map[string]uint8{
		"dotglob": optDotglob, "nullglob": optNullglob, "failglob": optFailglob,
		"globstar": optGlobstar, "extglob": optExtglob, "nocaseglob": optNocaseglob,
	}
})

// setGlobOpt records shopt -s/-u NAME and set ±f.
func (s *state) setGlobOpt(o uint8, on bool) {
	if on {
		s.globOpts |= o
	} else {
		s.globOpts &^= o
	}
}

// glob expands a field that holds live pattern characters, when that is
// modelled; ok is false when the field must stay a pattern.
func (e *evaluator) glob(w *syntax.Word, f fieldBuf, pos Pos) (out []arg, ok bool) {
	fr := e.fr
	dr, isDR := fr.r.opts.Files.(DirReader)
	opts := fr.st.globOpts
	literal := func() []arg { return []arg{{Word: Word{Value: string(f.b), Pos: pos}, syn: w, whole: true}} }
	if opts&(optNoglob|optUnknown) == optNoglob && !f.dyn && !f.pattern {
		return literal(), true // set -f: the word as it is
	}
	if !isDR || fr.st.dir == "" || opts&(optUnknown|optGlobstar|optExtglob|optNocaseglob|optNoglob|optFailglob) != 0 || f.dyn || f.pattern {
		return nil, false
	}
	pat, ok := e.globPattern(w)
	if !ok || hasClass(pat) {
		return nil, false
	}
	matches, ok := fr.matchGlob(dr, pat, opts&optDotglob != 0)
	if !ok {
		return nil, false
	}
	if len(matches) == 0 {
		if opts&optNullglob != 0 {
			return []arg{}, true
		}
		return literal(), true // the word itself, as bash leaves it
	}
	all := matchesAll(pat)
	out = make([]arg, 0, len(matches))
	for _, m := range matches {
		word := Word{Value: m, Pos: pos, Listed: true}
		if all {
			word.AllOf = resolvePath(fr.st.dir, path.Dir(m))
		}
		out = append(out, arg{Word: word, syn: w})
	}
	return out, true
}

// matchesAll reports whether a pattern's last component matches every
// entry of its directory (*, .*, ?*): the words it expands to are marked
// Word.AllOf, so that rm -rf * in the home directory is judged as what it
// means, the home directory's contents, and not as the few entries it
// happens to hold while the line is checked (a sparse home where * is
// only ~/go).
func matchesAll(pat string) bool {
	switch pat[strings.LastIndexByte(pat, '/')+1:] {
	case "*", ".*", "*.*", "?*", ".?*", "..?*", "**", "* .*":
		return true
	}
	return false
}

// globPattern rebuilds the pattern of a word that expands to one field:
// literal text as written (its backslashes escape in patterns too), quoted
// text and the values of quoted parameters with their pattern characters
// escaped. Words with other parts are not modelled.
func (e *evaluator) globPattern(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if i == 0 && strings.HasPrefix(p.Value, "~") {
				return "", false
			}
			b.WriteString(p.Value)
			if i == len(w.Parts)-1 && unpairedBackslash(p.Value) {
				// A backslash that ends the input escapes nothing and is
				// itself (`bash -c 'ls a*\'`); in a pattern it is `\\`.
				b.WriteByte('\\')
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(globQuote(p.Value))
		case *syntax.DblQuoted:
			for _, dp := range p.Parts {
				switch dp := dp.(type) {
				case *syntax.Lit:
					if strings.ContainsAny(dp.Value, "\\$`") {
						return "", false
					}
					b.WriteString(globQuote(dp.Value))
				case *syntax.ParamExp:
					v, ok := e.simpleValue(dp)
					if !ok {
						return "", false
					}
					b.WriteString(globQuote(v))
				default:
					return "", false
				}
			}
		case *syntax.ParamExp:
			// Unquoted: the value's pattern characters are live; one field
			// only when it holds no blanks.
			v, ok := e.simpleValue(p)
			if !ok || strings.ContainsAny(v, " \t\n\\") {
				return "", false
			}
			b.WriteString(v)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// simpleValue is the known value of $NAME or ${NAME}.
func (e *evaluator) simpleValue(pe *syntax.ParamExp) (string, bool) {
	if pe.Param == nil || !isSimpleParam(pe) || !validName(pe.Param.Value) {
		return "", false
	}
	v := e.fr.lookup(pe.Param.Value)
	val, _ := v.value()
	if !v.known || v.pattern || hasUnknown(val) {
		return "", false
	}
	return val, true
}

// unpairedBackslash reports whether literal text ends in a backslash that
// escapes nothing.
func unpairedBackslash(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			if i == len(s)-1 {
				return true
			}
			i++
		}
	}
	return false
}

func globQuote(s string) string {
	if !strings.ContainsAny(s, "*?[]\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("*?[]\\", s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// matchGlob matches pat component by component against the directories
// it names, from the working directory.
func (fr *frame) matchGlob(dr DirReader, pat string, dotglob bool) ([]string, bool) {
	abs := strings.HasPrefix(pat, "/")
	comps := strings.Split(strings.TrimPrefix(pat, "/"), "/")
	prefix := ""
	if abs {
		prefix = "/"
	}
	paths := []string{prefix}
	fromMatch := false // the paths came from matches: some may not be directories
	for i, comp := range comps {
		last := i == len(comps)-1
		if comp == "" {
			if !last {
				return nil, false // a//b
			}
			// A trailing slash: only directories match, not modelled.
			return nil, false
		}
		if !hasGlobChars(comp) {
			lit := unescapeGlob(comp)
			for j := range paths {
				paths[j] = paths[j] + lit
				if !last {
					paths[j] += "/"
				}
			}
			continue
		}
		gpat := strings.ReplaceAll(strings.ReplaceAll(comp, "[!", "[^"), "[^]", "[^\\]")
		if _, err := path.Match(gpat, ""); err != nil {
			return nil, false
		}
		var next []string
		for _, p := range paths {
			dir := p
			if dir == "" {
				dir = "."
			}
			names, ok := fr.listDir(dr, resolvePath(fr.st.dir, dir))
			if !ok {
				if fromMatch {
					continue // a file matched where a directory was wanted
				}
				return nil, false
			}
			for _, n := range names {
				if n[0] == '.' && !strings.HasPrefix(comp, ".") && !strings.HasPrefix(comp, "\\.") && !dotglob {
					continue
				}
				if m, _ := path.Match(gpat, n); !m || n == "" {
					continue
				}
				q := p + n
				if !last {
					q += "/"
				}
				next = append(next, q)
				if len(next) > maxGlob {
					return nil, false
				}
			}
		}
		paths, fromMatch = next, true
		if len(paths) == 0 {
			return nil, true
		}
	}
	if !hasGlobChars(pat) {
		return nil, false
	}
	if len(comps) > 1 {
		// The last component was literal or matched entries of
		// directories: a path that does not exist is not a match.
		var kept []string
		for _, p := range paths {
			if fr.exists(dr, resolvePath(fr.st.dir, p)) {
				kept = append(kept, p)
			}
		}
		paths = kept
	}
	slices.Sort(paths)
	return paths, true
}

// listDir lists a directory through the reader, cached for the line.
func (fr *frame) listDir(dr DirReader, dir string) ([]string, bool) {
	if l, ok := fr.r.dirs[dir]; ok {
		return l.names, l.ok
	}
	names, err := dr.ReadDir(dir)
	l := dirList{names: names, ok: err == nil && len(names) <= MaxGlobDir}
	if fr.r.dirs == nil {
		fr.r.dirs = make(map[string]dirList)
	}
	fr.r.dirs[dir] = l
	return l.names, l.ok
}

type dirList struct {
	names []string
	ok    bool
}

// exists reports whether a path names an entry of its directory.
func (fr *frame) exists(dr DirReader, p string) bool {
	names, ok := fr.listDir(dr, path.Dir(p))
	return ok && slices.Contains(names, path.Base(p))
}

func hasGlobChars(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

func unescapeGlob(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// hasClass reports a character class, equivalence class or collating
// symbol inside brackets ([[:alpha:]], [[=a=]], [[.x.]]): not modelled.
func hasClass(pat string) bool {
	in := false
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; {
		case c == '\\':
			i++
		case !in && c == '[':
			in = true
			if i+1 < len(pat) && (pat[i+1] == '!' || pat[i+1] == '^') {
				i++
			}
			if i+1 < len(pat) && pat[i+1] == ']' {
				i++ // a ] first is literal
			}
		case in && c == '[' && i+1 < len(pat) && strings.IndexByte(":=.", pat[i+1]) >= 0:
			return true
		case in && c == ']':
			in = false
		}
	}
	return false
}
