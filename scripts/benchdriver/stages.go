package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// A stage is one step of a traced fresh process: how long it took, wall
// and CPU, from the end of the stage before (the first, "main", from the
// driver's start of the process: exec, the runtime's start and every
// package's init). The last, "reap", runs from the program's final mark to
// the driver's wait returning (os.Exit, the kernel tearing the process
// down).
type stage struct {
	name      string
	wall, cpu time.Duration
}

// parseTrace reads the line GUARD_EXEC_TRACE_FD receives: "trace" then
// name=<unix ns>/<cpu ns> per stage, in order.
func parseTrace(line string, start time.Time, total time.Duration) ([]stage, error) {
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "trace" {
		return nil, errors.New("no stage trace (GUARD_EXEC_TRACE_FD not honoured?)")
	}
	var out []stage
	prevWall, prevCPU := start.UnixNano(), int64(0)
	for _, kv := range f[1:] {
		name, v, ok := strings.Cut(kv, "=")
		ws, cs, ok2 := strings.Cut(v, "/")
		w, err1 := strconv.ParseInt(ws, 10, 64)
		c, err2 := strconv.ParseInt(cs, 10, 64)
		if !ok || !ok2 || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("bad stage trace field %q", kv)
		}
		out = append(out, stage{name, time.Duration(w - prevWall), time.Duration(c - prevCPU)})
		prevWall, prevCPU = w, c
	}
	out = append(out, stage{"reap", start.Add(total).Sub(time.Unix(0, prevWall)), 0})
	return out, nil
}

// stageNotes say what each stage covers, for the table.
var stageNotes = map[string]string{
	"main":        "exec, runtime start, package init",
	"invocation":  "options read, real shell found",
	"config":      "configuration read, rule engine built",
	"analysis":    "parse and analysis of the command line",
	"context":     "project, boundary, loop-brake history",
	"decision":    "rules decide",
	"ledger":      "exec record appended",
	"run":         "bash started and waited for",
	"ledger-exit": "exit record appended",
	"exit":        "after the last record",
	"reap":        "os.Exit to the parent's wait (wall only)",
}

// stages runs the floor and guard-exec with a stage trace, interleaved,
// and shows where guard-exec's own cost goes: each stage's median, and
// the median of per-round differences against the floor's stage of the
// same name (0 where the floor has none).
func stages(w *world, s *summary) error {
	fmt.Printf("\n== fresh-process stages: -c true, %d interleaved rounds, ledger on (GUARD_EXEC_TRACE_FD)\n", w.c.rounds)
	fl, gu := w.floorV("true"), w.guardV("-c", "true")
	fl.trace, gu.trace = true, true
	vs := []*variant{fl, gu}
	if w.c.compare != "" {
		cv := w.v("compare", []string{w.c.compare, "-c", "true"})
		cv.trace = true
		if _, err := cv.run(); err != nil { // a build from before the trace
			fmt.Printf("  (compare left out: %v)\n", err)
		} else {
			vs = append(vs, cv)
		}
	}
	ss, err := interleave(vs, 5, w.c.rounds)
	if err != nil {
		return err
	}
	floor, guard := ss[0].samples, ss[1].samples
	names := stageNames(guard)
	get := func(smp sample, name string, cpu bool) time.Duration {
		for _, st := range smp.stages {
			if st.name == name {
				if cpu {
					return st.cpu
				}
				return st.wall
			}
		}
		return 0
	}
	col := func(ss []sample, name string, cpu bool) []time.Duration {
		out := make([]time.Duration, len(ss))
		for i, x := range ss {
			out[i] = get(x, name, cpu)
		}
		return out
	}
	var rows [][]string
	for _, n := range names {
		gw, gc, fw, fc := col(guard, n, false), col(guard, n, true), col(floor, n, false), col(floor, n, true)
		rows = append(rows, []string{n, us(median(gw)), us(median(gc)), us(median(fw)), us(median(fc)),
			usSigned(median(diffs(gw, fw))), usSigned(median(diffs(gc, fc))), stageNotes[n]})
	}
	tw, tf := pick(guard, func(x sample) time.Duration { return x.wall }), pick(floor, func(x sample) time.Duration { return x.wall })
	tcw, tcf := pick(guard, func(x sample) time.Duration { return x.cpu }), pick(floor, func(x sample) time.Duration { return x.cpu })
	rows = append(rows, []string{"whole process", us(median(tw)), us(median(tcw)), us(median(tf)), us(median(tcf)),
		usSigned(median(diffs(tw, tf))), usSigned(median(diffs(tcw, tcf))), "cpu: wait4, with bash"})
	table([]string{"stage", "guard wall", "guard cpu", "floor wall", "floor cpu", "Δ wall", "Δ cpu", ""}, rows)
	fmt.Printf("  stage cpu is the process's own (getrusage, all threads); Δ = median of per-round guard − floor\n")
	if len(ss) > 2 {
		cmp := ss[2].samples
		fmt.Printf("\n  compare (%s) against guard-exec, per stage (median of per-round compare − guard-exec)\n", w.c.compare)
		rows = nil
		for _, n := range names {
			gw, gc, cw, cc := col(guard, n, false), col(guard, n, true), col(cmp, n, false), col(cmp, n, true)
			rows = append(rows, []string{n, us(median(cw)), us(median(cc)), usSigned(median(diffs(cw, gw))), usSigned(median(diffs(cc, gc)))})
		}
		cw, cc := pick(cmp, func(x sample) time.Duration { return x.wall }), pick(cmp, func(x sample) time.Duration { return x.cpu })
		rows = append(rows, []string{"whole process", us(median(cw)), us(median(cc)), usSigned(median(diffs(cw, tw))), usSigned(median(diffs(cc, tcw)))})
		table([]string{"stage", "compare wall", "compare cpu", "Δ wall", "Δ cpu"}, rows)
	}
	return nil
}

// stageNames is the order the stages came in, the longest trace's.
func stageNames(ss []sample) []string {
	var best []stage
	for _, x := range ss {
		if len(x.stages) > len(best) {
			best = x.stages
		}
	}
	out := make([]string, len(best))
	for i, st := range best {
		out[i] = st.name
	}
	return out
}

func usSigned(d time.Duration) string {
	return fmt.Sprintf("%+.1f µs", float64(d)/float64(time.Microsecond))
}
