package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/guard-exec/guard-exec/internal/rawread"
)

// The walk to an outer guard (findOuter) reads the /proc stat of every
// process up to PID 1, about 10 µs a process here, and an agent's
// commands all have the agent for their parent: each would walk the same
// way. When a walk finds no guard and no process on the way that could
// ever be one (walkToOuter's alone), the parent, named by its pid and
// start time, is written to a small file in the cache directory, and
// the next guard with that parent reads the file instead of walking. The
// answer cannot go stale while the parent lives; a reused pid has
// another start time. Only "no guard above" is remembered: a guard above
// may end, and a line that claimed one would lift the loop brake. A line
// put there by hand makes a guard take itself for one of its own, the
// stricter side (it brakes loops, prints its warnings; inside a sandbox
// it cannot write its ledger and says so), and inside a sandboxed
// command the cache directory cannot be written.

// unnestedName is the file in the cache directory.
const unnestedName = "unnested"

// maxUnnested bounds the file: past it, the older half is dropped.
const maxUnnested = 4 << 10

// unnested is this guard's parent's line in the file.
type unnested struct {
	path string // "" when there is no cache directory
	key  string // "PID START"; "" when the start time is not known
}

func (g *guard) unnestedCache() unnested {
	ppid := os.Getppid()
	start := procStart(ppid) // the session's read of the parent's stat
	if ppid <= 1 || start == "0" {
		return unnested{}
	}
	return unnested{path: g.cachePath(unnestedName), key: strconv.Itoa(ppid) + " " + start}
}

// holds reports whether the file names the parent.
func (u unnested) holds() bool {
	if u.path == "" || u.key == "" {
		return false
	}
	b, err := rawread.File(u.path, syscall.O_NOFOLLOW, maxUnnested)
	if err != nil {
		return false
	}
	for len(b) > 0 {
		line, rest, _ := bytes.Cut(b, []byte("\n"))
		if string(line) == u.key {
			return true
		}
		b = rest
	}
	return false
}

// add appends the parent's line, one write that concurrent guards cannot
// interleave, and halves the file when it has grown past its bound.
// Failures are ignored: the next guard walks again.
func (u unnested) add() {
	if u.path == "" || u.key == "" {
		return
	}
	flags := syscall.O_WRONLY | syscall.O_APPEND | syscall.O_CREAT | syscall.O_NOFOLLOW | syscall.O_CLOEXEC
	fd, err := syscall.Open(u.path, flags, 0o600)
	if err == syscall.ENOENT {
		if os.MkdirAll(filepath.Dir(u.path), 0o700) != nil {
			return
		}
		fd, err = syscall.Open(u.path, flags, 0o600)
	}
	if err != nil {
		return
	}
	_, err = syscall.Write(fd, []byte(u.key+"\n"))
	var st syscall.Stat_t
	grown := err == nil && syscall.Fstat(fd, &st) == nil && st.Size > maxUnnested
	syscall.Close(fd)
	if grown {
		u.halve()
	}
}

// halve keeps the newer half of the lines, replacing the file whole.
func (u unnested) halve() {
	b, err := rawread.File(u.path, syscall.O_NOFOLLOW, 4*maxUnnested)
	if err != nil {
		return
	}
	keep := b[len(b)/2:]
	if i := bytes.IndexByte(keep, '\n'); i >= 0 {
		keep = keep[i+1:]
	}
	tmp := u.path + "." + strconv.Itoa(os.Getpid())
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return
	}
	_, err = f.Write(keep)
	if cerr := f.Close(); err != nil || cerr != nil || os.Rename(tmp, u.path) != nil {
		_ = os.Remove(tmp)
	}
}
