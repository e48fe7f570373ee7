package policy

import (
	"github.com/guard-exec/guard-exec/parse"
)

// gitGlobal lists git's options that come before the subcommand and take a
// value, so `git -C dir -c k=v --no-pager push -f` still finds "push".
var gitGlobal = parse.OptSpec{
	Short:         "Cc",
	Long:          []string{"git-dir", "work-tree", "namespace", "exec-path", "config-env", "super-prefix", "list-cmds", "attr-source"},
	StopAtOperand: true,
}

// gitSub returns the git subcommand and its arguments. Every git rule asks,
// so the Args stay on the stack.
func gitSub(c *parse.Command) (string, []parse.Word) {
	var g parse.Args
	g.Parse(c.Args, gitGlobal)
	if len(g.Operands) == 0 {
		return "", nil
	}
	return g.Operands[0].Value, g.Operands[1:]
}

// gitCommand matches `git SUB …` and hands the subcommand's arguments on.
func gitCommand(sub string, f func(x *Ctx, args *parse.Args) bool, spec parse.OptSpec) func(*Ctx, *parse.Command) bool {
	return gitCommandOf(sub, f, func() parse.OptSpec { return spec })
}

// gitCommandOf is gitCommand with the options read on first use (a
// program table row, tableSpec).
func gitCommandOf(sub string, f func(x *Ctx, args *parse.Args) bool, spec func() parse.OptSpec) func(*Ctx, *parse.Command) bool {
	return func(x *Ctx, c *parse.Command) bool {
		s, rest := gitSub(c)
		return s == sub && f(x, parse.ParseArgs(rest, spec()))
	}
}
