package main

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/guard-exec/guard-exec/internal/paths"
)

// confined reports whether Seatbelt bounds this process already. macOS
// has no flag to read without cgo (sandbox_check is in libsystem), so it
// asks the kernel by a write the profile refuses: guard-exec's state
// directory is protected from every sandboxed command, and Seatbelt
// refuses with EPERM where the file system would say EACCES or nothing.
// Outside a sandbox the probe file is made and removed at once.
func confined(g *guard) bool {
	dir := paths.StateDir(g.getenv)
	if dir == "" {
		return false
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return errors.Is(err, syscall.EPERM)
	}
	probe := filepath.Join(dir, ".confined-"+strconv.Itoa(os.Getpid()))
	f, err := os.OpenFile(probe, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return errors.Is(err, syscall.EPERM)
	}
	f.Close()
	os.Remove(probe)
	return false
}
