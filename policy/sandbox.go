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
	again := h.Rule.matches(x, c)
	x.confined = false
	if !again {
		h.Severity, h.Bounded = Warn, true
	}
	return h
}

// boundedScript is bounded for a Script rule: a Bounded script rule holds
// only for a place that is unknown (a write to a computed path), which is
// exactly what the kernel sandbox confines to the write roots, with the
// guard's own files and the git hooks and config kept read-only inside
// them; so under the sandbox its hold is a warning.
func (x *Ctx) boundedScript(h Hit) Hit {
	if x.Sandboxed && h.Rule.Bounded && h.Severity >= Hold && h.Severity != Deny {
		h.Severity, h.Bounded = Warn, true
	}
	return h
}
