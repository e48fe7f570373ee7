package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/guard-exec/guard-exec/ledger"
	"github.com/guard-exec/guard-exec/parse"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/shim"
)

// job is one command line to judge and, if the verdict allows, run.
type job struct {
	script  string // the text analysed
	dialect parse.Dialect
	args    []string // positional parameters for the analysis: $0 $1 …
	dir     string

	path string   // the program to run: the real shell, or argv mode's program
	argv []string // its argv

	analysis *parse.Analysis // set when the caller analysed already (argv mode)
	file     string          // the script file the text came from, for CI annotations
}

// execute is the pipeline every way in shares: analyse, decide, then run
// with evidence or block with an explanation.
func (g *guard) execute(ctx context.Context, j *job) error {
	shim.Prepare() // beside the analysis and the decision, on another CPU
	eng := g.policyEngine()
	mark("config")
	a := j.analysis
	if a == nil {
		a = g.analyze(j.script, j.dialect, j.args, j.dir)
	}
	mark("analysis")
	x := g.decisionCtx(j.dir)
	g.withLoopBrake(x)
	mark("context")
	d := eng.Decide(a, x)
	mark("decision")
	err := g.decideAndRun(ctx, j, a, d)
	g.ciStep(j, d, err)
	return err
}

// decideAndRun blocks, asks or runs, by the decision.
func (g *guard) decideAndRun(ctx context.Context, j *job, a *parse.Analysis, d *policy.Decision) error {
	rec := g.execRecord(j, a, d)
	if d.Verdict.Blocks() {
		ok, err := g.mayRunBlocked(j, a, d, rec)
		if err != nil {
			return err
		}
		if !ok {
			return status(exitBlocked)
		}
	} else if d.Verdict == policy.Warn && d.Mode != policy.Audit {
		g.warn(d)
	}
	return g.runRecorded(ctx, j, a, d, rec)
}

// mayRunBlocked decides what happens to a held or denied command: a denial
// is final; a hold runs only with a person's approval. The block is
// recorded and explained when the command stays blocked.
func (g *guard) mayRunBlocked(j *job, a *parse.Analysis, d *policy.Decision, rec *ledger.Record) (bool, error) {
	led, err := g.book()
	if d.Verdict == policy.Hold && err == nil {
		if aid := g.approvedOnce(rec); aid != "" { // approve.go
			rec.Ref = aid
			fmt.Fprintf(g.st.err, "guard-exec: approved: %s: running it once (approval %s)\n", d.Hits[0].Rule.ID, aid)
			return true, nil
		}
	}
	if d.Verdict == policy.Hold && g.askAtTerminal(d) {
		// The person's yes is evidence too: the exec record points at it.
		if err == nil {
			appr := &ledger.Record{Kind: ledger.KindApproval, Session: rec.Session, Cwd: rec.Cwd,
				Project: rec.Project, Command: rec.Command, Verdict: rec.Verdict, Mode: "tty"}
			if id, aerr := led.Append(appr); aerr == nil {
				rec.Ref = id
			}
		}
		return true, nil
	}
	if err != nil {
		g.ledgerWarn(err)
		g.reportBlock(d, "")
		return false, nil
	}
	rec.Kind = ledger.KindDecision
	id, err := led.Append(rec)
	if err != nil {
		id = ""
		g.ledgerWarn(err)
	}
	g.reportBlock(d, id)
	return false, nil
}

// runRecorded writes the exec record, runs the command and writes its exit
// record. When the exec record cannot be written the command does not run:
// evidence is part of the contract, so the guard fails closed (doc.go).
func (g *guard) runRecorded(ctx context.Context, j *job, a *parse.Analysis, d *policy.Decision, rec *ledger.Record) error {
	sb := g.sandboxFor(j.dir) // sandbox.go
	if !g.sandboxUnavailable(sb, rec) {
		return status(exitBlocked)
	}
	led, err := g.book()
	if err != nil {
		return g.cannotRecord(ctx, j, a, d, sb, err)
	}
	spec := &shim.Spec{
		Path: j.path, Argv: j.argv, Dir: j.dir,
		Stdin: g.st.in, Stdout: g.st.out, Stderr: g.st.err,
		PTY: g.ptyMode(), Timeout: g.timeout, Start: sb.starter(),
	}
	rec.Kind = ledger.KindExec
	if spec.PTY == shim.PTYAlways {
		rec.IO = "pty"
	} else {
		rec.IO = "pipe"
	}
	rec.Sandbox, rec.ABI = sb.recordName(), sb.abiOf()
	id, err := led.Append(rec)
	if err != nil {
		return g.cannotRecord(ctx, j, a, d, sb, err)
	}
	spec.Env = g.childEnv()
	defer announce(id, sb)()
	mark("ledger")
	start := time.Now()
	var res *shim.Result
	runErr := sb.wrap(spec) // sandbox.go: Seatbelt's sandbox-exec, on macOS
	if runErr == nil {
		k := startKeeper(spec) // keeper_linux.go: nothing it starts outlives a killed guard
		becomeSubreaper()      // lineage.go: the command's orphans stay listed
		res, runErr = shim.Run(ctx, spec)
		g.recordLineage(id, k)
		k.release()
	}
	mark("run")
	g.sandboxAfter(sb, res)
	exit := exitRecord(id, start, res, runErr)
	exit.Protect = sb.protection()
	if res != nil && len(res.Cast) > 0 {
		if p, err := led.WriteCast(id, res.Cast); err == nil {
			exit.Cast = p
		}
	}
	if _, err := led.Append(exit); err != nil {
		g.ledgerWarn(err)
	}
	mark("ledger-exit")
	g.reportTimeout(res)
	if runErr != nil {
		return fmt.Errorf("starting %s: %w", j.path, runErr)
	}
	return commandStatus(res)
}

// cannotRecord handles a command whose exec record cannot be written. It
// does not run (fail closed), unless a kernel sandbox bounds it already:
// inside a sandboxed command (the outer guard's announcement, with the
// kernel's word) the ledger is read-only by design, and the command is
// recorded as part of the one that started it; and where no guard
// announces it or the ledger's variables were lost with the rest of the
// environment (`env -i bash -c …`), the kernel's own refusal of the
// ledger, with no_new_privs, is the proof (refusedByKernel). The verdict
// was reached as usual either way: only an allowed or warned command gets
// here, and a held one stays held. In the second case a verdict that
// counted on a sandbox of this guard's own (a hold lowered to a warning,
// for the write roots of its own configuration) does not run: that
// sandbox is not made, and the outer one's roots are another project's.
func (g *guard) cannotRecord(ctx context.Context, j *job, a *parse.Analysis, d *policy.Decision, sb *sandboxRun, err error) error {
	switch {
	case sb.insideSandbox():
		return g.runUnrecorded(ctx, j, a, sb)
	case refusedByKernel(g, err) && !loweredForSandbox(d):
		// The mode of the sandbox is not known here, so nothing is claimed
		// for the guards the command starts: each finds out as this one did.
		// The one line goes to the terminal, not to stderr, which is the
		// program's (test suites compare it); without a terminal the
		// record of the command that started this one is the evidence.
		g.tellTerminal(fmt.Sprintf("guard-exec: warning: ledger-sandboxed: a kernel sandbox refused the ledger's write (%s); the command runs unrecorded and bounded by it, the command that started it being on record\n", refusal(err)))
		return g.runUnrecorded(ctx, j, a, nil)
	}
	return g.notRun(err)
}

// sandboxedUnrecorded reports whether this guard runs inside a kernel
// sandbox that refuses its ledger without knowing it from its environment
// (cannotRecord's second case): it is a guard inside a guarded command.
func (g *guard) sandboxedUnrecorded() bool {
	if _, ok := g.inSandbox(); ok {
		return false
	}
	_, err := g.book()
	return err != nil && refusedByKernel(g, err)
}

// loweredForSandbox reports whether the verdict lowered a hold to a warning
// because the command was to run in a sandbox of this guard's.
func loweredForSandbox(d *policy.Decision) bool {
	for _, h := range d.Hits {
		if h.Bounded {
			return true
		}
	}
	return false
}

// refusal is the file system's part of a ledger error: "open PATH: permission
// denied".
func refusal(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + " " + pe.Path + ": " + pe.Err.Error()
	}
	return err.Error()
}

// ptyMode resolves auto to a concrete mode now, so the exec record can say
// which it is before the command starts.
func (g *guard) ptyMode() shim.PTYMode {
	switch g.pty {
	case shim.PTYAlways, shim.PTYNever:
		return g.pty
	}
	if shim.AutoPTY(g.st.in, g.st.out) {
		return shim.PTYAlways
	}
	return shim.PTYNever
}

func (g *guard) execRecord(j *job, a *parse.Analysis, d *policy.Decision) *ledger.Record {
	rec := &ledger.Record{
		Session:    g.session(),
		Cwd:        j.dir,
		Project:    g.projectRoot(),
		Mode:       g.invocation,
		Command:    a.Canonical,
		Raw:        j.script,
		Verdict:    d.Verdict.String(),
		Enforce:    d.Mode.String(),
		Parent:     g.parentID(),
		EnvRemoved: g.envRemoved(),
	}
	for _, h := range d.Hits {
		rec.Rules = append(rec.Rules, ledger.Hit{
			ID: h.Rule.ID, Severity: h.Severity.String(), Message: h.Rule.Message,
			Span: h.Span, Pos: h.Pos.String(),
		})
	}
	return rec
}

func exitRecord(id string, start time.Time, res *shim.Result, runErr error) *ledger.Record {
	r := &ledger.Record{Kind: ledger.KindExit, ID: id}
	if runErr != nil || res == nil {
		code := exitGuardFailed
		r.Exit = &code
		r.DurationMS = ms(time.Since(start))
		r.Incomplete = true
		return r
	}
	code := res.ExitCode
	r.Exit = &code
	r.Signal = res.Signal
	r.DurationMS = ms(res.Duration)
	r.Stdout = streamInfo(res.Stdout)
	if !res.Merged {
		r.Stderr = streamInfo(res.Stderr)
	}
	r.Digest = digest(res)
	r.TimedOut = res.TimedOut
	r.Incomplete = res.Incomplete
	return r
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// warn prints the one warning line of a warned command, naming the first
// hit that is not quiet.
func (g *guard) warn(d *policy.Decision) {
	var loud []policy.Hit
	for _, h := range d.Hits {
		if !h.Rule.Quiet {
			loud = append(loud, h)
		}
	}
	if len(loud) == 0 {
		return
	}
	h := loud[0]
	note := adviseNote(d)
	if note == "" && (g.nested() || g.sandboxedUnrecorded()) {
		// A guard inside a guarded command (a script's bash through the
		// shim) records its warning but does not print it: the line would
		// become part of the program's own stderr, which test suites and
		// callers compare, and the command runs either way. So does one
		// that lost its environment inside a sandbox (cannotRecord).
		return
	}
	if h.Bounded {
		note += " (a warning, not a hold: the sandbox keeps it inside the write roots)"
	}
	fmt.Fprintf(g.st.err, "guard-exec: warning: %s: %s%s%s\n", h.Rule.ID, h.Rule.Message, note, more(loud))
}

// reportBlock explains a held or denied command on stderr: which rule and
// why, what to do instead, and how a person can let it through once.
func (g *guard) reportBlock(d *policy.Decision, id string) {
	h := d.Hits[0]
	word := "held"
	if d.Verdict == policy.Deny {
		word = "denied"
	}
	where := ""
	if h.Span != "" {
		where = fmt.Sprintf(" (%s: %s)", h.Pos, h.Span)
	}
	if d.Verdict == policy.Hold && g.answeredNo {
		// The person just read the hold on the terminal and said no: one
		// line, no second offer to approve what they refused.
		fmt.Fprintf(g.st.err, "guard-exec: held: %s: not run (answered no)\n", h.Rule.ID)
		return
	}
	fmt.Fprintf(g.st.err, "guard-exec: %s: %s: %s%s%s\n", word, h.Rule.ID, h.Rule.Message, where, more(d.Hits))
	fmt.Fprintf(g.st.err, "guard-exec: hint: %s\n", h.Rule.Hint)
	switch {
	case d.Verdict == policy.Deny:
		fmt.Fprintf(g.st.err, "guard-exec: denied commands never run; only the user configuration can change that\n")
	case g.inCI():
		// Nobody is at a terminal in CI: approving is no next step there.
		fmt.Fprintf(g.st.err, "guard-exec: nobody can approve it in CI; if the command is intended, lower the rule in the CI machine's configuration (~/.config/guard-exec/config.toml or /etc/guard-exec/config.toml): [severity] %s = \"warn\"%s\n", h.Rule.ID, recordedAs(id))
	case id != "":
		fmt.Fprintf(g.st.err, "guard-exec: a person can allow it once with `guard-exec approve %s` at a terminal, then the same command may be retried\n", id)
	default:
		fmt.Fprintf(g.st.err, "guard-exec: a person can allow it once by running it at a terminal\n")
	}
}

// more names the other rules that matched, after the first.
func more(hits []policy.Hit) string {
	var ids []string
	seen := map[string]bool{hits[0].Rule.ID: true}
	for _, h := range hits[1:] {
		if !seen[h.Rule.ID] {
			seen[h.Rule.ID] = true
			ids = append(ids, h.Rule.ID)
		}
	}
	if len(ids) == 0 {
		return ""
	}
	return " [also: " + strings.Join(ids, ", ") + "]"
}

// inCI reports whether the command runs where nobody answers: --ci,
// GitHub Actions, or the CI variable most CI services set.
func (g *guard) inCI() bool {
	switch g.vars["CI"] {
	case "true", "1", "yes":
		return true
	}
	return g.ci
}

func recordedAs(id string) string {
	if id == "" {
		return ""
	}
	return " (recorded as " + id + ")"
}
