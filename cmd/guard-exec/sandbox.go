package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/guard-exec/guard-exec/internal/paths"
	"github.com/guard-exec/guard-exec/internal/sandbox"
	"github.com/guard-exec/guard-exec/ledger"
	"github.com/guard-exec/guard-exec/parse"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/shim"
)

// sandboxMissing is the messages' "this kernel has no Landlock", or what
// is missing elsewhere.
var sandboxMissing = strings.Replace(sandbox.Missing, "the kernel", "this kernel", 1)

// sandboxRun is the boundary of one command.
type sandboxRun struct {
	mode      policy.SandboxMode
	abi       int
	mech      string // landlock, seatbelt; "": none here
	inherited bool   // started inside a sandboxed command: bounded by its sandbox
	spec      *sandbox.Spec
	cov       sandbox.Coverage
	journal   *sandbox.Journal
	started   bool
	// fullJournal: the protected files' contents were journaled (no
	// mount namespace), not only which of them were absent.
	fullJournal bool
}

// sandboxMode is --sandbox, else the configuration's.
func (g *guard) sandboxMode() policy.SandboxMode {
	if g.sandbox != nil {
		return *g.sandbox
	}
	return g.config().Sandbox.Mode
}

// inSandbox reports whether this guard runs inside a sandboxed command:
// the guard around it says so (nest.go), and the guard believes it only
// together with the kernel's word (confined): on Linux the no_new_privs
// flag, which every sandboxed process has and nothing inside it can clear;
// on macOS a write the Seatbelt profile refuses. A nested guard cannot
// mount, and its ledger is read-only to it.
func (g *guard) inSandbox() (policy.SandboxMode, bool) {
	m := g.hookSandbox
	if o := g.outer(); o != nil {
		m = o.sandbox
	}
	if m == policy.SandboxOff || !confined(g) {
		return policy.SandboxOff, false
	}
	return m, true
}

// sandboxFor plans the boundary of a command run in dir; nil when off.
func (g *guard) sandboxFor(dir string) *sandboxRun {
	if m, ok := g.inSandbox(); ok {
		return &sandboxRun{mode: m, abi: sandbox.ABI(), mech: sandbox.Mechanism(), inherited: true}
	}
	m := g.sandboxMode()
	if m == policy.SandboxOff {
		return nil
	}
	sb := &sandboxRun{mode: m, abi: sandbox.ABI(), mech: sandbox.Mechanism()}
	if sb.mech == "" {
		return sb
	}
	x := g.boundaryCtx(dir)
	spec := &sandbox.Spec{Mode: sandbox.Mode(m)}
	spec.WriteRoots = append(spec.WriteRoots, x.WriteRoots...)
	spec.WriteRoots = append(spec.WriteRoots, g.config().Sandbox.AllowRoots...)
	gd := gitDirsOf(x.Project)
	for _, d := range []string{gd.dir, gd.common} {
		if d != "" && !within(d, x.Project) {
			spec.WriteRoots = append(spec.WriteRoots, d) // a worktree's git directory lives elsewhere
		}
	}
	spec.Protected = g.protectedPaths(x.Project, gd)
	spec.Live = []string{ledger.Location(x.Project, g.getenv), paths.StateDir(g.getenv)}
	sb.spec = spec
	return sb
}

// protectedPaths are what no sandboxed command may change, even inside
// the project (SPEC §4.6).
func (g *guard) protectedPaths(proj string, gd gitDirs) []string {
	out := []string{
		ledger.Location(proj, g.getenv),
		paths.UserConfigDir(g.getenv), paths.SystemConfigDir,
		paths.StateDir(g.getenv), paths.ShimDir(g.getenv), paths.CacheDir(g.getenv),
	}
	if exe, err := os.Executable(); err == nil {
		out = append(out, exe)
	}
	if proj != "" {
		out = append(out, filepath.Join(proj, paths.ProjectConfigName))
		for _, a := range agentSettingDirs {
			out = append(out, filepath.Join(proj, a))
		}
	}
	if h := g.vars["HOME"]; filepath.IsAbs(h) {
		for _, a := range agentSettingDirs {
			out = append(out, filepath.Join(h, a))
		}
	}
	for _, d := range []string{gd.common, gd.dir} {
		if d != "" {
			out = append(out, filepath.Join(d, "hooks"), filepath.Join(d, "config"), filepath.Join(d, "config.worktree"))
		}
	}
	out = append(out, gd.hooksPaths(proj)...)
	var keep []string
	for _, p := range out {
		if p != "" && !containsString(keep, p) {
			keep = append(keep, p)
		}
	}
	return keep
}

// agentSettingDirs hold the hook and permission settings of the agents
// guard-exec stands guard for: a command that rewrote them would switch
// the guard off for the next one.
var agentSettingDirs = []string{".claude", ".codex", ".gemini"}

func containsString(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func within(p, dir string) bool {
	return dir != "" && (p == dir || strings.HasPrefix(p, dir+"/"))
}

// starter is the shim.Spec.Start of a sandboxed command. The journal is
// taken before the command starts: of the absent protected paths always,
// of the contents where no mount namespace will bind them read-only.
func (sb *sandboxRun) starter() func(fork func() (int, error)) error {
	if sb == nil || sb.inherited || sb.spec == nil || sb.mech == "seatbelt" {
		return nil // Seatbelt wraps the command instead (wrap)
	}
	return func(fork func() (int, error)) error {
		full := !sandbox.CanMountNS()
		j := sandbox.TakeJournal(sb.spec, full)
		cov, err := sandbox.Start(fork, sb.spec)
		sb.cov, sb.started = cov, err == nil
		if err == nil {
			sb.journal, sb.fullJournal = j, full && !cov.MountNS
		}
		return err
	}
}

// wrap makes a command that runs under Seatbelt (macOS) sandbox-exec's,
// with the profile of its sandbox; Landlock needs nothing of the kind (its
// starter forks the command from a restricted thread). Nothing is
// journaled under Seatbelt: the profile denies the protected paths by
// name, those that do not exist yet too.
func (sb *sandboxRun) wrap(spec *shim.Spec) error {
	if sb == nil || sb.inherited || sb.spec == nil || sb.mech != "seatbelt" {
		return nil
	}
	path, argv, cov, err := sandbox.Wrap(spec.Path, spec.Argv, spec.Env, sb.spec)
	if err != nil {
		return err
	}
	spec.Path, spec.Argv = path, argv
	sb.cov, sb.started = cov, true
	return nil
}

// insideSandbox reports whether the command runs inside another's sandbox.
func (sb *sandboxRun) insideSandbox() bool { return sb != nil && sb.inherited }

func (sb *sandboxRun) abiOf() int {
	if sb == nil {
		return 0
	}
	return sb.abi
}

// nestedMode is the mode a guard started inside the command learns it runs
// under (nest.go): off where nothing bounds the command.
func (sb *sandboxRun) nestedMode() policy.SandboxMode {
	if sb == nil || (sb.mech == "" && !sb.inherited) {
		return policy.SandboxOff
	}
	return sb.mode
}

// runUnrecorded runs a command inside another's sandbox when the ledger
// cannot be written: there it is read-only by design, and the command is
// bounded by the kernel and recorded as part of the command that started
// it. Everything else (the analysis, holds) happened as usual.
func (g *guard) runUnrecorded(ctx context.Context, j *job, a *parse.Analysis, sb *sandboxRun) error {
	spec := &shim.Spec{
		Path: j.path, Argv: j.argv, Dir: j.dir,
		Stdin: g.st.in, Stdout: g.st.out, Stderr: g.st.err,
		PTY: g.ptyMode(), Timeout: g.timeout,
		Env: g.childEnv(),
	}
	res, err := shim.Run(ctx, spec)
	if err != nil {
		return fmt.Errorf("starting %s: %w", j.path, err)
	}
	return status(res.ExitCode)
}

// recordName is what the exec record's sandbox field says.
func (sb *sandboxRun) recordName() string {
	switch {
	case sb == nil:
		return ""
	case sb.mech == "" && !sb.inherited:
		return sb.mode.String() + " (unavailable)"
	case sb.inherited:
		return sb.mode.String() + " (inherited)"
	}
	return sb.mode.String()
}

// protection is what the exit record says kept the protected paths.
func (sb *sandboxRun) protection() string {
	switch {
	case sb == nil || !sb.started:
		return ""
	case sb.cov.Seatbelt:
		return "seatbelt"
	case sb.cov.MountNS:
		return "mount-namespace"
	case sb.fullJournal:
		return "journal"
	}
	return "landlock"
}

// unavailable handles a sandbox the kernel cannot give: with required
// (the default) the command is held, otherwise it runs with a warning. It
// reports whether the command may run.
func (g *guard) sandboxUnavailable(sb *sandboxRun, rec *ledger.Record) bool {
	if sb == nil || sb.mech != "" || sb.inherited {
		return true
	}
	if !g.config().Sandbox.Required {
		fmt.Fprintf(g.st.err, "guard-exec: warning: sandbox-unavailable: [sandbox] mode = %q but %s; nothing is enforced (required = false)\n", sb.mode, sandboxMissing)
		return true
	}
	const why = sandbox.Missing + ", so the sandbox this configuration requires cannot be made"
	rec.Kind = ledger.KindDecision
	rec.Verdict = policy.Hold.String()
	rec.Rules = append(rec.Rules, ledger.Hit{ID: "sandbox-unavailable", Severity: "hold", Message: why})
	if led, err := g.book(); err == nil {
		if _, err := led.Append(rec); err != nil {
			fmt.Fprintf(g.st.err, "guard-exec: error: ledger: %v\n", err)
		}
	}
	fmt.Fprintf(g.st.err, "guard-exec: held: sandbox-unavailable: %s ([sandbox] mode = %q)\n", why, sb.mode)
	fmt.Fprintf(g.st.err, "guard-exec: hint: run on Linux 5.13+ with Landlock enabled or on macOS (Seatbelt), or a person sets [sandbox] required = false (runs unsandboxed, with a warning) or mode = \"off\" in the user configuration\n")
	return false
}

// after finishes a sandboxed command: puts journaled files back, and
// explains a permission error the kernel gave for a path outside the roots.
func (g *guard) sandboxAfter(sb *sandboxRun, res *shim.Result) {
	if sb == nil || !sb.started {
		return
	}
	if sb.journal != nil {
		aside := filepath.Join(ledger.Location(g.projectRoot(), g.getenv), "quarantine")
		for _, p := range sb.journal.Restore(aside) {
			fmt.Fprintf(g.st.err, "guard-exec: sandbox: %s is protected from sandboxed commands; what the command changed there was undone or moved aside\n", p)
		}
	}
	if res == nil || res.ExitCode == 0 {
		return
	}
	out := res.Stderr
	if res.Merged {
		out = res.Stdout
	}
	text := append(append([]byte(nil), out.Head...), out.Tail...)
	if p, prot := refusedPath(text, sb.spec, g.workdir()); p != "" {
		if prot {
			fmt.Fprintf(g.st.err, "guard-exec: sandbox: %s is protected from sandboxed commands (ledger, guard-exec's files, git hooks and config, agent settings); change it outside the sandbox\n", p)
			return
		}
		fmt.Fprintf(g.st.err, "guard-exec: sandbox: the kernel refused a write to %s, outside the sandbox's write roots; a person can widen them with [sandbox] allow_roots in %s\n",
			p, tildeOf(paths.UserConfigFile(g.getenv), g.vars["HOME"]))
	}
}

func tildeOf(p, home string) string {
	if home != "" && home != "/" && strings.HasPrefix(p, home+"/") {
		return "~" + p[len(home):]
	}
	return p
}

// refusalMarks are how programs print EACCES, EPERM and EROFS.
var refusalMarks = []string{"Permission denied", "Operation not permitted", "Read-only file system", "EACCES", "EPERM", "EROFS"}

// refusedPath finds, in a failed command's output, a path on a line that
// reports a refusal, which the sandbox does not let the command write:
// outside every root, or protected. prot says which.
func refusedPath(out []byte, s *sandbox.Spec, cwd string) (p string, prot bool) {
	if s == nil {
		return "", false
	}
	for _, line := range strings.Split(string(out), "\n") {
		if !hasRefusal(line) {
			continue
		}
		for _, w := range pathWords(line) {
			if !filepath.IsAbs(w) {
				w = filepath.Join(cwd, w)
			}
			w = filepath.Clean(w)
			for _, q := range s.Protected {
				if within(w, q) {
					return w, true
				}
			}
			if !underAny(w, s.WriteRoots) {
				return w, false
			}
		}
	}
	return "", false
}

func hasRefusal(line string) bool {
	for _, m := range refusalMarks {
		if strings.Contains(line, m) {
			return true
		}
	}
	return false
}

// pathWords are the words of a line that look like paths: what error
// messages quote ('x', ‘x’, "x") or a word with a slash.
func pathWords(line string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(line, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\'' || r == '"' || r == '‘' || r == '’' || r == '`'
	}) {
		f = strings.TrimRight(f, ":,;")
		if strings.Contains(f, "/") && !strings.Contains(f, "://") {
			out = append(out, f)
		}
	}
	return out
}

func underAny(p string, roots []string) bool {
	for _, r := range roots {
		if within(p, r) || r == "/" {
			return true
		}
		if rr, err := filepath.EvalSymlinks(r); err == nil && within(p, rr) {
			return true
		}
	}
	for _, d := range []string{"/dev/null", "/dev/tty", "/dev/pts", "/dev/zero", "/dev/full"} {
		if within(p, d) {
			return true
		}
	}
	return false
}

// execSandboxed replaces guard-exec with an interactive shell inside the
// sandbox. The lines typed into it are judged by the DEBUG trap as usual,
// and bounded by the kernel as they run. Without a kernel sandbox it runs
// unsandboxed with a warning even when the sandbox is required: a person
// is never locked out of their own shell (the lines are still judged).
func (g *guard) execSandboxed(sb *sandboxRun, real string, argv, env []string) error {
	if sb.mech == "" {
		fmt.Fprintf(g.st.err, "guard-exec: warning: sandbox-unavailable: [sandbox] mode = %q but %s; this interactive shell runs unsandboxed\n", sb.mode, sandboxMissing)
		return fmt.Errorf("starting %s: %w", real, syscall.Exec(real, argv, env))
	}
	_, err := sandbox.Exec(real, argv, env, sb.spec)
	return fmt.Errorf("starting %s in the sandbox: %w", real, err)
}

// sandboxInForce reports whether commands will run under the kernel
// sandbox, so the decision may count on it (policy's Bounded rules).
func (g *guard) sandboxInForce() bool {
	if _, ok := g.inSandbox(); ok {
		return true // the interactive guard's hook too: the person's shell is sandboxed
	}
	switch g.invocation {
	case "shell", "shim", "script", "argv", "":
		// "": explain, which says what running the command would do
	default:
		return false // check and hooks judge commands that run elsewhere, unsandboxed
	}
	return g.sandboxMode() != policy.SandboxOff && sandbox.Mechanism() != ""
}
