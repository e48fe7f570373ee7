package shim

import (
	"io"
	"os"
	"syscall"
)

// Background processes that still hold the command's stdout or stderr pipe once
// the command has exited (`server &`, `(sleep 1; echo late) &`) must go on
// writing to the caller, and the caller must see end of file when the last of
// them closes it, as under bash; but the guard itself must finish when the
// command does, or `guard-exec -c 'server &'` would never return. So after
// OutputGrace the guard hands the rest of the stream to a relay: a copy of
// guard-exec started as `guard-exec __relay`, with the pipe as its stdin and the
// caller's destination as its stdout, which copies until end of file and exits.
// The digest covers what came before the handover (the Result is Incomplete).

// RelayArg is the only argument of guard-exec started as a relay. A program that
// embeds the shim calls RelayMain first thing when it sees it.
const RelayArg = "__relay"

// relayExe is the program started as the relay: this one.
var relayExe = os.Executable

// RelayMain copies stdin to stdout until end of file and returns the exit status.
// A stdout whose reader went away ends it by SIGPIPE (the Go runtime's own
// behaviour on descriptor 1), and the writers upstream then get EPIPE, as they
// would have writing to the caller's pipe themselves.
func RelayMain() int {
	if _, err := io.Copy(os.Stdout, os.Stdin); err != nil {
		return 1
	}
	return 0
}

// handOff starts the relay for the rest of the copier's stream. It reports
// whether one runs.
func (c *copier) handOff() bool {
	exe, err := relayExe()
	if err != nil || c.dst == nil {
		return false
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		return false
	}
	defer null.Close()
	p, err := os.StartProcess(exe, []string{"guard-exec", RelayArg}, &os.ProcAttr{
		Dir:   "/",
		Env:   []string{},
		Files: []*os.File{c.r, c.dst, null},
		Sys:   &syscall.SysProcAttr{},
	})
	if err != nil {
		return false
	}
	_ = p.Release() // it outlives the guard; its parent becomes whoever reaps orphans
	return true
}
