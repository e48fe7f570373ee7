package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/guard-exec/guard-exec/internal/paths"
)

// The lineage of guarded commands. A process a guarded command starts is
// below its guard (nest.go) only while the guard runs: a double fork or
// `setsid` and the guard's end reparent it to PID 1, so that its
// ancestors no longer show where it came from. The guard makes
// itself a child subreaper while the command runs (PR_SET_CHILD_SUBREAPER):
// whatever the command orphans is reparented to the guard instead of PID 1.
// When the command ends, the guard writes the processes still under it
// (pid and start time, with the command's record id) to the lineage file
// in the user's state directory, which guarded commands may not write.
// approve treats a process in that file, and everything below it, like a
// process below a guard. Nothing is written when the command
// leaves nothing behind, the usual case, which costs a prctl and a waitid.
//
// A process listed here that forks again after its guard has ended can
// still leave a child that PID 1 adopts and nothing lists; the kernel
// sandbox, which keeps the user's key from every such process, closes that.

// procKey names a process for as long as it lives: a pid is reused, a pid
// with its start time (clock ticks after boot) is not.
type procKey struct {
	pid   int
	start uint64
}

// recordLineage writes what the command with record id left running under
// the guard to the lineage file, dropping entries of processes that have
// ended. It is called after the command has ended.
// With a keeper (keeper_linux.go) what is left is what the command's
// cgroup holds.
func (g *guard) recordLineage(id string, k *keeper) {
	var left []procKey
	if k.inCgroup() {
		left = k.left()
	} else {
		if !hasChildren() {
			return // the usual case: the command left nothing running
		}
		for _, p := range descendants(os.Getpid()) {
			if p.pid != k.pid() {
				left = append(left, p)
			}
		}
	}
	if len(left) == 0 {
		return
	}
	file := paths.LineageFile(g.getenv)
	if file == "" || os.MkdirAll(filepath.Dir(file), 0o700) != nil {
		return
	}
	f, err := os.OpenFile(file, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	if unix.Flock(int(f.Fd()), unix.LOCK_EX) != nil {
		return
	}
	old, _ := readLineage(f)
	var b bytes.Buffer
	for _, l := range old {
		if st, ok := startTicks(l.key.pid); ok && st == l.key.start {
			fmt.Fprintf(&b, "%d %d %s\n", l.key.pid, l.key.start, l.id)
		}
	}
	for _, k := range left {
		fmt.Fprintf(&b, "%d %d %s\n", k.pid, k.start, id)
	}
	if f.Truncate(0) == nil {
		_, _ = f.WriteAt(b.Bytes(), 0)
	}
}

type lineageEntry struct {
	key procKey
	id  string
}

func readLineage(f *os.File) ([]lineageEntry, error) {
	if _, err := f.Seek(0, 0); err != nil {
		return nil, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return nil, err
	}
	b := make([]byte, min(st.Size, 1<<20))
	n, _ := f.ReadAt(b, 0)
	var out []lineageEntry
	for _, line := range strings.Split(string(b[:n]), "\n") {
		fs := strings.Fields(line)
		if len(fs) != 3 {
			continue
		}
		pid, err1 := strconv.Atoi(fs[0])
		start, err2 := strconv.ParseUint(fs[1], 10, 64)
		if err1 == nil && err2 == nil {
			out = append(out, lineageEntry{procKey{pid, start}, fs[2]})
		}
	}
	return out, nil
}

// guardedProcs is the set approve checks against: the living processes
// the lineage file lists, with the record id of the command that left
// each. Empty when there is no file.
func guardedProcs(getenv func(string) string) map[procKey]string {
	out := map[procKey]string{}
	file := paths.LineageFile(getenv)
	if file == "" {
		return out
	}
	f, err := os.Open(file)
	if err != nil {
		return out
	}
	defer f.Close()
	entries, _ := readLineage(f)
	for _, e := range entries {
		out[e.key] = e.id
	}
	return out
}
