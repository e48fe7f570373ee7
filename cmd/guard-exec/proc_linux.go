package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Processes as Linux's /proc shows them: what the keeper, the lineage and
// approve read of the process tree (proc_darwin.go has macOS's).

// startTicks is when a process started, in clock ticks after boot.
func startTicks(pid int) (uint64, bool) {
	f, ok := statField(pid, statStartTime)
	if !ok {
		return 0, false
	}
	t, err := strconv.ParseUint(f, 10, 64)
	return t, err == nil
}

// descendants lists the living processes below pid, children first.
func descendants(pid int) []procKey {
	return breadthFirst(pid, func(p int) []procKey {
		var out []procKey
		tasks, _ := os.ReadDir("/proc/" + strconv.Itoa(p) + "/task")
		for _, t := range tasks {
			b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p), "task", t.Name(), "children"))
			if err != nil {
				continue
			}
			for _, f := range strings.Fields(string(b)) {
				if c, err := strconv.Atoi(f); err == nil {
					if st, ok := startTicks(c); ok {
						out = append(out, procKey{c, st})
					}
				}
			}
		}
		return out
	})
}

// running reports whether p is still the process it names and not a
// zombie (dead already, waiting for its parent).
func running(p procKey) bool {
	stat, ok := readProcStat(p.pid)
	if !ok {
		return false
	}
	i := strings.LastIndexByte(stat, ')')
	if i < 0 || strings.HasPrefix(strings.TrimLeft(stat[i+1:], " "), "Z") {
		return false
	}
	t, ok := nthField(stat[i+1:], statStartTime)
	st, err := strconv.ParseUint(t, 10, 64)
	return ok && err == nil && st == p.start
}
