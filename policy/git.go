package policy

import (
	"github.com/guard-exec/guard-exec/parse"
)

// gitRow matches a git command read with the program table's row (row
// is "git push", "git reset"): the row's flags and operands are the facts
// f judges.
func gitRow(row string, f func(x *Ctx, c *parse.Command) bool) func(*Ctx, *parse.Command) bool {
	return func(x *Ctx, c *parse.Command) bool { return c.Row == row && f(x, c) }
}
