package main

import (
	"fmt"
	"time"
)

// printSeries shows each variant's medians and p90s.
func printSeries(ss []*series) {
	rows := make([][]string, 0, len(ss))
	for _, s := range ss {
		rows = append(rows, []string{s.v.name, ms(median(s.walls()), false), ms(quantile(s.walls(), 0.9), false),
			ms(median(s.cpus()), false), ms(quantile(s.cpus(), 0.9), false)})
	}
	table([]string{"", "wall median", "wall p90", "cpu median", "cpu p90"}, rows)
}

// printDiff shows the paired differences a−b.
func printDiff(label string, a, b *series) (wall, cpu time.Duration) {
	dw, dc := diffs(a.walls(), b.walls()), diffs(a.cpus(), b.cpus())
	wall, cpu = median(dw), median(dc)
	fmt.Printf("  %-40s wall %s (p90 %s)   cpu %s (p90 %s)\n", label,
		ms(wall, true), ms(quantile(dw, 0.9), true), ms(cpu, true), ms(quantile(dc, 0.9), true))
	return wall, cpu
}

func both(wall, cpu time.Duration) string { return ms(wall, true) + " wall, " + ms(cpu, true) + " cpu" }

func cpuNote(ok bool) string {
	if ok {
		return "cpu ok"
	}
	return "cpu MISSED"
}

func startup(w *world, s *summary) error {
	fmt.Printf("\n== start-up: -c true, %d interleaved rounds, in a git repository, ledger on\n", w.c.rounds)
	vs := []*variant{w.bashV("true"), w.floorV("true"), w.guardV("-c", "true")}
	cmpAt, plainAt := -1, -1
	if w.c.compare != "" {
		cmpAt = len(vs)
		vs = append(vs, w.v("compare: "+baseName(w.c.compare)+" -c true", []string{w.c.compare, "-c", "true"}))
	}
	if w.c.plain != "" {
		plainAt = len(vs)
		vs = append(vs, w.v("plain go build: guard-exec -c true", []string{w.c.plain, "-c", "true"}))
	}
	depsAt := -1
	if w.c.floorDeps != "" {
		depsAt = len(vs)
		vs = append(vs, w.v("floor+packages -c true", []string{w.c.floorDeps, "-c", "true"}))
	}
	ss, err := interleave(vs, 5, w.c.rounds)
	if err != nil {
		return err
	}
	printSeries(ss)
	if cmpAt >= 0 {
		printDiff("compare − guard-exec", ss[cmpAt], ss[2])
	}
	if plainAt >= 0 {
		pW, pC := printDiff("plain go build − static build", ss[plainAt], ss[2])
		s.add("plain go build over the static one", both(pW, pC), "≤ 0.1 ms", pW <= 100*time.Microsecond, cpuNote(pC <= 100*time.Microsecond))
	}
	gbW, gbC := printDiff("guard-exec − bash", ss[2], ss[0])
	gfW, gfC := printDiff("guard-exec − floor (guard-exec's own work)", ss[2], ss[1])
	printDiff("floor − bash (any Go interposer)", ss[1], ss[0])
	if depsAt >= 0 {
		// guard-exec's own cost over the floor, in two: loading a program of
		// its size with its packages' init, and the work it then does.
		printDiff("floor with packages − floor (their load and init)", ss[depsAt], ss[1])
		printDiff("guard-exec − floor with packages (the work)", ss[2], ss[depsAt])
	}
	s.add("-c true, added over bash -c true", both(gbW, gbC), "≤ 2.0 ms", gbW <= 2*time.Millisecond, cpuNote(gbC <= 2*time.Millisecond))
	s.add("-c true, added over the floor", both(gfW, gfC), "≤ 1.0 ms", gfW <= time.Millisecond, cpuNote(gfC <= time.Millisecond))
	return nil
}

func gitStatus(w *world, s *summary) error {
	rounds := max(20, w.c.rounds/3)
	fmt.Printf("\n== git status in a repository of 300 files (10 changed, 5 new), %d interleaved rounds\n", rounds)
	ss, err := interleave([]*variant{w.bashV("git status"), w.floorV("git status"), w.guardV("-c", "git status")}, 3, rounds)
	if err != nil {
		return err
	}
	printSeries(ss)
	gbW, gbC := printDiff("guard-exec − bash", ss[2], ss[0])
	printDiff("guard-exec − floor", ss[2], ss[1])
	s.add("-c 'git status', added over bash", both(gbW, gbC), "≤ 2.0 ms", gbW <= 2*time.Millisecond, cpuNote(gbC <= 2*time.Millisecond))
	return nil
}

func checkProcess(w *world, _ *summary) error {
	rounds := max(20, w.c.rounds/2)
	long := `cd "$(git rev-parse --show-toplevel)" && for f in $(git diff --name-only HEAD~1); do case "$f" in *.go) gofmt -l "$f";; *.sh) bash -n "$f";; esac; done | tee /tmp/changed.txt | xargs -r grep -n TODO || true`
	fmt.Printf("\n== check per process (nothing runs), %d interleaved rounds\n", rounds)
	held := w.guardV("check", "--json", "-c", "git push --force origin main")
	held.wantExit = 126 // check's answer for a hold
	ss, err := interleave([]*variant{
		w.guardV("version"), w.guardV("check", "-c", "git status"), held, w.guardV("check", "--json", "-c", long),
	}, 3, rounds)
	if err != nil {
		return err
	}
	ss[3].v.name = "guard-exec check --json -c '<a 200-byte pipeline>'"
	printSeries(ss)
	return nil
}
