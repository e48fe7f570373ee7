package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/guard-exec/guard-exec/internal/redact"
	"github.com/guard-exec/guard-exec/policy"
)

// CI niceties. Under GitHub Actions (GITHUB_ACTIONS=true) every warning and
// every block is also printed as a workflow command (::warning / ::error)
// so it shows as an annotation on the run, with the rule as its title and,
// for a script file, the file and the line of the hit. The lines go to
// stderr: the runner reads workflow commands from both streams, and the
// command's stdout stays exactly its own. When GITHUB_STEP_SUMMARY names a
// file, each command that ran or was held adds a row to a markdown table
// in it. Nested guards (a command started by a guarded command) add a row
// only when they hold something, so the table lists what the step asked
// for.

func (g *guard) onGitHub() bool { return g.vars["GITHUB_ACTIONS"] == "true" }

// ciStep reports a finished command line: annotations for its warnings or
// its block, and a summary row.
func (g *guard) ciStep(j *job, d *policy.Decision, err error) {
	if !g.onGitHub() && g.vars["GITHUB_STEP_SUMMARY"] == "" {
		return
	}
	code := 0
	if err != nil {
		code = exitGuardFailed
		if ec, ok := err.(interface{ ExitCode() int }); ok {
			code = ec.ExitCode()
		}
	}
	blocked := d.Verdict.Blocks() && code == exitBlocked
	g.ciAnnotate(j.file, d)
	outcome := "ran"
	switch {
	case blocked && d.Verdict == policy.Deny:
		outcome = "denied"
	case blocked:
		outcome = "held"
	}
	if outcome == "ran" && g.nested() {
		return
	}
	what := j.script
	if j.file != "" {
		what = j.file // a script: its name says more than its text on one line
	}
	g.ciSummaryRow(outcome, what, d, code)
}

// ciAnnotate prints the workflow commands for a decision's hits.
func (g *guard) ciAnnotate(file string, d *policy.Decision) {
	if !g.onGitHub() || d.Mode == policy.Audit || d.Verdict == policy.Allow {
		return
	}
	level := "warning"
	if d.Verdict.Blocks() {
		level = "error"
	}
	for _, h := range d.Hits {
		props := []string{"title=" + escapeProp("guard-exec "+h.Rule.ID)}
		at := file
		if h.Pos.File != "" {
			at = h.Pos.File // a hit inside a file the script sources
		}
		if at != "" {
			props = append(props, "file="+escapeProp(at))
			if h.Pos.IsValid() {
				props = append(props, fmt.Sprintf("line=%d", h.Pos.Line), fmt.Sprintf("col=%d", h.Pos.Col))
			}
		}
		msg := fmt.Sprintf("%s: %s (%s) — hint: %s", h.Rule.ID, h.Rule.Message, h.Span, h.Rule.Hint)
		fmt.Fprintf(g.st.err, "::%s %s::%s\n", level, strings.Join(props, ","), escapeData(msg))
	}
}

// escapeData and escapeProp follow the workflow command syntax.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

const summaryHeader = "| guard-exec | command | verdict | rule | exit |\n|---|---|---|---|---|\n"

// ciSummaryRow appends one row to the step summary, with the table's
// header first when the file does not already end in the table.
func (g *guard) ciSummaryRow(outcome, script string, d *policy.Decision, code int) {
	path := g.vars["GITHUB_STEP_SUMMARY"]
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		fmt.Fprintf(g.st.err, "guard-exec: warning: step summary: %v\n", err)
		return
	}
	defer f.Close()
	var b strings.Builder
	if !endsInTable(f) {
		b.WriteString("\n" + summaryHeader)
	}
	rule := ""
	if len(d.Hits) > 0 {
		rule = d.Hits[0].Rule.ID
	}
	exit := fmt.Sprint(code)
	if outcome != "ran" {
		exit = "not run"
	}
	fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", outcome, cell(redact.String(script, g.secretValues())), d.Verdict, rule, exit)
	if _, err := io.WriteString(f, b.String()); err != nil {
		fmt.Fprintf(g.st.err, "guard-exec: warning: step summary: %v\n", err)
	}
}

// endsInTable reports whether the file's last line is a row of the
// guard-exec table.
func endsInTable(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return false
	}
	n := min(fi.Size(), 4096)
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, fi.Size()-n); err != nil {
		return false
	}
	lines := strings.Split(strings.TrimRight(string(buf), "\n"), "\n")
	last := lines[len(lines)-1]
	for _, p := range []string{"| ran |", "| held |", "| denied |", "|---|"} {
		if strings.HasPrefix(last, p) {
			return true
		}
	}
	return false
}

// cell renders a command for a table cell: one line, bounded, with the
// characters markdown would read as structure escaped.
func cell(s string) string {
	s = strings.Join(strings.Fields(strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ")), " ")
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	if s == "" {
		return ""
	}
	return "`" + strings.NewReplacer("`", "'", "|", `\|`).Replace(s) + "`"
}

func blockWord(d *policy.Decision) string {
	if d.Verdict == policy.Deny {
		return "denied"
	}
	return "held"
}
