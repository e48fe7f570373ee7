//go:build !linux

package main

import (
	"errors"
	"net"
	"os"
)

// canSupervise: only Landlock restricts a single thread, which lets the
// guard stay outside its shell's sandbox. Under Seatbelt the interactive
// shell replaces the guard, and its lines are judged but not recorded.
func canSupervise(*sandboxRun) bool { return false }

func peerIsHook(*net.UnixConn, int) bool { return false }

func (g *guard) superviseShell(*sandboxRun, *shellRecorder, string, []string, *os.File) error {
	return errors.New("the interactive shell cannot be supervised here")
}
