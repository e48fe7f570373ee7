package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/guard-exec/guard-exec/internal/corpus"
	"github.com/guard-exec/guard-exec/ledger"
)

// batch times check --json --batch over the corpus, repeated to
// batchLines requests, with GOMAXPROCS=1: the figure is commands per
// second of one core.
func batch(w *world, s *summary) error {
	texts, source, err := corpus.Commands(w.c.root)
	if err != nil {
		return err
	}
	in := filepath.Join(w.tmp, "batch.jsonl")
	f, err := os.Create(in)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	enc := json.NewEncoder(bw)
	for i := 0; i < w.c.batchLines; i++ {
		if err := enc.Encode(map[string]string{"command": texts[i%len(texts)]}); err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	f.Close()
	runs := max(3, w.c.throughputRuns)
	fmt.Printf("\n== check --json --batch: %d requests cycling over %d commands (%s), GOMAXPROCS=1, %d runs\n",
		w.c.batchLines, len(texts), source, runs)
	v := w.guardV("check", "--json", "--batch")
	v.env = withEnv(v.env, "GOMAXPROCS=1")
	v.stdin, v.out = in, true
	ss, err := interleave([]*variant{v}, 1, runs)
	if err != nil {
		return err
	}
	wall, cpu := median(ss[0].walls()), median(ss[0].cpus())
	perCPU := float64(w.c.batchLines) / cpu.Seconds()
	perWall := float64(w.c.batchLines) / wall.Seconds()
	fmt.Printf("  %d commands: wall %s, cpu %s: %.0f commands/s of cpu, %.0f commands/s of wall (%s per command)\n",
		w.c.batchLines, ms(wall, false), ms(cpu, false), perCPU, perWall, us(cpu/time.Duration(w.c.batchLines)))
	s.add("check --batch, one core", fmt.Sprintf("%.0f commands/s", perCPU), "≥ 50,000/s", perCPU >= 50_000,
		fmt.Sprintf("%.0f/s of wall", perWall))
	return nil
}

var metricRE = regexp.MustCompile(`([0-9.e+]+) ([a-zA-Zµ/%-][a-zA-Z0-9µ/%-]*)`)

// inProcess runs BenchmarkCheckCorpus of cmd/guard-exec's test binary: the
// whole check path (configuration, analysis, rules) in-process, timed per
// corpus command.
func inProcess(w *world, s *summary) error {
	if w.c.cmdTest == "" {
		fmt.Println("\n== in-process check: skipped (no -cmdtest)")
		return nil
	}
	reps := 30
	if w.c.quick {
		reps = 10
	} else if w.c.full {
		reps = 100
	}
	fmt.Printf("\n== in-process check per corpus command (BenchmarkCheckCorpus, %d passes)\n", reps)
	c := exec.Command(w.c.cmdTest, "-test.run=^$", "-test.bench=^BenchmarkCheckCorpus$",
		"-test.benchtime="+strconv.Itoa(reps)+"x", "-test.count=1")
	c.Dir = filepath.Join(w.c.root, "cmd", "guard-exec")
	c.Env = withEnv(os.Environ(), "GOMAXPROCS=1")
	out, err := c.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%v\n%s", err, out)
	}
	metrics := map[string]float64{}
	var notes []string // the benchmark logs once per round; the last round's lines count
	for _, ln := range strings.Split(string(out), "\n") {
		t := strings.TrimSpace(ln)
		if strings.HasPrefix(t, "BenchmarkCheckCorpus") {
			for _, m := range metricRE.FindAllStringSubmatch(t, -1) {
				v, _ := strconv.ParseFloat(m[1], 64)
				metrics[m[2]] = v
			}
			continue
		}
		if _, msg, ok := strings.Cut(t, ": "); ok && strings.Contains(t, "_test.go:") {
			if strings.HasPrefix(msg, "corpus:") {
				notes = notes[:0]
			}
			notes = append(notes, msg)
		}
	}
	for _, n := range notes {
		fmt.Println("  " + n)
	}
	med, worst := metrics["median-µs/cmd"], metrics["max-µs/cmd"]
	fmt.Printf("  median over commands %.1f µs, p99 %.1f µs, slowest command's median %.1f µs\n", med, metrics["p99-µs/cmd"], worst)
	s.add("check in-process, slowest corpus command (median)", fmt.Sprintf("%.1f µs", worst), "≤ 100 µs", worst <= 100,
		fmt.Sprintf("median command %.1f µs", med))
	s.add("check in-process, median corpus command", fmt.Sprintf("%.1f µs", med), "≤ 25 µs", med <= 25, "")
	return nil
}

// ledgerGrowth compares guard-exec -c true against a ledger that is (nearly)
// empty and one that holds 100,000 records in one segment, the worst case
// for anything that reads the ledger without a bound. Both use a
// configuration that never rotates, so the big segment stays big.
func ledgerGrowth(w *world, s *summary) error {
	n := w.c.ledgerRecords
	cfgHome := filepath.Join(w.tmp, "ledger-config")
	if err := writeFile(filepath.Join(cfgHome, "guard-exec", "config.toml"), "[ledger]\nmax_bytes = 1073741824\n"); err != nil {
		return err
	}
	small, big := filepath.Join(w.tmp, "ledger-small"), filepath.Join(w.tmp, "ledger-big")
	t := time.Now()
	if err := fillLedger(big, n); err != nil {
		return err
	}
	fi, err := os.Stat(filepath.Join(big, "ledger.jsonl"))
	if err != nil {
		return err
	}
	rounds := w.c.rounds
	fmt.Printf("\n== ledger size: -c true with a small ledger and with %d records (%s, written in %.1fs), %d interleaved rounds\n",
		n, mib(fi.Size()), time.Since(t).Seconds(), rounds)
	b := w.bashV("true")
	g0, g1 := w.guardV("-c", "true"), w.guardV("-c", "true")
	g0.env = withEnv(g0.env, "XDG_CONFIG_HOME="+cfgHome, "GUARD_EXEC_LEDGER_DIR="+small)
	g1.env = withEnv(g1.env, "XDG_CONFIG_HOME="+cfgHome, "GUARD_EXEC_LEDGER_DIR="+big)
	g0.name, g1.name = "guard-exec -c true, small ledger", fmt.Sprintf("guard-exec -c true, %d records", n)
	ss, err := interleave([]*variant{b, g0, g1}, 5, rounds)
	if err != nil {
		return err
	}
	printSeries(ss)
	o0w, o0c := printDiff("overhead, small ledger (− bash)", ss[1], ss[0])
	printDiff(fmt.Sprintf("overhead, %d records (− bash)", n), ss[2], ss[0])
	dW, dC := printDiff("difference (big − small)", ss[2], ss[1])
	gw, gc := pct(dW, o0w), pct(dC, o0c)
	fmt.Printf("  growth of the overhead: %+.1f%% wall, %+.1f%% cpu\n", gw, gc)
	s.add("overhead growth at 100k records", fmt.Sprintf("%+.1f%% wall, %+.1f%% cpu", gw, gc), "< 10%", gw < 10, cpuNote(gc < 10))
	return nil
}

func pct(d, base time.Duration) float64 {
	if base <= 0 {
		return 0
	}
	return 100 * float64(d) / float64(base)
}

// fillLedger appends n records (exec and exit pairs) through the ledger's
// own API, so the file is exactly what guard-exec would have written.
func fillLedger(dir string, n int) error {
	l, err := ledger.Open(dir, ledger.Options{MaxBytes: 1 << 40})
	if err != nil {
		return err
	}
	code := 0
	for i := 0; i < n/2; i++ {
		cmd := fmt.Sprintf("go test ./pkg%d/... -run 'Test(Parse|Walk)%d' -count=1", i%50, i%7)
		id, err := l.Append(&ledger.Record{Kind: ledger.KindExec, Session: "ppid-4242-1234567", Cwd: "/home/dev/src/project",
			Project: "/home/dev/src/project", Mode: "shell", IO: "pipe", Command: cmd, Raw: cmd, Verdict: "allow", Enforce: "enforce"})
		if err != nil {
			return err
		}
		_, err = l.Append(&ledger.Record{Kind: ledger.KindExit, ID: id, Exit: &code, DurationMS: 812.25,
			Stdout: &ledger.StreamInfo{Bytes: 1234, SHA256: strings.Repeat("ab", 32)}, Stderr: &ledger.StreamInfo{},
			Digest: "ok  \tgithub.com/x/y/pkg\t0.120s\n"})
		if err != nil {
			return err
		}
	}
	return nil
}
