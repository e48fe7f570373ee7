package parse

import "strings"

// Args is a command's arguments sorted the way getopt_long with argument
// permutation sorts them (GNU tools accept options after operands:
// `rm / -rf` is `rm -rf /`).
type Args struct {
	short    [4]uint64           // short options seen, a bit per byte value
	long     map[string][]string // long options seen ("force" for --force), with values
	values   map[byte][]string   // values of short options that take one
	Operands []Word
	// Dynamic is set when some argument's value is not known: it could be
	// any option.
	Dynamic bool
}

// ParseArgs sorts words into options and operands.
func ParseArgs(words []Word, spec OptSpec) *Args {
	a := &Args{}
	a.Parse(words, spec)
	return a
}

// Parse fills a, which must be zero. Rules parse the same arguments many
// times, so it allocates little: the maps are made on first use (most
// commands have few options), and operands that stand together in words
// (the usual case: `git push -f origin main`, everything after a
// subcommand) are a slice of words, not a copy.
func (a *Args) Parse(words []Word, spec OptSpec) {
	var ops operandRun
loop:
	for i := 0; i < len(words); i++ {
		w := words[i]
		v := w.Value
		if w.Dynamic {
			a.Dynamic = true
		}
		switch {
		case v == "--":
			a.Operands = ops.add(words, a.Operands, i+1, len(words))
			break loop
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
			if spec.StopAtOperand {
				a.Operands = ops.add(words, a.Operands, i, len(words))
				break loop
			}
			a.Operands = ops.add(words, a.Operands, i, i+1)
		}
	}
	a.Operands = ops.slice(words, a.Operands)
}

// operandRun is the operands seen so far while they are one stretch
// words[lo:hi]; once they are not, they live in the Operands copy.
type operandRun struct {
	lo, hi int
	copied bool
}

// add records words[lo:hi] as operands; got is the copy so far, which it
// returns, made only when the operands stop standing together.
func (r *operandRun) add(words, got []Word, lo, hi int) []Word {
	switch {
	case lo == hi:
		return got
	case r.copied:
		return append(got, words[lo:hi]...)
	case r.lo == r.hi:
		r.lo, r.hi = lo, hi
		return nil
	case r.hi == lo:
		r.hi = hi
		return nil
	}
	r.copied = true
	out := make([]Word, 0, r.hi-r.lo+len(words)-lo)
	return append(append(out, words[r.lo:r.hi]...), words[lo:hi]...)
}

// slice returns the operands: got, the copy, or the stretch of words, capped so
// that appending to it cannot write into words.
func (r *operandRun) slice(words, got []Word) []Word {
	if r.copied || r.lo == r.hi {
		return got
	}
	return words[r.lo:r.hi:r.hi]
}

// cluster records the letters of "-abc"; a letter that takes a value ends
// the cluster (the rest, or the next word, is its value). It returns how
// many following words it consumed.
func (a *Args) cluster(letters string, rest []Word, spec OptSpec) int {
	for j := 0; j < len(letters); j++ {
		c := letters[j]
		a.short[c/64] |= 1 << (c % 64)
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
		if c := letters[i]; a.short[c/64]&(1<<(c%64)) != 0 {
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
