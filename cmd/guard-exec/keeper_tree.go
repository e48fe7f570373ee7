//go:build linux || darwin

package main

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// keepTree is the keeper's watch over a process tree while its guard
// lives: it looks at what runs below root when it starts and again every
// treeLook, and keeps each process it saw (with more's, when more is not
// nil). When root is gone the guard's byte or end of file is on its way;
// at end of file without the byte the guard died, and everything seen
// that still runs is killed, with what is below it.
func keepTree(root procKey, ended <-chan bool, more func(seen map[procKey]bool)) {
	seen := map[procKey]bool{}
	look := func() {
		for _, p := range descendants(root.pid) {
			if p.pid != os.Getpid() {
				seen[p] = true
			}
		}
		if more != nil {
			more(seen)
		}
	}
	for n := 0; ; n++ {
		if st, ok := startTicks(root.pid); !ok || st != root.start {
			break
		}
		look()
		select {
		case normal := <-ended:
			if !normal {
				look()
				killTree(seen)
			}
			return
		case <-time.After(treeLook(n)):
		}
	}
	if !<-ended {
		if more != nil {
			more(seen)
		}
		killTree(seen)
	}
}

// treeLook is how long the keeper waits before its next look at the
// guard's tree: 10 ms at first, doubling to a second. A look reads two
// small files per process of the tree.
func treeLook(n int) time.Duration {
	d := 10 * time.Millisecond << min(n, 7)
	return min(d, time.Second)
}

// killTree kills the processes of a dead guard's tree that still run (the
// same pid and start time) and everything below them: each round stops
// them first, so that none forks while what is below it is found, then
// kills them all; until a round finds none, or ten seconds have passed.
func killTree(seen map[procKey]bool) {
	me := os.Getpid()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var live []procKey
		for p := range seen {
			if p.pid != me && running(p) {
				live = append(live, p)
			} else {
				delete(seen, p)
			}
		}
		if len(live) == 0 {
			return
		}
		for _, p := range live {
			_ = unix.Kill(p.pid, unix.SIGSTOP)
		}
		for _, p := range live {
			for _, c := range descendants(p.pid) {
				if c.pid != me && !seen[c] {
					seen[c] = true
					_ = unix.Kill(c.pid, unix.SIGSTOP)
				}
			}
		}
		for p := range seen {
			if running(p) {
				_ = unix.Kill(p.pid, unix.SIGKILL)
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
}
