package sandbox

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Mode is how much the kernel bounds a command.
type Mode uint8

const (
	Off    Mode = iota // no sandbox
	Write              // writes only inside the write roots
	Strict             // Write, and no network
)

var modeNames = [...]string{"off", "write", "strict"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("mode(%d)", m)
}

// ParseMode reads "off", "write" or "strict".
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if strings.EqualFold(s, n) {
			return Mode(i), nil
		}
	}
	return Off, fmt.Errorf("%q is not off, write or strict", s)
}

// Spec is the boundary one command runs in.
type Spec struct {
	Mode Mode
	// WriteRoots are the directories (or files) the command may create,
	// change and delete things in; everything else is read-only to it.
	// Missing ones are skipped.
	WriteRoots []string
	// Protected are paths that stay read-only even inside a write root
	// (the ledger, the git hooks and config, agent settings). Those
	// outside every root are already read-only and cost nothing; those
	// inside are bound read-only in a mount namespace of the command's own
	// when one can be made (see Coverage). Missing ones are skipped: Guard
	// reports them with Appeared afterwards.
	Protected []string
	// Live are protected paths that other processes write while the
	// command runs (the ledger): bound read-only where possible, never
	// journaled, since putting back an old copy would lose their records.
	Live []string
	// NoMountNamespace forbids the mount namespace (tests of the
	// fallback); Protected paths inside the roots are then journaled.
	NoMountNamespace bool

	real    []string // WriteRoots resolved (realRoots)
	cleaned bool     // WriteRoots are clean (cleanRoots)
}

// Coverage says what a started command was bounded by.
type Coverage struct {
	ABI        int  // the kernel's Landlock ABI (0: none)
	Landlock   bool // the ruleset is in force
	Seatbelt   bool // macOS: the command runs under sandbox-exec with SeatbeltProfile's profile
	MountNS    bool // protected paths inside the roots are read-only binds
	NetNS      bool // strict: the command has a network namespace of its own (no UDP, no unix sockets by name elsewhere)
	TCPDenied  bool // strict: Landlock denies TCP connect and bind
	Bound      []string
	NotExisted []string // protected paths that did not exist when the command started
}

// cleanRoots cleans WriteRoots in place, once, so paths compare with them
// by prefix.
func (s *Spec) cleanRoots() {
	if s.cleaned {
		return
	}
	for i, r := range s.WriteRoots {
		s.WriteRoots[i] = filepath.Clean(r)
	}
	s.cleaned = true
}
