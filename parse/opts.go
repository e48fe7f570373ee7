package parse

import "strings"

// opt is one parsed command-line option.
type opt struct {
	name string // "u" for -u, "user" for --user
	val  *arg   // its value, when it takes one
	long bool
}

// OptSpec says how a program's options are spelled: the one option model
// of the analysis and of policy. parseOpts reads options in order up to
// the first operand (what the analysis needs to find the command a
// wrapper runs); ParseArgs sorts a whole argument list the way
// getopt_long with permutation does (what policy needs to ask "was -r
// given").
type OptSpec struct {
	// Short lists the one-letter options that take a value (attached,
	// "-uroot", or as the next argument, "-u root").
	Short string
	// Optional lists the one-letter options whose value, if any, must be
	// attached (xargs -i[R], -l[N]).
	Optional string
	// Long lists the long options that take a value ("--user root" or
	// "--user=root"), without the dashes.
	Long []string
	// PlusOK accepts +x options (bash's +o).
	PlusOK bool
	// Numeric accepts "-10" as an option (nice -10).
	Numeric bool
	// StopAtOperand stops ParseArgs at the first operand (POSIX style,
	// and commands like git whose subcommand ends the global options).
	StopAtOperand bool
}

// parseOpts reads options from args[i:] up to the first operand; "--"
// ends them and is consumed. It returns the options and the index of the
// first operand.
func parseOpts(args []arg, i int, spec OptSpec) ([]opt, int) {
	var out []opt
	for i < len(args) {
		a := args[i]
		v := a.Value
		switch {
		case v == "--":
			return out, i + 1
		case !a.Literal() || len(v) < 2 || v[0] != '-' && !(spec.PlusOK && v[0] == '+'):
			return out, i
		case strings.HasPrefix(v, "--"):
			name, val, hasVal := strings.Cut(v[2:], "=")
			o := opt{name: name, long: true}
			switch {
			case hasVal:
				o.val = &arg{Word: Word{Value: val, Pos: a.Pos}}
			case contains(spec.Long, name) && i+1 < len(args):
				i++
				o.val = &args[i]
			}
			out = append(out, o)
			i++
		case spec.Numeric && isDigits(v[1:]):
			out = append(out, opt{name: v[1:]})
			i++
		default:
			i++
			for j := 1; j < len(v); j++ {
				c := v[j]
				o := opt{name: v[j : j+1]}
				switch {
				case strings.IndexByte(spec.Short, c) >= 0:
					if j+1 < len(v) {
						o.val = &arg{Word: Word{Value: v[j+1:], Pos: a.Pos}}
					} else if i < len(args) {
						o.val = &args[i]
						i++
					}
					j = len(v)
				case strings.IndexByte(spec.Optional, c) >= 0:
					if j+1 < len(v) {
						o.val = &arg{Word: Word{Value: v[j+1:], Pos: a.Pos}}
					}
					j = len(v)
				}
				out = append(out, o)
			}
		}
	}
	return out, i
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// has reports whether any of the named options was given.
func has(opts []opt, names ...string) bool {
	for _, o := range opts {
		if contains(names, o.name) {
			return true
		}
	}
	return false
}

// value returns the value of the last of the named options given.
func optVal(opts []opt, names ...string) *arg {
	var v *arg
	for _, o := range opts {
		if contains(names, o.name) && o.val != nil {
			v = o.val
		}
	}
	return v
}
