package policy

import (
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// Args is a command's arguments sorted the way getopt_long with argument
// permutation sorts them (GNU tools accept options after operands:
// `rm / -rf` is `rm -rf /`).
type Args struct {
	short    map[byte]int        // short options seen, with their count
	long     map[string][]string // long options seen ("force" for --force), with values
	values   map[byte][]string   // values of short options that take one
	Operands []parse.Word
	// Dynamic is set when some argument's value is not known: it could be
	// any option.
	Dynamic bool
}

// OptSpec says which options take a value, so their values are not
// mistaken for operands or for clustered flags.
type OptSpec struct {
	Short string   // short options taking a value, e.g. "uCn"
	Long  []string // long options taking a value (without --), e.g. "git-dir"
	// StopAtOperand stops option parsing at the first operand (POSIX style,
	// and commands like git whose subcommand ends the global options).
	StopAtOperand bool
}

// ParseArgs sorts words into options and operands.
func ParseArgs(words []parse.Word, spec OptSpec) *Args {
	// The maps are made on first use: most commands have few options, and
	// rules parse the same arguments many times.
	a := &Args{}
	for i := 0; i < len(words); i++ {
		w := words[i]
		v := w.Value
		if w.Dynamic {
			a.Dynamic = true
		}
		switch {
		case v == "--":
			a.Operands = append(a.Operands, words[i+1:]...)
			return a
		case strings.HasPrefix(v, "--"):
			name, val, has := strings.Cut(v[2:], "=")
			if !has && takesLong(spec, name) && i+1 < len(words) {
				i++
				val = words[i].Value
			}
			if a.long == nil {
				a.long = map[string][]string{}
			}
			a.long[name] = append(a.long[name], val)
		case len(v) > 1 && v[0] == '-':
			i += a.cluster(v[1:], words[i+1:], spec)
		default:
			a.Operands = append(a.Operands, w)
			if spec.StopAtOperand {
				a.Operands = append(a.Operands, words[i+1:]...)
				return a
			}
		}
	}
	return a
}

// cluster records the letters of "-abc"; a letter that takes a value ends
// the cluster (the rest, or the next word, is its value). It returns how
// many following words it consumed.
func (a *Args) cluster(letters string, rest []parse.Word, spec OptSpec) int {
	for j := 0; j < len(letters); j++ {
		c := letters[j]
		if a.short == nil {
			a.short = map[byte]int{}
		}
		a.short[c]++
		if strings.IndexByte(spec.Short, c) < 0 {
			continue
		}
		if a.values == nil {
			a.values = map[byte][]string{}
		}
		if j+1 < len(letters) {
			a.values[c] = append(a.values[c], letters[j+1:])
			return 0
		}
		if len(rest) > 0 {
			a.values[c] = append(a.values[c], rest[0].Value)
			return 1
		}
		return 0
	}
	return 0
}

func takesLong(spec OptSpec, name string) bool {
	for _, l := range spec.Long {
		if l == name {
			return true
		}
	}
	return false
}

// Short reports whether any of the short options was given.
func (a *Args) Short(letters string) bool {
	for i := 0; i < len(letters); i++ {
		if a.short[letters[i]] > 0 {
			return true
		}
	}
	return false
}

// Long reports whether any of the long options was given, in full or as
// an abbreviation: getopt_long and git accept a unique prefix
// (`rm --rec --fo /`). Counting every prefix as a match errs toward the
// risky reading, which is what a guard wants.
func (a *Args) Long(names ...string) bool {
	for given := range a.long {
		for _, n := range names {
			if given != "" && strings.HasPrefix(n, given) {
				return true
			}
		}
	}
	return false
}

// LongValues returns the values given to a long option.
func (a *Args) LongValues(name string) []string { return a.long[name] }

// ShortValues returns the values given to a short option.
func (a *Args) ShortValues(c byte) []string { return a.values[c] }

// Has reports whether the short letter or one of the long names was given.
func (a *Args) Has(letters string, long ...string) bool {
	return a.Short(letters) || a.Long(long...)
}
