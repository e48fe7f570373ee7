package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/guard-exec/guard-exec/ledger"
)

// maxIdle caps the pause between two events of a replay: a transcript of
// a command that sat waiting for an hour replays in seconds.
const maxIdle = 2 * time.Second

// runShow prints everything the ledger holds about one command, or
// replays its terminal transcript.
func runShow(ctx context.Context, g *guard, args []string) error {
	fs := g.flags("show")
	replay := fs.Bool("replay", false, "replay the command's terminal transcript with its timing")
	speed := fs.Float64("speed", 1, "replay `X` times as fast")
	asJSON := fs.Bool("json", false, "print the stored records, one JSON object per line")
	dir := fs.String("ledger", "", "read the ledger in `DIR`")
	if err := g.parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("show needs one id, such as ev-0042")
	}
	id, ok := recordID(fs.Arg(0))
	if !ok {
		return usagef("show: %q is not an id such as ev-0042, ev-42 or 42", fs.Arg(0))
	}
	if *speed <= 0 || *speed > 1e6 {
		return usagef("--speed: want a number above 0, got %v", *speed)
	}
	led, where, err := g.openForReading(*dir)
	if err != nil {
		return err
	}
	if led == nil {
		return fmt.Errorf("%s: no ledger at %s", id, where)
	}
	recs, err := led.Find(id)
	if err != nil {
		return err
	}
	recs = append(recs, approvedRuns(led, recs)...)
	if *replay {
		return g.replay(ctx, led, id, recs, *speed)
	}
	if *asJSON {
		enc := newJSONEncoder(g.st.out)
		for i := range recs {
			if err := enc.Encode(&recs[i]); err != nil {
				return err
			}
		}
		return nil
	}
	printShow(g.st.out, id, recs)
	return nil
}

// approvedRuns finds the runs that the approvals among recs let happen: an
// exec record whose ref is the approval, with its exit record. The
// interactive shell records the run right after the approval; a retry of
// an approved hook or agent command comes later.
func approvedRuns(led *ledger.Ledger, recs []ledger.Record) []ledger.Record {
	var out []ledger.Record
	for _, a := range recs {
		if a.Kind != ledger.KindApproval {
			continue
		}
		runs, err := led.Runs(a.ID)
		if err != nil || len(runs) == 0 {
			continue
		}
		// An approval is single-use: its first run is the one it allowed.
		if all, err := led.Find(runs[0].ID); err == nil {
			out = append(out, all...)
		}
	}
	return out
}

// printShow lays out one command's records for people.
func printShow(w io.Writer, id string, recs []ledger.Record) {
	var main, exit, run, runExit *ledger.Record
	var approvals []ledger.Record
	for i := range recs {
		r := &recs[i]
		switch {
		case r.ID != id && r.Kind == ledger.KindExec:
			run = r
		case r.ID != id && r.Kind == ledger.KindExit:
			runExit = r // approvedRuns adds one run with its exit
		case r.Kind == ledger.KindExit && r.ID == id:
			exit = r
		case r.Kind == ledger.KindApproval && r.Ref == id:
			approvals = append(approvals, *r)
		case r.ID == id:
			main = r
		}
	}
	p := func(k, format string, a ...any) {
		v := strings.ReplaceAll(fmt.Sprintf(format, a...), "\n", "\n"+strings.Repeat(" ", 11))
		fmt.Fprintf(w, "%-10s %s\n", k, v)
	}
	if main == nil {
		fmt.Fprintf(w, "%s: only an exit record is left (its command was rotated away)\n", id)
	} else {
		fmt.Fprintf(w, "%s  %s\n", id, kindWord(main))
		p("time", "%s", longTime(main.Time))
		if main.Session != "" {
			p("session", "%s", main.Session)
		}
		p("cwd", "%s", main.Cwd)
		if main.Project != "" && main.Project != main.Cwd {
			p("project", "%s", main.Project)
		}
		if main.Mode != "" || main.IO != "" {
			p("mode", "%s", strings.Trim(main.Mode+", "+main.IO, ", "))
		}
		if main.Kind == ledger.KindApproval {
			p("approves", "%s", main.Ref)
		}
		p("command", "%s", printable(main.Command))
		if main.Raw != "" && main.Raw != main.Command {
			p("raw", "%s", printable(main.Raw))
		}
		if main.Verdict != "" {
			v := main.Verdict
			if main.Enforce != "" && main.Enforce != "enforce" {
				v += " (mode " + main.Enforce + ")"
			}
			p("verdict", "%s", v)
		}
		for _, h := range main.Rules {
			where := ""
			if h.Span != "" {
				where = fmt.Sprintf(" at %s: %s", h.Pos, printable(h.Span))
			}
			p("rule", "%s (%s): %s%s", h.ID, h.Severity, h.Message, where)
		}
		if len(main.EnvRemoved) > 0 {
			p("env", "removed %s", strings.Join(main.EnvRemoved, " "))
		}
		if main.Parent != "" {
			p("parent", "%s (the guarded command this one ran inside)", main.Parent)
		}
		if main.Kind == ledger.KindExec && main.Ref != "" {
			p("approved", "by %s, at a terminal", main.Ref)
		}
	}
	for _, a := range approvals {
		p("approved", "by %s at %s%s", a.ID, longTime(a.Time), expires(a.Expires))
	}
	switch {
	case main != nil && main.Kind == ledger.KindDecision && run != nil:
		p("ran", "yes, as %s, approved by %s", run.ID, run.Ref)
		if runExit != nil {
			printExit(p, w, runExit)
		} else {
			p("exit", "none recorded: interrupted, or still running")
		}
		return
	case main != nil && main.Kind == ledger.KindDecision:
		p("ran", "no: %s, the command never ran", map[bool]string{true: "denied", false: "held"}[main.Verdict == "deny"])
	}
	if exit != nil {
		printExit(p, w, exit)
	} else if main != nil && main.Kind == ledger.KindExec {
		p("exit", "none recorded: interrupted (its guard was stopped), or still running")
	}
}

func printExit(p func(k, format string, a ...any), w io.Writer, e *ledger.Record) {
	status := "?"
	if e.Exit != nil {
		status = fmt.Sprint(*e.Exit)
	}
	var notes []string
	if e.Signal != "" {
		notes = append(notes, "killed by "+e.Signal)
	}
	if e.TimedOut {
		notes = append(notes, "timed out")
	}
	if e.Incomplete {
		notes = append(notes, "output observation incomplete")
	}
	if len(notes) > 0 {
		status += " (" + strings.Join(notes, ", ") + ")"
	}
	p("exit", "%s", status)
	p("ended", "%s", longTime(e.Time))
	p("duration", "%s", fmtDuration(e.DurationMS))
	for _, s := range []struct {
		name string
		info *ledger.StreamInfo
	}{{"stdout", e.Stdout}, {"stderr", e.Stderr}} {
		switch {
		case s.info == nil && s.name == "stderr" && e.Stdout != nil:
			p(s.name, "merged into stdout (terminal)")
		case s.info != nil && s.info.PrefixSHA256 != "":
			p(s.name, "%d bytes, sha256 of the first %d: %s", s.info.Bytes, s.info.Hashed, s.info.PrefixSHA256)
		case s.info != nil:
			p(s.name, "%d bytes, sha256 %s", s.info.Bytes, orDash(s.info.SHA256))
		}
	}
	if e.Cast != "" {
		p("transcript", "%s (guard-exec show --replay %s)", e.Cast, e.ID)
	}
	if e.Digest != "" {
		fmt.Fprintln(w, "digest")
		for _, l := range strings.Split(strings.TrimRight(e.Digest, "\n"), "\n") {
			fmt.Fprintf(w, "    %s\n", printable(l))
		}
	}
}

func kindWord(r *ledger.Record) string {
	switch r.Kind {
	case ledger.KindExec:
		return "command that ran"
	case ledger.KindDecision:
		return "command that was blocked"
	case ledger.KindApproval:
		return "approval"
	}
	return string(r.Kind)
}

func expires(s string) string {
	if s == "" {
		return ""
	}
	return ", valid until " + longTime(s)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func longTime(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return t.In(localZone()).Format("2006-01-02 15:04:05.000 MST")
}

// printable makes stored text safe to print, lines kept: control
// characters other than tab and newline (escape sequences an output
// carried, C1 controls included) are shown, not sent to the terminal.
func printable(s string) string {
	if strings.IndexFunc(s, control) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n':
			b.WriteRune(r)
		case control(r):
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// replay writes the output events of an asciicast v2 transcript with
// their timing, idle gaps capped at maxIdle.
func (g *guard) replay(ctx context.Context, led *ledger.Ledger, id string, recs []ledger.Record, speed float64) error {
	hasCast := false
	for _, r := range recs {
		hasCast = hasCast || r.Kind == ledger.KindExit && r.Cast != ""
	}
	if !hasCast {
		return fmt.Errorf("%s has no transcript: only commands run under a terminal are recorded as one", id)
	}
	// The path is built from the id, never taken from the record: a
	// ledger edited to point elsewhere must not make show print any file.
	path := filepath.Join(led.Dir(), "casts", id+".cast")
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: its transcript %s is gone", id, path)
	}
	if err != nil {
		return fmt.Errorf("transcript: %w", err)
	}
	defer f.Close()
	return playCast(ctx, f, g.st.out, speed, sleepCtx)
}

// playCast replays r to w. sleep waits, or reports that ctx ended.
func playCast(ctx context.Context, r io.Reader, w io.Writer, speed float64, sleep func(context.Context, time.Duration) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	if !sc.Scan() {
		return errors.New("transcript is empty")
	}
	var hdr struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(sc.Bytes(), &hdr); err != nil || hdr.Version != 2 {
		return errors.New("transcript is not asciicast v2")
	}
	prev := 0.0
	for sc.Scan() {
		var ev []json.RawMessage
		if json.Unmarshal(sc.Bytes(), &ev) != nil || len(ev) < 3 {
			continue
		}
		var at float64
		var code, data string
		if json.Unmarshal(ev[0], &at) != nil || json.Unmarshal(ev[1], &code) != nil || json.Unmarshal(ev[2], &data) != nil {
			continue
		}
		if code != "o" {
			continue
		}
		if gap := time.Duration((at - prev) / speed * float64(time.Second)); gap > 0 {
			if err := sleep(ctx, min(gap, maxIdle)); err != nil {
				return err
			}
		}
		prev = max(prev, at)
		if _, err := io.WriteString(w, data); err != nil {
			return err
		}
	}
	return sc.Err()
}

func control(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' || r == 0x7f || r >= 0x80 && r < 0xa0
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
