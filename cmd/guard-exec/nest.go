package main

import (
	"os"
	"strings"

	"github.com/guard-exec/guard-exec/policy"
)

// Nesting without a mark. A guard started inside a guarded command (a
// script's bash through the PATH shim, a guard-exec a command runs) is a
// nested guard: it records which command it runs inside, stays quiet about
// what the guard around it says already, leaves the loop brake to that
// guard, and, inside a sandboxed command, knows it is bounded already. It
// used to learn this from a variable the guard put in every command's
// environment (GUARD_EXEC_PARENT, GUARD_EXEC_SANDBOX): a difference from
// bash that `env` showed, that test suites compared and that any command
// could set, to quiet a guard and lift its brake. Now the command's
// environment is the caller's, and a guard announces itself on its own
// process instead, while its command runs (nest_linux.go, nest_darwin.go):
// the command's ledger id and the sandbox mode it runs under. A guard
// looks for the nearest announcing ancestor; everything a command starts
// stays below its guard while the command runs, since the guard is a
// child subreaper (lineage.go). What the command left running after its
// guard ended finds no guard above it: a guard started there is a guard
// of its own (inside the kernel sandbox it still cannot write the ledger,
// and says so: cannotRecord).

// outerGuard is the guard a nested guard runs inside.
type outerGuard struct {
	pid     int
	id      string             // the ledger id of the command it runs
	sandbox policy.SandboxMode // what that command runs under
}

// announcement is what a guard says about the command it runs: "ID:MODE".
func announcement(id string, mode policy.SandboxMode) string {
	return announcePrefix + id + ":" + mode.String()
}

// announcePrefix begins every announcement.
const announcePrefix = "guard-exec:"

// parseAnnouncement reads an announcement back.
func parseAnnouncement(pid int, s string) *outerGuard {
	rest, ok := strings.CutPrefix(s, announcePrefix)
	if !ok {
		return nil
	}
	id, mode, ok := strings.Cut(rest, ":")
	if !ok || !strings.HasPrefix(id, "ev-") {
		return nil
	}
	m, err := policy.ParseSandboxMode(mode)
	if err != nil {
		m = policy.SandboxOff
	}
	return &outerGuard{pid: pid, id: id, sandbox: m}
}

// findOuter walks up from this process's parent to the nearest guard
// whose announcement it believes. An ancestor known to run one thread is
// passed over without a look at its announcement: a guard is a Go
// program, which runs more than one from its start (the runtime's
// monitor thread never ends), and only a guard running this executable is
// believed.
func findOuter() *outerGuard {
	o, _ := walkToOuter()
	return o
}

// walkToOuter is findOuter's walk; alone reports whether no process on the
// way up could ever be a guard: none runs this executable with more than
// one thread. Only then does the answer hold for as long as the parent
// lives: the processes above a living one stay what they are (an orphaned
// one is adopted by a subreaper above it, never by a stranger), and one
// that could be a guard may start announcing later — an interactive
// guard between two of its commands, whose background job started this
// one.
func walkToOuter() (o *outerGuard, alone bool) {
	pid := os.Getppid()
	alone = true
	for range 64 {
		if pid <= 1 {
			return nil, alone
		}
		next, threads, ok := ancestorOf(pid)
		if threads != 1 {
			if o := believed(pid); o != nil {
				return o, false
			}
			alone = alone && !mayBeGuard(pid)
		}
		if !ok {
			return nil, alone
		}
		pid = next
	}
	return nil, false
}

// outer is the guard this one runs inside; nil for a guard of its own.
// Found once, and remembered for the parent when no process above could
// ever be a guard (unnested.go): an agent's commands all have the agent
// for their parent, and each would walk the same way up to PID 1.
func (g *guard) outer() *outerGuard {
	if !g.outerDone {
		g.outerDone = true
		u := g.unnestedCache()
		if u.holds() {
			return nil
		}
		o, alone := walkToOuter()
		if o == nil && alone {
			u.add()
		}
		g.outerVal = o
	}
	return g.outerVal
}

// nested reports whether this guard runs inside a guarded command.
func (g *guard) nested() bool { return g.outer() != nil }

// parentID is the ledger id of the command this guard runs inside.
func (g *guard) parentID() string {
	if o := g.outer(); o != nil {
		return o.id
	}
	return ""
}

// outerSandboxed reports whether the guard around this one runs its
// command in a sandbox: guard-exec's own files are read-only here.
func (g *guard) outerSandboxed() bool {
	if o := g.outer(); o != nil {
		return o.sandbox != policy.SandboxOff
	}
	return g.hookSandbox != policy.SandboxOff
}
