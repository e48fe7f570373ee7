package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// rate is bytes per second of wall time, in MB/s (10^6).
func rate(s sample) float64 { return float64(s.bytes) / s.wall.Seconds() / 1e6 }

func rates(ss *series) []float64 {
	out := make([]float64, len(ss.samples))
	for i, s := range ss.samples {
		out[i] = rate(s)
	}
	return out
}

func medianF(xs []float64) float64 {
	ds := make([]time.Duration, len(xs))
	for i, x := range xs {
		ds[i] = time.Duration(x * 1e6)
	}
	return float64(median(ds)) / 1e6
}

// ratios are the per-round ratios a/b.
func ratios(a, b []float64) []float64 {
	out := make([]float64, min(len(a), len(b)))
	for i := range out {
		out[i] = a[i] / b[i]
	}
	return out
}

func printRates(ss []*series, want int64) error {
	rows := [][]string{}
	for _, s := range ss {
		for _, x := range s.samples {
			if x.bytes != want {
				return fmt.Errorf("%s passed %d bytes, want %d", s.v.name, x.bytes, want)
			}
		}
		rss := make([]int64, len(s.samples))
		for i, x := range s.samples {
			rss[i] = x.maxRSS
		}
		rows = append(rows, []string{s.v.name, fmt.Sprintf("%.0f MB/s", medianF(rates(s))),
			ms(median(s.walls()), false), ms(median(s.cpus()), false), mib(medianInt(rss))})
	}
	table([]string{"", "rate median", "wall", "cpu", "max RSS"}, rows)
	return nil
}

func headScript(n int64) string { return fmt.Sprintf("head -c %d /dev/zero", n) }

func pipeThroughput(w *world, s *summary) error {
	n, runs := w.c.pipeBytes, w.c.throughputRuns
	fmt.Printf("\n== pipe mode: %s of output into a pipe the driver drains like cat, %d interleaved runs\n", mib(n), runs)
	script := headScript(n)
	b, g := w.bashV(script), w.guardV("-c", script)
	b.out, g.out = true, true
	b.name, g.name = "bash -c 'head -c N /dev/zero' | cat", "guard-exec -c 'head -c N /dev/zero' | cat"
	f := w.floorV(script)
	f.env = withEnv(f.env, "FLOOR_RELAY=1")
	f.out, f.name = true, "floor relay (splice only) | cat"
	bn, gn := w.bashV(script), w.guardV("-c", script)
	bn.name, gn.name = "bash … > /dev/null", "guard-exec … > /dev/null"
	ss, err := interleave([]*variant{b, g, f, bn, gn}, 1, runs)
	if err != nil {
		return err
	}
	relay := ss[2]
	ss = append(ss[:2], ss[3:]...)
	if err := printRates([]*series{ss[0], ss[1], relay}, n); err != nil {
		return err
	}
	table([]string{"", "wall", "cpu"}, [][]string{
		{bn.name, ms(median(ss[2].walls()), false), ms(median(ss[2].cpus()), false)},
		{gn.name, ms(median(ss[3].walls()), false), ms(median(ss[3].cpus()), false)},
	})
	r := medianF(ratios(rates(ss[1]), rates(ss[0])))
	fr := medianF(ratios(rates(relay), rates(ss[0])))
	fmt.Printf("  guard-exec / bash into a pipe: %.2f× (a bare splice relay: %.2f×)\n", r, fr)
	s.add("pipe mode throughput, guard-exec / bash", fmt.Sprintf("%.2f× (%.0f MB/s)", r, medianF(rates(ss[1]))), "≥ 0.90×", r >= 0.9,
		fmt.Sprintf("bare relay %.2f×", fr))
	return nil
}

func ptyThroughput(w *world, s *summary) error {
	n, runs := w.c.ptyBytes, w.c.throughputRuns
	fmt.Printf("\n== pty mode: %s of output, %d interleaved runs\n", mib(n), runs)
	script := headScript(n)
	b, g := w.bashV(script), w.guardV("-c", script)
	b.tty, g.tty = true, true
	b.name, g.name = "bash on a terminal", "guard-exec on a terminal (pty mode)"
	p := w.guardV("--pty=always", "-c", script)
	p.out, p.name = true, "guard-exec --pty=always into a pipe"
	ss, err := interleave([]*variant{b, g, p}, 1, runs)
	if err != nil {
		return err
	}
	if err := printRates(ss, n); err != nil {
		return err
	}
	r := medianF(ratios(rates(ss[1]), rates(ss[0])))
	fmt.Printf("  on a terminal, guard-exec / bash: %.2f× (two pty hops against one)\n", r)
	pr := medianF(rates(ss[2]))
	s.add("pty mode throughput (into a pipe)", fmt.Sprintf("%.0f MB/s", pr), "≥ 200 MB/s", pr >= 200,
		fmt.Sprintf("on a terminal %.0f MB/s, %.2f× bash", medianF(rates(ss[1])), r))
	return nil
}

func peakRSS(w *world, s *summary) error {
	n := w.c.pipeBytes
	fmt.Printf("\n== peak RSS while passing %s (wait4 ru_maxrss: the largest of guard-exec, bash and head)\n", mib(n))
	script := headScript(n)
	g, p, b := w.guardV("-c", script), w.guardV("--pty=always", "-c", headScript(w.c.ptyBytes)), w.bashV(script)
	g.out, p.out, b.out = true, true, true
	g.name, p.name, b.name = "guard-exec -c 'head …' | cat", "guard-exec --pty=always -c 'head …' | cat", "bash -c 'head …' | cat"
	ss, err := interleave([]*variant{b, g, p}, 0, 2)
	if err != nil {
		return err
	}
	worst := int64(0)
	rows := [][]string{}
	for i, x := range ss {
		var m int64
		for _, y := range x.samples {
			m = max(m, y.maxRSS)
		}
		if i > 0 {
			worst = max(worst, m)
		}
		rows = append(rows, []string{x.v.name, mib(m)})
	}
	table([]string{"", "max RSS"}, rows)
	s.add("peak RSS of guard-exec", mib(worst), "< 30 MiB", worst < 30<<20, "")
	return nil
}

// withEnv returns env with each KEY=VALUE of kv set, replacing an earlier
// value: a duplicate key would be read differently by different programs.
func withEnv(env []string, kv ...string) []string {
	out := make([]string, 0, len(env)+len(kv))
	keys := map[string]bool{}
	for _, x := range kv {
		keys[key(x)] = true
	}
	for _, x := range env {
		if !keys[key(x)] {
			out = append(out, x)
		}
	}
	return append(out, kv...)
}

func key(kv string) string {
	for i := 0; i < len(kv); i++ {
		if kv[i] == '=' {
			return kv[:i]
		}
	}
	return kv
}

func writeFile(path, body string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(body), 0o644)
}
