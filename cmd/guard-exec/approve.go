package main

import (
	"bufio"
	"context"
	"crypto/hmac"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/guard-exec/guard-exec/internal/paths"
	"github.com/guard-exec/guard-exec/internal/redact"
	"github.com/guard-exec/guard-exec/ledger"
	"github.com/guard-exec/guard-exec/shim"
)

// A person's approval lets one held command run once: the identical
// command (its canonical text) in the same directory, within approvalTTL.
const (
	approvalTTL = 15 * time.Minute
	// approvalWindow bounds the records the guard reads back when a command
	// is held, looking for an approval: approvals expire in minutes, so
	// one is among the most recent records unless some two thousand
	// commands ran since (then the command is held again, the safe side).
	approvalWindow = 4096
)

// recentRecords reads back the records since a time, in growing steps:
// every approval made since then, and every run that used one, is among
// them. Reading 4096 records costs ~30 ms; most holds need the last few
// hundred (~2 ms). Record times are UTC RFC 3339 and compare as strings.
func recentRecords(led *ledger.Ledger, since time.Time) []ledger.Record {
	cutoff := ledger.FormatTime(since)
	for n := 256; ; n *= 4 {
		recs, _, err := led.Tail(n)
		if err != nil {
			return nil
		}
		if len(recs) < n || n >= approvalWindow || recs[0].Time < cutoff {
			return recs
		}
	}
}

// runApprove is `guard-exec approve ev-N`: a person at a terminal lets a
// held command run once. It refuses whenever it cannot be sure a person is
// answering: stdin or stderr not a terminal, no /dev/tty, --ci, or inside
// a command the guard runs (an agent must not approve its own holds).
func runApprove(_ context.Context, g *guard, args []string) error {
	flags := g.flags("approve")
	ci := flags.Bool("ci", false, "there is no person here: refuse")
	cwd := flags.String("cwd", "", "the project `DIR` whose ledger holds the id (default: the working directory's)")
	if err := g.parseFlags(flags, args); err != nil {
		return err
	}
	if flags.NArg() != 1 {
		return usagef("approve needs one id, such as ev-0042")
	}
	id, ok := recordID(flags.Arg(0))
	if !ok {
		return usagef("approve: %q is not an id such as ev-0042, ev-42 or 42", flags.Arg(0))
	}
	if err := g.setCwd(*cwd); err != nil {
		return err
	}
	left := guardedProcs(g.getenv) // lineage.go
	tty, err := g.personAtTerminal(*ci, left)
	if err != nil {
		return fmt.Errorf("approve: %w", err)
	}
	defer tty.Close()
	led, err := g.book()
	if err != nil {
		return fmt.Errorf("approve: %w", g.ledgerFailure(err))
	}
	dec, err := heldDecision(led, id)
	if err != nil {
		return fmt.Errorf("approve: %w", err)
	}
	key := g.key()
	if key == nil {
		return fmt.Errorf("approve: needs the user's key (%s), which it cannot read or make", paths.KeyFile(g.getenv))
	}
	held, err := time.Parse(time.RFC3339Nano, dec.Time)
	if err != nil {
		return fmt.Errorf("approve: %s has no valid time", id)
	}
	if err := checkPersonsTerminal(tty, held, left); err != nil {
		return fmt.Errorf("approve: a person must answer, and this process %w", err)
	}
	showHeld(tty, dec)
	fmt.Fprintf(tty, "guard-exec: let it run once, within %d minutes? [y/N] ", int(approvalTTL.Minutes()))
	answer, _ := bufio.NewReader(io.LimitReader(tty, 256)).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
		fmt.Fprintln(tty, "guard-exec: not approved")
		return status(1)
	}
	now := time.Now()
	appr := &ledger.Record{
		Kind: ledger.KindApproval, Ref: dec.ID, Mode: "approve",
		Session: dec.Session, Cwd: dec.Cwd, Project: dec.Project,
		Command: dec.Command, Verdict: dec.Verdict, Rules: dec.Rules,
		Expires: ledger.FormatTime(now.Add(approvalTTL)),
	}
	appr.Auth = ledger.ApprovalMAC(key, appr)
	aid, err := led.Append(appr)
	if err != nil {
		return fmt.Errorf("approve: %w", g.ledgerFailure(err))
	}
	fmt.Fprintf(tty, "guard-exec: approved %s as %s until %s: the same command in the same directory runs once\n",
		dec.ID, aid, now.Add(approvalTTL).Format("15:04"))
	return nil
}

// personAtTerminal opens /dev/tty when everything says a person is there.
func (g *guard) personAtTerminal(ci bool, left map[procKey]string) (*os.File, error) {
	switch {
	case insideGuardedCommand(left):
		return nil, errors.New("cannot run inside a command the guard runs; a person runs it in their own terminal")
	case ci:
		return nil, errors.New("needs a person at a terminal, and --ci says there is none")
	case !shim.IsTerminal(g.st.in) || !shim.IsTerminal(g.st.err):
		return nil, errors.New("needs a person at a terminal (stdin and stderr must be terminals)")
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, errors.New("needs a person at a terminal (/dev/tty does not open)")
	}
	return tty, nil
}

// insideGuardedCommand looks up the process tree for a guard running a
// command (nest.go: whatever a command starts stays below its guard while
// it runs, env -i, setsid and renamed copies of guard-exec included); a
// process a guarded command left running (left, lineage.go) counts too.
// Only used by approve and config init --force.
func insideGuardedCommand(left map[procKey]string) bool { return markedChain(os.Getppid(), left) }

func readProcFile(pid int, name string, max int64) ([]byte, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/" + name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}

// parentOf reads a process's parent pid.
func parentOf(pid int) (int, bool) {
	f, ok := statField(pid, statParent)
	if !ok {
		return 0, false
	}
	ppid, err := strconv.Atoi(f)
	return ppid, err == nil
}

// heldDecision finds the decision record of a held command.
func heldDecision(led recordBook, id string) (*ledger.Record, error) {
	recs, err := led.Find(id)
	if err != nil {
		return nil, err
	}
	for i := range recs {
		r := &recs[i]
		if r.ID != id {
			continue
		}
		switch {
		case r.Kind == ledger.KindExec:
			return nil, fmt.Errorf("%s ran (it was not blocked); there is nothing to approve", id)
		case r.Kind == ledger.KindApproval:
			return nil, fmt.Errorf("%s is an approval itself; approve the held command's id", id)
		case r.Kind != ledger.KindDecision:
			continue
		case r.Verdict == "deny":
			return nil, fmt.Errorf("%s was denied; denied commands never run, only the user configuration can change that", id)
		case r.Verdict != "hold":
			return nil, fmt.Errorf("%s is not a held command (verdict %s)", id, r.Verdict)
		case strings.Contains(r.Command, "…[truncated ") && strings.HasSuffix(r.Command, "]"):
			// The ledger keeps only the start of a very long command, so
			// a retry could never be matched against it.
			return nil, fmt.Errorf("%s is too long to approve after the fact; run it at a terminal, where the guard asks directly", id)
		}
		return r, nil
	}
	return nil, fmt.Errorf("%w: %s", ledger.ErrNotFound, id)
}

// showHeld tells the person what they are about to approve: the command
// (redacted in the ledger already), where it runs and why it was held.
// Control characters are shown escaped, so the command cannot redraw the
// question; a long command is shown in full up to a bound, and says so
// when cut.
func showHeld(w io.Writer, dec *ledger.Record) {
	why := ""
	if len(dec.Rules) > 0 {
		why = fmt.Sprintf(" by %s: %s", dec.Rules[0].ID, visible(dec.Rules[0].Message))
	}
	fmt.Fprintf(w, "guard-exec: %s was held%s\n", dec.ID, why)
	fmt.Fprintf(w, "guard-exec: directory: %s\n", visible(dec.Cwd))
	lines := strings.Split(dec.Command, "\n")
	const maxLines = 60
	for i, l := range lines {
		if i == maxLines {
			fmt.Fprintf(w, "guard-exec: … %d more lines not shown (guard-exec show %s has them all)\n", len(lines)-maxLines, dec.ID)
			break
		}
		label := "command:"
		if i > 0 {
			label = "       >"
		}
		fmt.Fprintf(w, "guard-exec: %s %s\n", label, visible(l))
	}
}

// visible escapes what a terminal would interpret.
func visible(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteString("    ")
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// approvedOnce looks for a person's approval of this held command: the
// same canonical command in the same directory, not expired, not used by
// an earlier run. It returns the approval's id, or "". Only a hold can be
// approved; the caller never asks for a denial.
func (g *guard) approvedOnce(rec *ledger.Record) string {
	led, err := g.book()
	if err != nil {
		return ""
	}
	key := g.key()
	now := time.Now()
	recs := recentRecords(led, now.Add(-approvalTTL))
	// The ledger stores commands redacted; compare like with like.
	want := redact.String(rec.Command, g.secretValues())
	used := map[string]bool{}
	for i := len(recs) - 1; i >= 0; i-- { // newest first: a run comes after its approval
		r := &recs[i]
		switch r.Kind {
		case ledger.KindExec:
			if r.Ref != "" {
				used[r.Ref] = true
			}
		case ledger.KindApproval:
			if r.Ref == "" || used[r.ID] || r.Cwd != rec.Cwd || r.Command != want {
				continue
			}
			exp, err := time.Parse(time.RFC3339Nano, r.Expires)
			if err != nil || !now.Before(exp) {
				continue
			}
			// Only guard-exec approve, which reads the user's key, makes
			// a valid approval: a line written into the ledger otherwise
			// lets nothing run.
			if mac := ledger.ApprovalMAC(key, r); mac == "" || !hmac.Equal([]byte(mac), []byte(r.Auth)) {
				continue
			}
			return r.ID
		}
	}
	return ""
}
