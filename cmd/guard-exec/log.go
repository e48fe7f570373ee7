package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/guard-exec/guard-exec/ledger"
	"github.com/guard-exec/guard-exec/shim"
)

// Bounds of what the commands for people read: never the whole ledger,
// whatever it holds.
const (
	logDefaultN  = 20
	logMaxN      = 5000
	filteredTail = 10_000 // records read back when a filter may drop most of them
)

// openForReading opens the ledger a command for people reads: --ledger
// DIR, else the project's (GUARD_EXEC_LEDGER_DIR overrides). It never
// creates one: with none there yet it returns nil and the directory.
func (g *guard) openForReading(dir string) (*ledger.Ledger, string, error) {
	if dir == "" {
		dir = g.ledgerDir()
		if dir == "" {
			return nil, "", errors.New("no ledger location: set HOME or GUARD_EXEC_LEDGER_DIR")
		}
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, dir, nil
	} else if err != nil {
		return nil, dir, &ledgerError{dir: dir, err: err, reading: true}
	}
	led, err := ledger.Open(dir, g.readOptions())
	return led, dir, err
}

func (g *guard) noLedger(dir string) {
	fmt.Fprintf(g.st.err, "guard-exec: no ledger at %s yet: nothing was recorded\n", dir)
}

// row is one command as the log shows it: its exec or decision record
// with what followed (exit, approval).
type row struct {
	rec      ledger.Record // exec, decision or approval
	exit     *ledger.Record
	recs     []ledger.Record // every record of the row, in file order, for --json
	approved bool            // an approval refers to it
}

// rows groups records (oldest first) by command, oldest first. Exits and
// approvals whose command lies before the records are dropped.
func rows(recs []ledger.Record) []*row {
	var out []*row
	byID := map[string]*row{}
	for _, r := range recs {
		switch r.Kind {
		case ledger.KindExec, ledger.KindDecision:
			w := &row{rec: r, recs: []ledger.Record{r}}
			byID[r.ID] = w
			out = append(out, w)
		case ledger.KindExit:
			if w := byID[r.ID]; w != nil && w.exit == nil {
				e := r
				w.exit = &e
				w.recs = append(w.recs, r)
			}
		case ledger.KindApproval:
			if w := byID[r.Ref]; w != nil {
				w.approved = true
			}
			w := &row{rec: r, recs: []ledger.Record{r}}
			byID[r.ID] = w
			out = append(out, w)
		}
	}
	return out
}

// outcome is what the EXIT column says.
func (w *row) outcome() string {
	switch {
	case w.rec.Kind == ledger.KindApproval:
		return "-"
	case w.rec.Kind == ledger.KindDecision && w.rec.Verdict == "deny":
		return "denied"
	case w.rec.Kind == ledger.KindDecision && w.rec.Verdict == "hold":
		return "held"
	case w.rec.Kind == ledger.KindDecision:
		// A hook's answer: judged here, run (or not) by the agent.
		return "checked"
	case w.exit == nil:
		return "interrupted"
	case w.exit.TimedOut:
		return "timeout"
	case w.exit.Exit == nil:
		return "?"
	}
	return strconv.Itoa(*w.exit.Exit)
}

func (w *row) failed() bool {
	return w.rec.Kind == ledger.KindExec && w.exit != nil && w.exit.Exit != nil && *w.exit.Exit != 0
}

// blocked: a decision record that held or denied. Hooks also write
// decision records for what they allow.
func (w *row) blocked() bool {
	return w.rec.Kind == ledger.KindDecision && (w.rec.Verdict == "hold" || w.rec.Verdict == "deny")
}

func (w *row) verdict() string {
	if w.rec.Kind == ledger.KindApproval {
		return "approval"
	}
	return w.rec.Verdict
}

func (w *row) command() string {
	if w.rec.Kind == ledger.KindApproval {
		return "approves " + w.rec.Ref + ": " + w.rec.Command
	}
	return w.rec.Command
}

func (w *row) duration() string {
	if w.exit == nil {
		return "-"
	}
	return fmtDuration(w.exit.DurationMS)
}

// runLog prints the recent commands.
func runLog(_ context.Context, g *guard, args []string) error {
	fs := g.flags("log")
	n := fs.IntP("number", "n", logDefaultN, "show the last `N` commands")
	asJSON := fs.Bool("json", false, "print the stored records, one JSON object per line")
	format := fs.String("format", "table", "print as `FORMAT`: table, json (as --json) or otlp (OTLP/JSON lines for a collector's otlpjsonfile receiver)")
	session := fs.String("session", "", "only the commands of session `S`")
	onlyFailed := fs.Bool("failed", false, "only commands that exited non-zero")
	onlyBlocked := fs.Bool("blocked", false, "only held and denied commands")
	verify := fs.Bool("verify", false, "check the hash chain and the ids of the whole ledger")
	dir := fs.String("ledger", "", "read the ledger in `DIR`")
	all := fs.Bool("all", false, "read both this directory's project ledger and the user's ledger")
	if err := g.parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("log takes no operands (got %q)", fs.Arg(0))
	}
	switch *format {
	case "table":
	case "json":
		*asJSON = true
	case "otlp":
		if *asJSON {
			return usagef("--json and --format otlp: choose one")
		}
	default:
		return usagef("--format: want table, json or otlp, got %q", *format)
	}
	if *n < 1 || *n > logMaxN {
		return usagef("-n: want 1 to %d, got %d", logMaxN, *n)
	}
	if *all && *dir != "" {
		return usagef("--all and --ledger: give one")
	}
	dirs := []string{*dir}
	if *all {
		dirs = g.allLedgers()
	}
	filtered := *session != "" || *onlyFailed || *onlyBlocked
	limit := 3**n + 8 // exec, exit, and room for approvals
	if filtered {
		limit = filteredTail
	}
	var merged []*row
	ledOf := map[*row]*ledger.Ledger{} // each row's ledger, for --format otlp
	nprobs, nrecs := 0, 0
	var failed error
	for _, d := range dirs {
		led, where, err := g.openForReading(d)
		if err != nil {
			return err
		}
		if *verify {
			if err := g.verifyLedger(led, where); err != nil {
				failed = err
			}
			continue
		}
		if led == nil {
			if !*all {
				g.noLedger(where)
			}
			continue
		}
		recs, probs, err := led.Tail(limit)
		if err != nil {
			return err
		}
		nprobs += len(probs)
		nrecs += len(recs)
		rs := rows(recs)
		for _, w := range rs {
			ledOf[w] = led
		}
		merged = append(merged, rs...)
	}
	if *verify {
		return failed
	}
	if len(dirs) > 1 {
		slices.SortStableFunc(merged, func(a, b *row) int { return strings.Compare(a.rec.Time, b.rec.Time) })
	}
	var sel []*row
	for _, w := range merged {
		if *session != "" && w.rec.Session != *session {
			continue
		}
		if (*onlyFailed || *onlyBlocked) && !(*onlyFailed && w.failed() || *onlyBlocked && w.blocked()) {
			continue
		}
		sel = append(sel, w)
	}
	if len(sel) > *n {
		sel = sel[len(sel)-*n:]
	}
	if *format == "otlp" {
		if err := g.logOTLP(ledOf, sel); err != nil {
			return err
		}
	} else if *asJSON {
		enc := newJSONEncoder(g.st.out)
		for _, w := range sel {
			for i := range w.recs {
				if err := enc.Encode(&w.recs[i]); err != nil {
					return err
				}
			}
		}
	} else {
		g.printLog(sel, len(dirs) > 1)
	}
	if len(sel) == 0 {
		g.noMatch(*session, *onlyFailed, *onlyBlocked, nrecs)
	}
	if nprobs > 0 {
		fmt.Fprintf(g.st.err, "guard-exec: warning: %d unreadable ledger lines skipped (guard-exec log --verify shows where)\n", nprobs)
	}
	return nil
}

// noMatch says on stderr that the log is empty, and why: an empty filter
// and an empty ledger look alike otherwise.
func (g *guard) noMatch(session string, failed, blocked bool, read int) {
	var f []string
	if session != "" {
		f = append(f, "--session "+session)
	}
	if failed {
		f = append(f, "--failed")
	}
	if blocked {
		f = append(f, "--blocked")
	}
	if len(f) == 0 {
		fmt.Fprintf(g.st.err, "guard-exec: the ledger has no commands yet\n")
		return
	}
	fmt.Fprintf(g.st.err, "guard-exec: no command matches %s (among the last %s)\n", strings.Join(f, " "), plural(read, "record"))
}

// allLedgers are the ledgers log --all reads: this directory's (the work
// tree's, or the user's outside one) and the user's.
func (g *guard) allLedgers() []string {
	dirs := []string{g.ledgerDir()}
	if u := ledger.UserLocation(g.getenv); u != "" && u != dirs[0] {
		dirs = append(dirs, u)
	}
	return dirs
}

// printLog prints the table; withDir adds the directory each command ran
// in, for rows from several ledgers.
func (g *guard) printLog(sel []*row, withDir bool) {
	cols := []string{"ID", "TIME", "VERDICT", "EXIT", "DURATION", "COMMAND"}
	if withDir {
		cols = []string{"ID", "TIME", "VERDICT", "EXIT", "DURATION", "DIR", "COMMAND"}
	}
	t := newTable(g.st.out, g.termWidth(), cols...)
	now := time.Now()
	for _, w := range sel {
		if withDir {
			t.add(w.rec.ID, shortTime(w.rec.Time, now), w.verdict(), w.outcome(), w.duration(), w.rec.Cwd, w.command())
			continue
		}
		t.add(w.rec.ID, shortTime(w.rec.Time, now), w.verdict(), w.outcome(), w.duration(), w.command())
	}
	t.flush()
}

// verifyLedger checks the whole ledger; problems make the status 1.
func (g *guard) verifyLedger(led *ledger.Ledger, where string) error {
	var rep *ledger.Report
	if led == nil {
		if rep = ledger.MissingReport(where, g.readOptions()); rep.OK {
			fmt.Fprintf(g.st.out, "%s: OK: no ledger yet\n", where)
			return nil
		}
	} else {
		var err error
		if rep, err = led.Verify(); err != nil {
			return err
		}
	}
	for _, note := range rep.Notes {
		fmt.Fprintf(g.st.out, "note: %s\n", note)
	}
	if rep.OK {
		chain := "hash chain intact"
		if g.key() != nil {
			chain = "hash chain intact, authenticated and anchored"
		}
		fmt.Fprintf(g.st.out, "%s: OK: %s in %s, %s\n", where, plural(rep.Records, "record"), plural(rep.Segments, "segment"), chain)
		return nil
	}
	for _, p := range rep.Problems {
		file := p.File
		if !filepath.IsAbs(file) {
			file = filepath.Join(where, file)
		}
		if p.Line == 0 && p.Offset == 0 {
			fmt.Fprintf(g.st.out, "%s: %s\n", file, p.Msg)
			continue
		}
		fmt.Fprintf(g.st.out, "%s:%s\n", file, problemPlace(p))
	}
	what := "the hash chain is broken: records were changed, inserted or deleted"
	if rep.ChainIntact() {
		what = "the hash chain holds: the damage is unreadable lines (an interrupted write), not an edit"
	}
	fmt.Fprintf(g.st.out, "%s: %s in %d records: %s\n", where, plural(len(rep.Problems), "problem"), rep.Records, what)
	return status(1)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func problemPlace(p ledger.Problem) string {
	if p.Line > 0 {
		return fmt.Sprintf("%d: %s", p.Line, p.Msg)
	}
	return fmt.Sprintf("@%d: %s", p.Offset, p.Msg)
}

// termWidth is the width to fit tables in: the terminal's, else COLUMNS,
// else 80.
func (g *guard) termWidth() int {
	if shim.IsTerminal(g.st.out) {
		if w, _, err := term.GetSize(int(g.st.out.Fd())); err == nil && w > 0 {
			return w
		}
	}
	if c, err := strconv.Atoi(g.vars["COLUMNS"]); err == nil && c > 0 {
		return c
	}
	return 80
}

// shortTime renders a record time in local time: the clock alone today,
// the date too before.
func shortTime(s string, now time.Time) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return "?"
	}
	t = t.In(localZone())
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return t.Format("15:04:05")
	}
	if t.Year() == now.Year() {
		return t.Format("Jan 02 15:04")
	}
	return t.Format("2006-01-02")
}

func fmtDuration(ms float64) string {
	d := time.Duration(ms * float64(time.Millisecond))
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// table prints columns padded to their widest cell; the last column is
// cut to what is left of the width.
type table struct {
	w     io.Writer
	width int
	rows  [][]string
}

func newTable(w io.Writer, width int, header ...string) *table {
	return &table{w: w, width: width, rows: [][]string{header}}
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) flush() {
	if len(t.rows) == 1 {
		return
	}
	last := len(t.rows[0]) - 1
	widths := make([]int, last)
	for _, r := range t.rows {
		for i := 0; i < last; i++ {
			widths[i] = max(widths[i], len([]rune(r[i])))
		}
	}
	used := 0
	for _, w := range widths {
		used += w + 2
	}
	room := max(t.width-used, 20)
	var b strings.Builder
	for _, r := range t.rows {
		b.Reset()
		for i := 0; i < last; i++ {
			b.WriteString(r[i])
			b.WriteString(strings.Repeat(" ", widths[i]-len([]rune(r[i]))+2))
		}
		b.WriteString(oneLine(r[last], room))
		fmt.Fprintln(t.w, strings.TrimRight(b.String(), " "))
	}
}
