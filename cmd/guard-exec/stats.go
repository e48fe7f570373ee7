package main

import (
	"context"
	"fmt"
	"io"
	"sort"

	"github.com/guard-exec/guard-exec/ledger"
)

// statsTail is how many records stats reads back: a bounded, recent
// picture whatever the ledger holds.
const statsTail = 10_000

// stats is what `guard-exec stats` reports.
type stats struct {
	Records    int            `json:"records"`     // records read
	Window     int            `json:"window"`      // the bound on records read
	Commands   int            `json:"commands"`    // attempts: commands that ran or were blocked
	ByVerdict  map[string]int `json:"by_verdict"`  // allow, warn, hold, deny
	ByRule     map[string]int `json:"by_rule"`     // attempts each rule hit
	LoopBrakes int            `json:"loop_brakes"` // holds by the loop brake
	Holds      int            `json:"holds"`
	Approved   int            `json:"approved_holds"` // holds a person let through: the guard was wrong
	// Precision is the share of holds nobody approved; null without holds.
	Precision  *float64      `json:"hold_precision"`
	Failing    []countedText `json:"top_failing"`
	Ran        int           `json:"ran"`    // commands with an exit record
	Failed     int           `json:"failed"` // … with a non-zero status
	MedianMS   *float64      `json:"median_duration_ms"`
	Unreadable int           `json:"unreadable_lines"`
}

type countedText struct {
	Command string `json:"command"`
	Count   int    `json:"count"`
}

const topFailing = 10

func runStats(_ context.Context, g *guard, args []string) error {
	fs := g.flags("stats")
	asJSON := fs.Bool("json", false, "print the figures as one JSON object")
	dir := fs.String("ledger", "", "read the ledger in `DIR`")
	if err := g.parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("stats takes no operands (got %q)", fs.Arg(0))
	}
	led, where, err := g.openForReading(*dir)
	if err != nil {
		return err
	}
	var recs []ledger.Record
	var probs []ledger.Problem
	if led != nil {
		if recs, probs, err = led.Tail(statsTail); err != nil {
			return err
		}
	}
	s := computeStats(recs)
	s.Unreadable = len(probs)
	if *asJSON {
		return newJSONEncoder(g.st.out).Encode(s)
	}
	if led == nil {
		g.noLedger(where)
	}
	s.print(g.st.out)
	return nil
}

// computeStats counts over records, oldest first. A hold is a decision
// with verdict hold, or a command that ran with verdict hold because a
// person approved it at the terminal there and then; it was approved (a
// false positive) when an approval refers to it. A command that ran after
// `guard-exec approve` is the retry of a hold already counted.
func computeStats(recs []ledger.Record) *stats {
	s := &stats{Records: len(recs), Window: statsTail, ByVerdict: map[string]int{}, ByRule: map[string]int{}}
	approvalOf := map[string]string{} // approval id → the id it approves ("" at a terminal)
	approved := map[string]bool{}
	for _, r := range recs {
		if r.Kind == ledger.KindApproval {
			approvalOf[r.ID] = r.Ref
			approved[r.Ref] = true
		}
	}
	failing := map[string]int{}
	var durations []float64
	execs := map[string]bool{}
	for _, r := range recs {
		switch r.Kind {
		case ledger.KindExec, ledger.KindDecision:
			if r.Kind == ledger.KindExec {
				execs[r.ID] = true
			}
			retry := r.Kind == ledger.KindExec && r.Ref != "" && approvalOf[r.Ref] != ""
			if retry {
				continue
			}
			s.Commands++
			s.ByVerdict[r.Verdict]++
			seen := map[string]bool{}
			for _, h := range r.Rules {
				if !seen[h.ID] {
					seen[h.ID] = true
					s.ByRule[h.ID]++
				}
			}
			if r.Verdict != "hold" {
				continue
			}
			s.Holds++
			if seen["loop-brake"] {
				s.LoopBrakes++
			}
			if r.Kind == ledger.KindExec || approved[r.ID] {
				s.Approved++
			}
		case ledger.KindExit:
			if !execs[r.ID] || r.Exit == nil {
				continue
			}
			s.Ran++
			durations = append(durations, r.DurationMS)
			if *r.Exit != 0 {
				s.Failed++
			}
		}
	}
	exitOf := map[string]int{}
	for _, r := range recs {
		if r.Kind == ledger.KindExit && r.Exit != nil {
			exitOf[r.ID] = *r.Exit
		}
	}
	for _, r := range recs { // failing commands by their canonical text
		if code, ok := exitOf[r.ID]; ok && r.Kind == ledger.KindExec && code != 0 {
			failing[r.Command]++
		}
	}
	for cmd, n := range failing {
		s.Failing = append(s.Failing, countedText{Command: cmd, Count: n})
	}
	sort.Slice(s.Failing, func(i, j int) bool {
		if s.Failing[i].Count != s.Failing[j].Count {
			return s.Failing[i].Count > s.Failing[j].Count
		}
		return s.Failing[i].Command < s.Failing[j].Command
	})
	if len(s.Failing) > topFailing {
		s.Failing = s.Failing[:topFailing]
	}
	if s.Failing == nil {
		s.Failing = []countedText{}
	}
	if s.Holds > 0 {
		p := float64(s.Holds-s.Approved) / float64(s.Holds)
		s.Precision = &p
	}
	if len(durations) > 0 {
		sort.Float64s(durations)
		m := durations[len(durations)/2]
		if len(durations)%2 == 0 {
			m = (durations[len(durations)/2-1] + m) / 2
		}
		s.MedianMS = &m
	}
	return s
}

func (s *stats) print(w io.Writer) {
	fmt.Fprintf(w, "over the last %d records (at most %d are read)\n", s.Records, s.Window)
	fmt.Fprintf(w, "commands      %d (%d ran, %d of them failed)\n", s.Commands, s.Ran, s.Failed)
	fmt.Fprintf(w, "verdicts     ")
	for _, v := range []string{"allow", "warn", "hold", "deny"} {
		fmt.Fprintf(w, " %s %d", v, s.ByVerdict[v])
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "loop brake    %s\n", plural(s.LoopBrakes, "hold"))
	if s.Precision != nil {
		fmt.Fprintf(w, "holds         %d, %d approved by a person: precision %.0f%%\n", s.Holds, s.Approved, *s.Precision*100)
	} else {
		fmt.Fprintf(w, "holds         none\n")
	}
	if s.MedianMS != nil {
		fmt.Fprintf(w, "median time   %s\n", fmtDuration(*s.MedianMS))
	}
	if len(s.ByRule) > 0 {
		fmt.Fprintln(w, "rules")
		for _, c := range sortedCounts(s.ByRule) {
			fmt.Fprintf(w, "  %6d  %s\n", c.Count, c.Command)
		}
	}
	if len(s.Failing) > 0 {
		fmt.Fprintln(w, "top failing commands")
		for _, c := range s.Failing {
			fmt.Fprintf(w, "  %6d  %s\n", c.Count, oneLine(c.Command, 70))
		}
	}
	if s.Unreadable > 0 {
		fmt.Fprintf(w, "unreadable    %d lines skipped (guard-exec log --verify shows where)\n", s.Unreadable)
	}
}

func sortedCounts(m map[string]int) []countedText {
	out := make([]countedText, 0, len(m))
	for k, n := range m {
		out = append(out, countedText{Command: k, Count: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Command < out[j].Command
	})
	return out
}
