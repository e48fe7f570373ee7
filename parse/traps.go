package parse

import "strings"

// Traps of the script's own shell. `trap CODE EXIT` runs CODE when the
// shell exits, and a signal's trap when the signal arrives: with the
// values variables have then, not when the trap was set. bats sets its
// EXIT trap before it names its output file (`trap teardown EXIT;
// BATS_OUT=$dir/suite.out`, the trap's code `teardown >>"$BATS_OUT"`), and
// a script commonly sets `trap cleanup EXIT INT TERM` at its top, before
// the variables cleanup uses. So the code of such a trap is analysed once
// the script has been walked, with the state merged from every place the
// shell exits: each `exit` reached after a trap was set, and the end of
// the script. A value a variable holds only between those places, when
// `set -e` or a signal could end the shell, is not seen; the kernel
// sandbox bounds what such a trap can change. Traps of DEBUG, RETURN and
// ERR, which run at each command, and traps set in a subshell or in code
// run by eval are analysed where they are set.

// exitTraps is what one shell's frames share: the traps waiting for its
// exit.
type exitTraps struct {
	pending []*pendingTrap
}

type pendingTrap struct {
	fr   frame // the frame the trap was set in, for positions and context
	c    *Command
	code arg
	at   *state // merged states at the exits seen after it was set
}

// deferTrap keeps the trap of code for the script's exit when every
// condition it is set for is the exit or a signal, and reports whether it
// did.
func (fr *frame) deferTrap(c *Command, code arg, conds []arg) bool {
	if fr.exits == nil || fr.r.quiet > 0 {
		return false
	}
	for _, a := range conds {
		if a.Dynamic || !exitOrSignal(a.Value) {
			return false
		}
	}
	fr.exits.pending = append(fr.exits.pending, &pendingTrap{fr: *fr, c: c, code: code})
	return true
}

// exitOrSignal reports whether a trap condition is EXIT or a signal (a
// name with or without SIG, in any case, or a number), not DEBUG,
// RETURN or ERR.
func exitOrSignal(v string) bool {
	u := strings.ToUpper(v)
	switch strings.TrimPrefix(u, "SIG") {
	case "DEBUG", "RETURN", "ERR", "":
		return false
	}
	return true
}

// exited records the state at an exit of the shell, for the traps set
// before it.
func (fr *frame) exited() {
	x := fr.exits
	if x == nil || fr.r.quiet > 0 || fr.st.dead {
		return
	}
	for _, p := range x.pending {
		if p.at == nil {
			p.at = fr.st.clone()
		} else {
			p.at.merge(fr.st)
		}
	}
}

// runExitTraps analyses the waiting traps once the script has been walked.
func (fr *frame) runExitTraps() {
	x := fr.exits
	if x == nil || len(x.pending) == 0 {
		return
	}
	fr.exited() // the end of the script, unless it ended in an exit
	pending := x.pending
	fr.exits = nil
	for _, p := range pending {
		f := p.fr
		f.exits = nil
		if f.st = p.at; f.st == nil { // no way out was seen alive
			f.st = fr.st.clone()
			f.st.dead = false
		}
		f.nestedText(p.c, p.code, "trap")
	}
}
