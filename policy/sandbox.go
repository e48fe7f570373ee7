package policy

import "github.com/guard-exec/guard-exec/parse"

// bounded lowers a hold of a Bounded rule to a warning when the command
// runs under the kernel sandbox and the hold is there only because a
// place is unknown: judged again with every unknown place taken as inside
// the roots (where the kernel keeps the command's writes), the rule no
// longer matches. A place that is known to be bad (rm -rf ~, rm -rf
// "$HOME/$X") keeps its hold: the sandbox would refuse it, but the agent
// should hear so before, not from a failed command.
func (x *Ctx) bounded(h Hit, c *parse.Command) Hit {
	if !x.Sandboxed || !h.Rule.Bounded || h.Severity < Hold || h.Severity == Deny || x.confined {
		return h
	}
	x.confined = true
	again := h.Rule.Command(x, c)
	x.confined = false
	if !again {
		h.Severity, h.Bounded = Warn, true
	}
	return h
}
