package shim

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Invocation is a bash-compatible command line, parsed the way bash parses its own options.
type Invocation struct {
	Shell       string   // "bash" or "sh": the name bash answers to; as "sh" it runs in POSIX mode
	Command     string   // the -c script
	HasCommand  bool     // -c was given
	ScriptFile  string   // first operand when there is no -c and no -s
	Args        []string // for -c: the operands after the script ($0 $1 …); for a script file: $1 …
	ReadStdin   bool     // -s, or no -c and no operands: the script comes from stdin
	Login       bool     // -l, --login, or argv[0] starting with '-'
	Interactive bool     // -i
	// ShellOpts are the options to pass to the real shell, in order, e.g. "-e", "-o",
	// "pipefail", "+o", "posix", "--noprofile", "--norc", "-l", "-x", "-u", "-O",
	// "extglob". Clusters are split ("-ec" gives "-e"), single-dash long options are
	// spelled with two dashes ("-login" gives "--login"), "-c" is left out (Argv adds it
	// back) and "-s" is kept.
	ShellOpts []string

	// Arg0 is argv[0] for the real shell. It is the caller's own argv[0] when that
	// names the shell (a PATH shim called "bash", "/x/sh" or "-bash"), so that $0 and
	// bash's error messages ("bash: line 1: …") read as they would without the guard.
	// It is empty when the caller is guard-exec under its own name; Argv then uses the
	// real shell's base name, with a leading '-' for a login shell.
	Arg0 string

	loginArg0 bool // Login came from a leading '-' in argv[0]
}

// UsageError is a command line bash itself would refuse before running anything.
// Callers print Error() on stderr and exit with ExitCode(), as bash does; bash would
// also print its usage text after an invalid option.
type UsageError struct {
	Msg  string // bash's own words, e.g. "bash: -z: invalid option"
	Code int    // 2, or 1 when -e was already on (bash 5.2 exits 1 then)
}

func (e *UsageError) Error() string { return e.Msg }

// ExitCode is the status bash exits with for this error.
func (e *UsageError) ExitCode() int { return e.Code }

// longOpt is one of bash's GNU long options (bash --help lists them). They are only
// recognised before the first short option, and bash accepts them with one dash too:
// `bash -login` is `bash --login`, not the cluster -l -o gin.
type longOpt struct {
	name   string
	hasArg bool
}

var longOpts = []longOpt{
	{"debug", false}, {"debugger", false}, {"dump-po-strings", false},
	{"dump-strings", false}, {"help", false}, {"init-file", true}, {"login", false},
	{"noediting", false}, {"noprofile", false}, {"norc", false}, {"posix", false},
	{"pretty-print", false}, {"rcfile", true}, {"restricted", false},
	{"verbose", false}, {"version", false},
}

// setFlags are the letters bash's `set` accepts on its command line; 'i' and 'r' are
// invocation-only but go through the same path in bash (change_flag).
const setFlags = "abefhkmnptuvxBCEHPTir"

// ParseInvocation parses args (without argv[0]) with bash's option grammar: long
// options first, then option groups starting with '-' or '+' (clusters, -o/-O taking
// the next argument, "--" or a lone "-" ending them), then operands. With -c the
// script is the first operand, not the argument after -c: `bash -c -l 'cmd'`, `bash
// -lc cmd` and `bash -o pipefail -c cmd` all run cmd.
//
// shell is argv[0] as the caller received it, or a plain name: a base name of "sh"
// is bash called as sh, which runs in POSIX mode (anything else is bash), and a
// leading '-' means a login shell. The error is a *UsageError when bash would refuse the line.
func ParseInvocation(shell string, args []string) (*Invocation, error) {
	inv := newInvocation(shell)
	p := &optParser{inv: inv, args: args}
	if err := p.parseLong(); err != nil {
		return nil, err
	}
	if err := p.parseShort(); err != nil {
		return nil, err
	}
	if err := inv.setOperands(args[p.i:], p.readStdin, p.errexit); err != nil {
		return nil, err
	}
	inv.ShellOpts = append(inv.ShellOpts, p.listing...)
	return inv, nil
}

func newInvocation(shell string) *Invocation {
	base := filepath.Base(shell)
	name := strings.TrimPrefix(base, "-")
	login := strings.HasPrefix(base, "-")
	inv := &Invocation{Shell: "bash", Login: login, loginArg0: login}
	if name == "sh" {
		inv.Shell = "sh"
	}
	if name == "sh" || name == "bash" {
		inv.Arg0 = shell
	}
	return inv
}

// optParser walks the arguments the way bash's shell.c does (parse_long_options, then
// parse_shell_options).
type optParser struct {
	inv       *Invocation
	args      []string
	i         int
	readStdin bool
	errexit   bool     // -e is on: bash then exits 1, not 2, on a usage error
	listing   []string // a trailing -o/+o/-O/+O without a name: bash lists the options
}

func (p *optParser) parseLong() error {
	for ; p.i < len(p.args) && strings.HasPrefix(p.args[p.i], "-"); p.i++ {
		arg := p.args[p.i]
		double := len(arg) > 2 && arg[1] == '-'
		name := arg[1:]
		if double {
			name = arg[2:]
		}
		opt, ok := lookupLong(name)
		if !ok {
			if double {
				return p.usage(arg + ": invalid option")
			}
			return nil // not a long option: the short options start here
		}
		p.inv.ShellOpts = append(p.inv.ShellOpts, "--"+opt.name)
		if opt.name == "login" {
			p.inv.Login = true
		}
		if opt.hasArg {
			if p.i+1 >= len(p.args) {
				return p.usage(opt.name + ": option requires an argument")
			}
			p.i++
			p.inv.ShellOpts = append(p.inv.ShellOpts, p.args[p.i])
		}
	}
	return nil
}

// IsLongOption reports whether bash has the long option --name.
func IsLongOption(name string) bool {
	_, ok := lookupLong(name)
	return ok
}

func lookupLong(name string) (longOpt, bool) {
	for _, o := range longOpts {
		if o.name == name {
			return o, true
		}
	}
	return longOpt{}, false
}

func (p *optParser) parseShort() error {
	for p.i < len(p.args) {
		arg := p.args[p.i]
		if arg == "" || (arg[0] != '-' && arg[0] != '+') {
			return nil
		}
		if arg == "-" || arg == "--" {
			p.i++
			return nil
		}
		// -o and -O take the argument after the whole group: `bash -oO pipefail extglob`.
		p.i++
		for j := 1; j < len(arg); j++ {
			if err := p.flag(arg[0], arg[j]); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *optParser) flag(sign, c byte) error {
	inv := p.inv
	switch c {
	case 'c': // bash turns these on whatever the sign: `bash +c cmd` runs cmd
		inv.HasCommand = true
	case 's':
		p.readStdin = true
		inv.ShellOpts = append(inv.ShellOpts, "-s")
	case 'l':
		inv.Login = true
		inv.ShellOpts = append(inv.ShellOpts, "-l")
	case 'D':
		inv.ShellOpts = append(inv.ShellOpts, "-D")
	case 'o', 'O':
		p.optionName(sign, c)
	default:
		if strings.IndexByte(setFlags, c) < 0 {
			return p.usage(fmt.Sprintf("%c%c: invalid option", sign, c))
		}
		inv.ShellOpts = append(inv.ShellOpts, fmt.Sprintf("%c%c", sign, c))
		switch c {
		case 'e':
			p.errexit = sign == '-'
		case 'i':
			inv.Interactive = sign == '-'
		}
	}
	return nil
}

// optionName handles -o NAME, +o NAME, -O NAME and +O NAME. The name is not checked:
// the real shell knows its own option names (bash exits 2 on a bad one) and a newer
// bash may know more than this table would.
func (p *optParser) optionName(sign, c byte) {
	flag := fmt.Sprintf("%c%c", sign, c)
	if p.i >= len(p.args) {
		// Nothing follows: bash prints the option list. Argv puts this last, where
		// it cannot swallow an argument added after it.
		p.listing = append(p.listing, flag)
		return
	}
	name := p.args[p.i]
	p.i++
	p.inv.ShellOpts = append(p.inv.ShellOpts, flag, name)
	if c == 'o' && name == "errexit" {
		p.errexit = sign == '-'
	}
}

func (p *optParser) usage(msg string) error {
	code := 2
	if p.errexit {
		code = 1
	}
	return &UsageError{Msg: p.inv.Shell + ": " + msg, Code: code}
}

func (inv *Invocation) setOperands(ops []string, readStdin, errexit bool) error {
	switch {
	case inv.HasCommand:
		if len(ops) == 0 {
			code := 2
			if errexit {
				code = 1
			}
			return &UsageError{Msg: inv.Shell + ": -c: option requires an argument", Code: code}
		}
		inv.Command, inv.Args = ops[0], ops[1:]
	case readStdin || len(ops) == 0:
		inv.ReadStdin, inv.Args = true, ops
	default:
		inv.ScriptFile, inv.Args = ops[0], ops[1:]
	}
	if inv.Args == nil {
		inv.Args = []string{}
	}
	return nil
}

// Argv returns the argv that makes the real shell at realPath do exactly what this
// invocation asked: argv[0] (see Arg0), ShellOpts, "-c" when there is a command, and
// the operands, after "--" when the first one starts with '-' or '+' (it would be
// read as options otherwise).
func (inv *Invocation) Argv(realPath string) []string {
	argv := make([]string, 0, len(inv.ShellOpts)+len(inv.Args)+4)
	argv = append(argv, inv.arg0(realPath))
	argv = append(argv, inv.ShellOpts...)
	var ops []string
	switch {
	case inv.HasCommand:
		argv = append(argv, "-c")
		ops = append([]string{inv.Command}, inv.Args...)
	case inv.ReadStdin:
		ops = inv.Args
	default:
		ops = append([]string{inv.ScriptFile}, inv.Args...)
	}
	if len(ops) > 0 && ops[0] != "" && (ops[0][0] == '-' || ops[0][0] == '+') {
		argv = append(argv, "--")
	}
	return append(argv, ops...)
}

func (inv *Invocation) arg0(realPath string) string {
	if inv.Arg0 != "" {
		return inv.Arg0
	}
	name := filepath.Base(realPath)
	if realPath == "" {
		name = inv.Shell
	}
	if inv.loginArg0 {
		// argv[0] "-bash" makes the real shell a login shell, as login(1) does; a
		// login asked for with -l or --login is in ShellOpts already.
		return "-" + name
	}
	return name
}
