// Command benchdriver measures guard-exec against bare bash and prints the
// figures of SPEC §8 side by side with their targets. scripts/bench.sh
// builds it and the programs it times; run that, not this.
//
// Every figure comes from many runs interleaved round-robin (bash, the
// floor, guard-exec, bash, …) so that the machine's load drifts over all of
// them alike, and is reported as a median (and p90). Two clocks are shown:
// wall time, which the targets are stated in, and CPU time (user+system of
// the process and the children it waited for, from wait4's rusage), which
// stays meaningful when other work shares the machine. Differences are
// medians of per-round differences.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

type config struct {
	guard, floor, cmdTest, root string
	compare                     string // a second guard-exec build timed beside the first (start-up only)
	plain                       string // a plain `go build` (cgo as the toolchain defaults), timed beside the static one
	floorDeps                   string // the floor with guard-exec's packages linked in (scripts/floor/deps.go)
	quick, full                 bool
	rounds                      int
	only                        map[string]bool
	pipeBytes, ptyBytes         int64
	throughputRuns              int
	batchLines                  int
	ledgerRecords               int
	keep                        bool
}

func main() {
	var c config
	var only string
	flag.StringVar(&c.guard, "guard", "", "guard-exec binary (built with CGO_ENABLED=0)")
	flag.StringVar(&c.floor, "floor", "", "the floor program (scripts/floor)")
	flag.StringVar(&c.compare, "compare", "", "another guard-exec build to time beside -guard in the start-up section (A/B of a change)")
	flag.StringVar(&c.floorDeps, "floordeps", "", "the floor built with -tags floordeps (guard-exec's packages linked and initialised, nothing more), timed in the start-up section")
	flag.StringVar(&c.plain, "plain", "", "guard-exec built by a plain `go build` (default cgo setting), timed beside -guard in the start-up section")
	flag.StringVar(&c.cmdTest, "cmdtest", "", "test binary of cmd/guard-exec, for the in-process check figures (optional)")
	flag.StringVar(&c.root, "root", ".", "the repository's top directory (for testdata/corpus)")
	flag.BoolVar(&c.quick, "quick", false, "fewer runs and smaller streams: about a minute")
	flag.BoolVar(&c.full, "full", false, "more runs and the full 500 MiB streams")
	flag.IntVar(&c.rounds, "rounds", 0, "interleaved rounds for the start-up figures (default 150; quick 40, full 400)")
	flag.StringVar(&only, "only", "", "comma-separated sections: startup,stages,git,check,inproc,batch,pipe,pty,ledger,rss,sandbox")
	flag.BoolVar(&c.keep, "keep", false, "keep the scratch directory and print its path")
	flag.Parse()
	if c.guard == "" || c.floor == "" {
		fmt.Fprintln(os.Stderr, "benchdriver: -guard and -floor are required (run scripts/bench.sh)")
		os.Exit(2)
	}
	c.defaults()
	if only != "" {
		c.only = map[string]bool{}
		for _, s := range strings.Split(only, ",") {
			c.only[strings.TrimSpace(s)] = true
		}
	}
	if err := runAll(&c); err != nil {
		fmt.Fprintln(os.Stderr, "benchdriver:", err)
		os.Exit(1)
	}
}

func (c *config) defaults() {
	c.guard, _ = filepath.Abs(c.guard)
	c.floor, _ = filepath.Abs(c.floor)
	if c.cmdTest != "" {
		c.cmdTest, _ = filepath.Abs(c.cmdTest)
	}
	if c.compare != "" {
		c.compare, _ = filepath.Abs(c.compare)
	}
	if c.floorDeps != "" {
		c.floorDeps, _ = filepath.Abs(c.floorDeps)
	}
	if c.plain != "" {
		c.plain, _ = filepath.Abs(c.plain)
	}
	c.root, _ = filepath.Abs(c.root)
	rounds, mb, runs, lines := 150, int64(500), 5, 50_000
	ptyMB := int64(200)
	switch {
	case c.quick:
		rounds, mb, ptyMB, runs, lines = 40, 200, 100, 3, 20_000
	case c.full:
		rounds, ptyMB, runs, lines = 400, 500, 7, 100_000
	}
	if c.rounds <= 0 {
		c.rounds = rounds
	}
	c.pipeBytes, c.ptyBytes, c.throughputRuns, c.batchLines = mb<<20, ptyMB<<20, runs, lines
	c.ledgerRecords = 100_000
}

func (c *config) want(section string) bool { return c.only == nil || c.only[section] }

func runAll(c *config) error {
	w, err := newWorld(c)
	if err != nil {
		return err
	}
	if c.keep {
		fmt.Println("scratch directory:", w.tmp)
	} else {
		defer os.RemoveAll(w.tmp)
	}
	fmt.Printf("guard-exec bench: %s %s/%s, %d CPUs, load %s; mode %s\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), loadAvg(), c.modeName())
	fmt.Printf("  wall = elapsed time; cpu = user+system of the process and the children it waited for (wait4 rusage)\n")
	fmt.Printf("  medians of interleaved runs; differences are medians of per-round differences\n")
	sections := []struct {
		name string
		fn   func(*world, *summary) error
	}{
		{"startup", startup}, {"stages", stages}, {"git", gitStatus}, {"check", checkProcess}, {"inproc", inProcess},
		{"batch", batch}, {"pipe", pipeThroughput}, {"pty", ptyThroughput}, {"ledger", ledgerGrowth}, {"rss", peakRSS},
		{"sandbox", sandboxCost},
	}
	sum := &summary{}
	for _, s := range sections {
		if !c.want(s.name) {
			continue
		}
		t := time.Now()
		if err := s.fn(w, sum); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		fmt.Printf("  (%s took %.1fs)\n", s.name, time.Since(t).Seconds())
	}
	sum.print()
	return nil
}

func (c *config) modeName() string {
	switch {
	case c.quick:
		return "quick"
	case c.full:
		return "full"
	}
	return "default"
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// summary collects the figures that have a SPEC §8 target.
type summary struct{ rows []row }

type row struct {
	what, figure, target, status string
}

func (s *summary) add(what, figure, target string, ok bool, extra string) {
	st := "ok"
	if !ok {
		st = "MISSED"
	}
	if extra != "" {
		st += " (" + extra + ")"
	}
	s.rows = append(s.rows, row{what, figure, target, st})
}

func (s *summary) print() {
	if len(s.rows) == 0 {
		return
	}
	fmt.Println()
	fmt.Println("== SPEC §8 targets")
	wa, wf, wt := len("measure"), len("figure"), len("target")
	for _, r := range s.rows {
		wa, wf, wt = max(wa, len(r.what)), max(wf, runeLen(r.figure)), max(wt, runeLen(r.target))
	}
	line := func(a, f, t, st string) {
		fmt.Printf("  %-*s  %s%*s  %s%*s  %s\n", wa, a, f, wf-runeLen(f), "", t, wt-runeLen(t), "", st)
	}
	line("measure", "figure", "target", "status")
	for _, r := range s.rows {
		line(r.what, r.figure, r.target, r.status)
	}
}

func runeLen(s string) int { return len([]rune(s)) }

// table prints aligned rows under a header.
func table(header []string, rows [][]string) {
	w := make([]int, len(header))
	for i, h := range header {
		w[i] = runeLen(h)
	}
	for _, r := range rows {
		for i, c := range r {
			w[i] = max(w[i], runeLen(c))
		}
	}
	pr := func(cells []string) {
		var b strings.Builder
		b.WriteString(" ")
		for i, c := range cells {
			pad := w[i] - runeLen(c)
			if i == 0 || header[i] == "" {
				b.WriteString(" " + c + strings.Repeat(" ", pad))
			} else {
				b.WriteString("  " + strings.Repeat(" ", pad) + c)
			}
		}
		fmt.Println(strings.TrimRight(b.String(), " "))
	}
	pr(header)
	for _, r := range rows {
		pr(r)
	}
}
