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

// gitRow matches a git command read with the program table's row (row
// is "git push", "git reset"): the row's flags and operands are the facts
// f judges.
func gitRow(row string, f func(x *Ctx, c *parse.Command) bool) func(*Ctx, *parse.Command) bool {
	return func(x *Ctx, c *parse.Command) bool { return c.Row == row && f(x, c) }
}
