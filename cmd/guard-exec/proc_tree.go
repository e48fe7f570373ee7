//go:build linux || darwin

package main

// breadthFirst lists the living processes below pid, children first, as
// children gives each process's own (at most 4096: a bound, not a
// process count anyone reaches).
func breadthFirst(pid int, children func(p int) []procKey) []procKey {
	var out []procKey
	seen := map[int]bool{pid: true}
	queue := []int{pid}
	for len(queue) > 0 && len(out) < 4096 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children(p) {
			if !seen[c.pid] {
				seen[c.pid] = true
				out = append(out, c)
				queue = append(queue, c.pid)
			}
		}
	}
	return out
}
