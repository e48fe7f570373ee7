package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/guard-exec/guard-exec/ledger"
	"github.com/guard-exec/guard-exec/parse"
	"github.com/guard-exec/guard-exec/policy"
)

// maxHookInput bounds the hook JSON read from stdin: a command is at most
// 1 MiB, and JSON escaping can double it.
const maxHookInput = 4 << 20

// hookRun is one hook call: the agent's command, where it runs, and the
// session it belongs to.
type hookRun struct {
	command string
	cwd     string
	session string
}

// runHook answers an agent's pre-tool hook with guard-exec's verdict, so
// people who prefer hooks to a shell stand-in get the same engine. Nothing
// runs: the agent runs the command itself when the answer lets it. Every
// decision is recorded in the ledger (mode hook).
func runHook(_ context.Context, g *guard, args []string) error {
	g.invocation = "hook"
	kind := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		kind, args = args[0], args[1:]
	}
	fs := g.flags("hook")
	fs.BoolVar(&g.ci, "ci", false, "deny held commands instead of asking (no person will answer)")
	modeFlag := fs.String("mode", "", "judge in `MODE`: enforce, advise or audit")
	command := fs.StringP("command", "c", "", "the `LINE` to judge (hook shell)")
	ranFd := fs.Int("ran-fd", -1, "hook shell: write the exec record's id of an approved line to `FD`")
	exitOf := fs.String("exit", "", "hook shell: record how the approved line `ID` ended (with --status)")
	exitStatus := fs.Int("status", 0, "hook shell --exit: the line's exit `STATUS`")
	sandboxed := fs.String("sandboxed", "", "hook shell: the shell runs in the kernel sandbox in `MODE`")
	fs.StringVar(&g.recorder, "recorder", "", "hook shell: the guard outside the sandbox records at `SOCKET`")
	// The interactive shell's own plumbing (interactive.go), not for people.
	for _, f := range []string{"ran-fd", "exit", "status", "sandboxed", "recorder"} {
		_ = fs.MarkHidden(f)
	}
	err := g.parseFlags(fs, args)
	if code, ok := errStatus(err); ok && err != nil && code == 0 {
		return err // --help
	}
	if err == nil && *modeFlag != "" {
		err = g.setOwnFlag("--mode", *modeFlag)
	}
	if err == nil && *sandboxed != "" {
		if kind != "shell" {
			err = usagef("--sandboxed is the interactive shell's (hook shell)")
		} else if g.hookSandbox, err = policy.ParseSandboxMode(*sandboxed); err != nil {
			err = usagef("--sandboxed: %v", err)
		}
	}
	if err == nil && g.recorder != "" && (kind != "shell" || !filepath.IsAbs(g.recorder)) {
		err = usagef("--recorder is the sandboxed interactive shell's (hook shell), and an absolute path")
	}
	if err == nil && fs.NArg() > 0 {
		err = usagef("hook %s takes no operands (got %q)", kind, fs.Arg(0))
	}
	switch kind {
	case "claude", "gemini":
		// The agent runs the tool call unless the hook exits 2: a hook
		// that cannot judge, for whatever reason, blocks.
		if err != nil {
			return g.hookBlock(err.Error() + " (fix the hook's command in the agent's settings)")
		}
		if kind == "claude" {
			return g.hookClaude()
		}
		return g.hookGemini()
	case "shell":
		if err == nil && *exitOf != "" {
			return g.hookShellExit(*exitOf, *exitStatus)
		}
		if err == nil && !fs.Changed("command") {
			err = usagef("hook shell needs -c 'LINE'")
		}
		if err != nil {
			return err
		}
		return g.hookShell(*command, *ranFd)
	case "":
		err = usagef("hook needs claude, gemini or shell")
	default:
		err = usagef("hook: unknown agent %q%s (want claude, gemini or shell)", kind, verbHint(kind, lookupCommand("hook").verbs))
	}
	// An unknown or missing agent is a hook set up wrong: it may well be
	// an agent's hook, so it blocks as theirs would.
	return g.hookBlock(err.Error())
}

// judge decides a hook's command in its working directory and records the
// decision.
func (g *guard) judge(h *hookRun) (*policy.Decision, string) {
	if h.cwd != "" && filepath.IsAbs(h.cwd) {
		g.cwd = filepath.Clean(h.cwd)
	}
	dir := g.workdir()
	a := g.analyze(h.command, parse.Bash, nil, dir)
	d := g.policyEngine().Decide(a, g.decisionCtx(dir))
	rec := g.execRecord(&job{script: h.command, dir: dir}, a, d)
	rec.Kind = ledger.KindDecision
	if h.session != "" && g.vars["GUARD_EXEC_SESSION"] == "" {
		rec.Session = h.session
	}
	id := ""
	led, err := g.hookBook() // recorder.go
	if err == nil {
		id, err = led.Append(rec)
	}
	if err != nil && !g.ledgerKeptFromHook(err) {
		g.ledgerWarn(err)
	}
	return d, id
}

// ledgerKeptFromHook reports whether the ledger failed because the kernel
// sandbox keeps it read-only to the interactive shell the hook judges
// for: the shell said so once as it started (interactiveRC), and saying
// it again on every line would bury the line's own output.
func (g *guard) ledgerKeptFromHook(err error) bool {
	_, ok := g.inSandbox()
	return ok && g.hookSandbox != policy.SandboxOff && refusedByKernel(g, err)
}

// reason is the one-paragraph explanation an agent or a person reads in
// the hook's answer: which rule, why, where, and what to do instead.
func reason(d *policy.Decision) string {
	h := d.Hits[0]
	word := map[policy.Severity]string{policy.Warn: "warning", policy.Hold: "held", policy.Deny: "denied"}[d.Verdict]
	if word == "" {
		word = "allowed"
	}
	where := ""
	if h.Span != "" {
		where = fmt.Sprintf(" (%s: %s)", h.Pos, h.Span)
	}
	return fmt.Sprintf("guard-exec: %s: %s: %s%s%s; hint: %s", word, h.Rule.ID, h.Rule.Message, where, more(d.Hits), h.Rule.Hint)
}

// readHookInput reads and decodes the hook's JSON; the error says what is
// wrong without echoing the input (it may hold secrets).
func (g *guard) readHookInput(v any) error {
	b, err := io.ReadAll(io.LimitReader(g.st.in, maxHookInput+1))
	if err != nil {
		return fmt.Errorf("reading the hook input: %w", err)
	}
	if len(b) > maxHookInput {
		return errors.New("the hook input is larger than 4 MiB")
	}
	if err := json.Unmarshal(b, v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("the hook input is not JSON (byte %d)", se.Offset)
		}
		return fmt.Errorf("the hook input is not the expected JSON object: %v", err)
	}
	return nil
}

// toolCall is the part of a pre-tool hook's input guard-exec reads; Claude
// Code and Gemini CLI share these field names.
type toolCall struct {
	SessionID      string          `json:"session_id"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	PermissionMode string          `json:"permission_mode"`
	ToolName       *string         `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
}

type shellInput struct {
	Command   *string `json:"command"`
	Directory string  `json:"directory"` // Gemini CLI, relative to cwd
	DirPath   string  `json:"dir_path"`  // Gemini CLI, newer name
}

// command extracts the shell command of a tool call.
func (t *toolCall) command() (*hookRun, error) {
	var in shellInput
	if len(t.ToolInput) == 0 || json.Unmarshal(t.ToolInput, &in) != nil || in.Command == nil {
		return nil, errors.New(`the hook input has no tool_input.command string`)
	}
	h := &hookRun{command: *in.Command, cwd: t.Cwd}
	if d := firstNonEmpty(in.DirPath, in.Directory); d != "" {
		if filepath.IsAbs(d) {
			h.cwd = d
		} else if filepath.IsAbs(t.Cwd) {
			h.cwd = filepath.Join(t.Cwd, d)
		}
	}
	return h, nil
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// Claude Code's PreToolUse contract: exit 0 with a JSON answer on stdout
// (hookSpecificOutput.permissionDecision allow|deny|ask, with a reason), or
// exit 2 to block with the reason on stderr. Any other status lets the
// call through, so every failure here is exit 2.
type claudeAnswer struct {
	SystemMessage      string          `json:"systemMessage,omitempty"`
	HookSpecificOutput *claudeDecision `json:"hookSpecificOutput,omitempty"`
	GuardExec          *hookVerdict    `json:"guardExec,omitempty"`
}

// hookVerdict is guard-exec's answer in fields a program reads, beside
// the agent's own: the agents ignore keys they do not know.
type hookVerdict struct {
	Verdict string `json:"verdict"`
	RuleID  string `json:"ruleId"`
	Message string `json:"message"`
	Hint    string `json:"hint"`
	ID      string `json:"id,omitempty"` // the ledger record of the decision
}

func newHookVerdict(d *policy.Decision, id string) *hookVerdict {
	h := d.Hits[0]
	return &hookVerdict{Verdict: d.Verdict.String(), RuleID: h.Rule.ID, Message: h.Rule.Message, Hint: h.Rule.Hint, ID: id}
}

type claudeDecision struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

const claudeBlock = 2

func (g *guard) hookClaude() error {
	t, h, err := g.hookShellCall("PreToolUse", "Bash", "claude:")
	if err != nil || h == nil {
		return err // a failure, or not a shell command: nothing to judge
	}
	d, id := g.judge(h)
	var ans claudeAnswer
	if len(d.Hits) > 0 {
		ans.GuardExec = newHookVerdict(d, id)
	}
	switch {
	case d.Mode == policy.Audit || d.Verdict == policy.Allow:
		return nil // no opinion: Claude Code's own permission rules apply
	case d.Verdict == policy.Warn:
		ans.SystemMessage = reason(d)
	default:
		dec := "deny"
		if d.Verdict == policy.Hold && !g.ci && claudeCanAsk(t.PermissionMode) {
			dec = "ask" // a person answers Claude Code's prompt: that is a hold
		}
		ans.HookSpecificOutput = &claudeDecision{HookEventName: "PreToolUse", PermissionDecision: dec,
			PermissionDecisionReason: reason(d)}
	}
	return newJSONEncoder(g.st.out).Encode(ans)
}

// hookShellCall reads a hook's tool call. It returns the command to judge
// when the call is to shellTool before it runs (event), with the agent's
// session named by prefix; a nil run when it is another tool or another
// event (after a tool ran there is nothing left to stop, and an "ask"
// there would be a question about the past); and a blocking status (after
// saying why on stderr) when the input is unreadable: both agents block on
// exit 2.
func (g *guard) hookShellCall(event, shellTool, prefix string) (*toolCall, *hookRun, error) {
	var t toolCall
	if err := g.readHookInput(&t); err != nil {
		return nil, nil, g.hookBlock(err.Error())
	}
	if t.HookEventName != "" && t.HookEventName != event {
		return &t, nil, nil
	}
	if t.ToolName == nil {
		return nil, nil, g.hookBlock("the hook input has no tool_name")
	}
	if *t.ToolName != shellTool {
		return &t, nil, nil
	}
	h, err := t.command()
	if err != nil {
		return nil, nil, g.hookBlock(err.Error())
	}
	if t.SessionID != "" {
		h.session = prefix + t.SessionID
	}
	return &t, h, nil
}

func (g *guard) hookBlock(why string) error {
	fmt.Fprintf(g.st.err, "guard-exec: error: %s; blocking the tool call\n", why)
	return status(claudeBlock)
}

// claudeCanAsk reports whether Claude Code will put an "ask" in front of a
// person. In bypassPermissions and dontAsk modes nobody is asked, so a hold
// becomes a denial rather than risk an automatic yes.
func claudeCanAsk(mode string) bool {
	switch mode {
	case "bypassPermissions", "dontAsk":
		return false
	}
	return true
}

// Gemini CLI's BeforeTool contract: exit 0 with JSON on stdout
// ({"decision":"deny","reason":…} blocks and tells the agent why; {} lets
// the call go on), or exit 2 to block with the reason on stderr. Gemini
// has no "ask" for hooks, so a hold is a denial.
type geminiAnswer struct {
	Decision      string       `json:"decision,omitempty"`
	Reason        string       `json:"reason,omitempty"`
	SystemMessage string       `json:"systemMessage,omitempty"`
	GuardExec     *hookVerdict `json:"guardExec,omitempty"`
}

const geminiShellTool = "run_shell_command"

func (g *guard) hookGemini() error {
	_, h, err := g.hookShellCall("BeforeTool", geminiShellTool, "gemini:")
	enc := newJSONEncoder(g.st.out)
	if err != nil {
		return err
	}
	if h == nil {
		return enc.Encode(geminiAnswer{}) // not a shell command: let it go on
	}
	d, id := g.judge(h)
	var ans geminiAnswer
	if d.Mode != policy.Audit && len(d.Hits) > 0 {
		ans.GuardExec = newHookVerdict(d, id)
	}
	switch {
	case d.Mode == policy.Audit || d.Verdict == policy.Allow:
	case d.Verdict == policy.Warn:
		ans.SystemMessage = reason(d)
	default:
		ans.Decision, ans.Reason = "deny", reason(d)
	}
	return enc.Encode(ans)
}

// hookShell judges one line for the interactive shell's DEBUG trap: 0 runs
// it, 126 skips it. A hold asks the person at the terminal, as a hold
// does everywhere. An approved line is recorded as what it is: the
// approval (with the command), then an exec record linked to it, whose id
// goes to ranFd so that the shell can record the line's exit at the next
// prompt (hook shell --exit).
func (g *guard) hookShell(line string, ranFd int) error {
	if strings.TrimSpace(line) == "" {
		return nil
	}
	d, id := g.judge(&hookRun{command: line})
	switch {
	case d.Mode == policy.Audit || d.Verdict == policy.Allow:
		return nil
	case d.Verdict == policy.Warn:
		g.warn(d)
		return nil
	case d.Verdict == policy.Hold && g.askAtTerminal(d):
		if run := g.recordApproval(id); run != "" && ranFd > 2 {
			f := os.NewFile(uintptr(ranFd), "ran")
			fmt.Fprintln(f, run)
			f.Close()
		}
		return nil
	}
	g.reportBlock(d, id)
	return status(exitBlocked)
}

// recordApproval records a person's yes at the terminal for the hook
// decision ref, and the run it lets happen (the shell runs the line
// itself, right after). It returns the exec record's id, or "".
func (g *guard) recordApproval(ref string) string {
	led, err := g.hookBook()
	if err != nil || ref == "" {
		return ""
	}
	dec, err := heldDecision(led, ref)
	if err != nil {
		return ""
	}
	appr := &ledger.Record{Kind: ledger.KindApproval, Ref: ref, Mode: "tty", Session: dec.Session,
		Cwd: dec.Cwd, Project: dec.Project, Command: dec.Command, Raw: dec.Raw, Verdict: dec.Verdict, Rules: dec.Rules}
	aid, err := led.Append(appr)
	if err != nil {
		g.ledgerWarn(err)
		return ""
	}
	run := *dec
	run.ID, run.Time, run.Prev, run.Kind, run.Ref, run.IO = "", "", "", ledger.KindExec, aid, "tty"
	eid, err := led.Append(&run)
	if err != nil {
		g.ledgerWarn(err)
		return ""
	}
	return eid
}

// hookShellExit records how an approved line of the interactive shell
// ended: the shell passes the status it saw at the next prompt.
func (g *guard) hookShellExit(id string, code int) error {
	id, ok := recordID(id)
	if !ok {
		return usagef("hook shell --exit: %q is not an id such as ev-0042", id)
	}
	led, err := g.hookBook()
	if err != nil {
		return g.ledgerFailure(err)
	}
	recs, err := led.Find(id)
	if err != nil {
		return err
	}
	var run *ledger.Record
	for i := range recs {
		switch r := &recs[i]; {
		case r.Kind == ledger.KindExit && r.ID == id:
			return fmt.Errorf("hook shell --exit: %s has its exit recorded already", id)
		case r.Kind == ledger.KindExec && r.ID == id:
			run = r
		}
	}
	if run == nil {
		return fmt.Errorf("hook shell --exit: %s is not a run", id)
	}
	exit := &ledger.Record{Kind: ledger.KindExit, ID: id, Exit: &code}
	if start, err := time.Parse(time.RFC3339Nano, run.Time); err == nil {
		exit.DurationMS = ms(time.Since(start))
	}
	if code > 128 && code < 128+65 {
		exit.Signal = unix.SignalName(syscall.Signal(code - 128))
	}
	_, err = led.Append(exit)
	return err
}
