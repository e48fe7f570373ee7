package main

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/guard-exec/guard-exec/internal/corpus"
)

// BenchmarkCheckCorpus is `guard-exec check` in-process for every corpus
// command: configuration (loaded once, as in a batch), analysis and rules,
// with the project lookup each command pays. One op is one pass over the
// corpus. Besides ns/op it reports, over the commands, the median of each
// command's median time, the p99 and the slowest one (SPEC §8: ≤ 50 µs for
// any corpus command), and logs the slowest commands.
func BenchmarkCheckCorpus(b *testing.B) {
	texts, source, err := corpus.Commands(filepath.Join("..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	g, dir := benchGuard(b)
	times := make([][]time.Duration, len(texts))
	for _, t := range texts { // warm the engine and the caches
		g.decide(t, dir)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, t := range texts {
			start := time.Now()
			g.decide(t, dir)
			times[j] = append(times[j], time.Since(start))
		}
	}
	b.StopTimer()
	type cmdTime struct {
		text string
		med  time.Duration
	}
	meds := make([]cmdTime, len(texts))
	for j, ts := range times {
		sort.Slice(ts, func(a, b int) bool { return ts[a] < ts[b] })
		meds[j] = cmdTime{texts[j], ts[len(ts)/2]}
	}
	sort.Slice(meds, func(a, b int) bool { return meds[a].med < meds[b].med })
	µs := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
	b.ReportMetric(µs(meds[len(meds)/2].med), "median-µs/cmd")
	b.ReportMetric(µs(meds[len(meds)*99/100].med), "p99-µs/cmd")
	b.ReportMetric(µs(meds[len(meds)-1].med), "max-µs/cmd")
	b.Logf("corpus: %d commands from %s", len(texts), source)
	for _, m := range meds[max(0, len(meds)-3):] {
		b.Logf("slowest: %6.1f µs  %.80q", µs(m.med), m.text)
	}
}

// benchGuard is a guard in a throwaway project with a home of its own, as
// check would see it, and the directory to judge in.
func benchGuard(b *testing.B) (*guard, string) {
	b.Helper()
	g, dir := newCheckGuard(b.TempDir())
	if g == nil {
		b.Fatal("cannot set up the check world")
	}
	return g, dir
}

// newCheckGuard sets up a project and a home under tmp and returns a guard
// that checks in the project; nil when the directories cannot be made.
func newCheckGuard(tmp string) (*guard, string) {
	home, proj := filepath.Join(tmp, "home"), filepath.Join(tmp, "proj")
	for _, d := range []string{home, filepath.Join(proj, ".git"), filepath.Join(proj, "src")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, ""
		}
	}
	env := []string{"HOME=" + home, "PATH=/usr/bin:/bin", "TMPDIR=/tmp", "USER=dev",
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"GUARD_EXEC_LEDGER_DIR=" + filepath.Join(tmp, "ledger")}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return nil, ""
	}
	g := newGuard(env, &stdio{in: null, out: null, err: null})
	g.invocation = "check"
	g.cwd = proj
	return g, proj
}
