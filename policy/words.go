package policy

import (
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// Small helpers over a command's words, shared by the rule tables.

// leadingOperands returns the values of the first n operands the
// command's row gave no role but data (a subcommand path: aws SERVICE
// OPERATION, gcloud GROUP… delete), fewer when there are fewer.
func leadingOperands(c *parse.Command, n int) []string {
	var out []string
	for _, w := range c.Operands(parse.RoleData) {
		if len(out) == n {
			break
		}
		out = append(out, w.Value)
	}
	return out
}

// first returns the first of vals, or "".
func first(vals []string) string {
	if len(vals) == 0 {
		return ""
	}
	return vals[0]
}

func isPython(name string) bool {
	if name == "python" || name == "python2" || name == "python3" || name == "pypy" || name == "pypy3" {
		return true
	}
	// python3.12 and the like
	return strings.HasPrefix(name, "python3.") && strings.Trim(name[len("python3."):], "0123456789") == ""
}

// pythons are the interpreter names rules index python -m under.
var pythons = []string{"python", "python2", "python3", "pypy", "pypy3",
	"python3.8", "python3.9", "python3.10", "python3.11", "python3.12", "python3.13", "python3.14"}

// envValue returns a variable as the command sees it: its own prefix
// assignment, else one the program runner that started it was given
// (NODE_ENV=test npx prisma …), else the caller's environment.
func (x *Ctx) envValue(c *parse.Command, name string) string {
	for _, a := range c.Assigns {
		if a.Name == name {
			return a.Value.Value
		}
	}
	for i := len(c.Inherited) - 1; i >= 0; i-- {
		if c.Inherited[i].Name == name {
			return c.Inherited[i].Value.Value
		}
	}
	return x.Env[name]
}

// withPrograms joins program lists for a Programs field.
func withPrograms(lists ...[]string) []string {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	out := make([]string, 0, n) // one allocation: rule tables call it at start-up
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}
