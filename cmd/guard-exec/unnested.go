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

// maxUnnested bounds the file: a line that would go past it empties it first.
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
// interleave. A file grown past its bound is emptied first: the parents
// it named walk once more. Failures are ignored: the next guard walks
// again.
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
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) == nil && st.Size+int64(len(u.key))+1 > maxUnnested {
		_ = syscall.Ftruncate(fd, 0)
	}
	_, _ = syscall.Write(fd, []byte(u.key+"\n"))
}
