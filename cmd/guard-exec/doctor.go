package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/guard-exec/guard-exec/internal/buildinfo"
	"github.com/guard-exec/guard-exec/internal/paths"
	"github.com/guard-exec/guard-exec/ledger"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/shim"
)

// probeCommand must be held by any working guard. The probes run it with a
// fake git first on PATH, so even a guard that fails to hold it runs
// nothing but the fake, which leaves a marker.
const probeCommand = "git push --force origin main"

// probeTimeout bounds one probe.
const probeTimeout = 10 * time.Second

// doctor collects its checks, then prints them (or JSON); it exits 1 when
// any needs attention. A check that is a way in not in use (no shim, a
// SHELL that is not guard-exec) is soft: it needs attention only when no
// other way in is set up, so a setup through hooks alone is healthy.
type doctor struct {
	g          *guard
	hookProbes []hookSetting // the hooks found, probed live
	checks     []doctorCheck
	current    string   // the section being checked
	ways       []string // the ways in that are set up and working
}

// doctorCheck is one line of the report.
type doctorCheck struct {
	Section string `json:"section"`
	Status  string `json:"status"` // ok, fix, info, or soft until resolve
	Message string `json:"message"`
}

func (dr *doctor) add(status, format string, a ...any) {
	dr.checks = append(dr.checks, doctorCheck{dr.current, status, fmt.Sprintf(format, a...)})
}

func (dr *doctor) ok(format string, a ...any)   { dr.add("ok", format, a...) }
func (dr *doctor) bad(format string, a ...any)  { dr.add("fix", format, a...) }
func (dr *doctor) info(format string, a ...any) { dr.add("info", format, a...) }

// soft is a way in that is not in use: it needs fixing only when no other
// way in is set up (resolve decides).
func (dr *doctor) soft(format string, a ...any) { dr.add("soft", format, a...) }

// way records a way in that is set up and verified.
func (dr *doctor) way(name string) { dr.ways = append(dr.ways, name) }

func (dr *doctor) section(name string) { dr.current = name }

// resolve turns the soft checks into info when another way in is set up,
// and into things to fix when none is; it returns how many need
// attention.
func (dr *doctor) resolve() int {
	n := 0
	for i := range dr.checks {
		c := &dr.checks[i]
		if c.Status == "soft" {
			if len(dr.ways) > 0 {
				c.Status = "info"
				c.Message += " (not needed: " + strings.Join(uniq(dr.ways), ", ") + " is set up)"
			} else {
				c.Status = "fix"
			}
		}
		if c.Status == "fix" {
			n++
		}
	}
	if len(dr.ways) == 0 {
		dr.section("ways in")
		dr.bad("nothing sends commands through guard-exec: install the shim (guard-exec shim install), set SHELL, or add the agent hook (see guard-exec hook --help)")
		n++
	}
	return n
}

func uniq(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// print writes the report for people: sections, one line per check.
func (dr *doctor) print(w io.Writer, self string, issues int) {
	fmt.Fprintf(w, "guard-exec doctor (%s)\n", self)
	last := ""
	for _, c := range dr.checks {
		if c.Section != last {
			fmt.Fprintf(w, "%s\n", c.Section)
			last = c.Section
		}
		label := map[string]string{"ok": "ok", "fix": "FIX", "info": "info", "limit": "-"}[c.Status]
		fmt.Fprintf(w, "  %-5s %s\n", label, c.Message)
	}
	if issues > 0 {
		fmt.Fprintf(w, "%d thing(s) need attention\n", issues)
		return
	}
	fmt.Fprintln(w, "all is well")
}

// runDoctor checks that the guard is really in the way of commands: the
// real shells, the shim, SHELL, the agents' hooks, configuration, the
// ledger, the kernel; then it sends a command that must be held through
// every way in it found and reports whether it was. It ends with what the
// guard cannot see. Exit 0 when nothing needs attention, 1 otherwise.
func runDoctor(ctx context.Context, g *guard, args []string) error {
	fs := g.flags("doctor")
	dirFlag := fs.String("dir", "", "check the shim in `DIR` (default: the install default)")
	asJSON := fs.Bool("json", false, "print the checks as one JSON object")
	if err := g.parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("doctor takes no operands (got %q)", fs.Arg(0))
	}
	dir := *dirFlag
	if dir == "" {
		dir = paths.ShimDir(g.getenv)
	} else if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	dr := &doctor{g: g}
	dr.shells()
	dr.shim(dir)
	dr.shellVar()
	dr.hooks(ctx)
	dr.config()
	dr.ledger()
	dr.sandbox() // sandbox_report.go
	dr.build()
	dr.probes(ctx, dir)
	issues := dr.resolve()
	dr.limits()
	if *asJSON {
		out := struct {
			Guard  string        `json:"guard_exec"`
			OK     bool          `json:"ok"`
			Issues int           `json:"issues"`
			Ways   []string      `json:"ways_in"`
			Checks []doctorCheck `json:"checks"`
		}{self(), issues == 0, issues, uniq(dr.ways), dr.checks}
		if out.Ways == nil {
			out.Ways = []string{}
		}
		enc := newJSONEncoder(g.st.out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		dr.print(g.st.out, self(), issues)
	}
	if issues > 0 {
		return status(exitAttention)
	}
	return nil
}

func (dr *doctor) shells() {
	g := dr.g
	dr.section("real shells")
	for _, name := range shim.Names {
		if p, err := shim.FindShell("bash", g.vars["PATH"], g.pathSet(), self()); err == nil {
			dr.ok("%s: %s%s", name, p, asSh(name))
		} else {
			dr.bad("%s: %v", name, err)
		}
	}
}

func (dr *doctor) shim(dir string) {
	g := dr.g
	dr.section("PATH shim")
	if dir == "" {
		dr.bad("no home directory, so no default shim directory; use --dir")
		return
	}
	pos := shim.OnPath(dir, g.vars["PATH"])
	active := 0
	links := shim.Status(dir, g.vars["PATH"], self())
	for _, l := range links {
		switch {
		case !l.Exists:
			dr.soft("%s is not installed: guard-exec shim install --dir %s", l.Path, dir)
		case !l.Ours:
			dr.bad("%s exists but is not guard-exec", l.Path)
		case l.Target == "":
			dr.bad("%s is a broken link (its guard-exec is gone): guard-exec shim install --dir %s", l.Path, dir)
		case !l.Active():
			dr.bad("%s is installed, but PATH finds %s first: put %s first on PATH", l.Name, orNone(l.Found), dir)
		default:
			dr.ok("%s -> %s, found first on PATH", l.Path, l.Target)
			active++
		}
	}
	if active == len(links) && active > 0 {
		dr.way("the PATH shim")
	}
	if pos < 0 {
		dr.info("%s is not on PATH", dir)
	}
}

// shellVar checks SHELL, which agents and terminals run commands with.
func (dr *doctor) shellVar() {
	g := dr.g
	dr.section("SHELL")
	sh := g.vars["SHELL"]
	switch {
	case sh == "":
		dr.soft("SHELL is not set; set SHELL=%s", self())
	case !filepath.IsAbs(sh) && shim.LookPath(sh, g.vars["PATH"]) == "":
		dr.bad("SHELL=%s is not found", sh)
	default:
		p := sh
		if !filepath.IsAbs(p) {
			p = shim.LookPath(sh, g.vars["PATH"])
		}
		if shim.IsGuardExec(p, self()) {
			dr.ok("SHELL=%s is guard-exec", sh)
			dr.way("SHELL")
		} else {
			dr.soft("SHELL=%s is not guard-exec: agents that run $SHELL -c are not guarded; set SHELL=%s", sh, self())
		}
	}
	dr.claudeShellVars()
}

// config loads the configuration as a command would and reports each
// layer's file: ok only when it was read and every key of it is in force.
func (dr *doctor) config() {
	g := dr.g
	dr.section("configuration")
	res := policy.LoadConfig(g.configOptions(false))
	bad := map[string][]policy.Problem{}
	for _, p := range res.Problems {
		bad[p.File] = append(bad[p.File], p)
	}
	for _, f := range res.Files {
		probs := bad[f.Name]
		delete(bad, f.Name)
		switch {
		case f.State == policy.FileAbsent:
			dr.info("%s (none)", f.Name)
		case f.State == policy.FileSkipped:
			dr.bad("%s is not in force: %s; fix it (guard-exec config check)", f.Name, problemText(probs, "it could not be read"))
		case len(probs) > 0:
			for _, p := range probs {
				dr.bad("%s: the rest of the file is in force; fix it (guard-exec config check)", p)
			}
		default:
			dr.ok("%s (%s layer, in force)", f.Name, f.Layer)
		}
	}
	for _, probs := range bad {
		for _, p := range probs {
			dr.bad("%s", p)
		}
	}
	mode := g.policyEngine().Mode
	if g.mode != nil {
		mode = *g.mode
	}
	switch mode {
	case policy.Enforce:
		dr.ok("mode: enforce")
	default:
		dr.info("mode: %s: held and denied commands run (with a warning in advise mode)", mode)
	}
}

func problemText(probs []policy.Problem, def string) string {
	if len(probs) == 0 {
		return def
	}
	var s []string
	for _, p := range probs {
		if p.Line > 0 {
			s = append(s, fmt.Sprintf("line %d: %s", p.Line, p.Msg))
		} else {
			s = append(s, p.Msg)
		}
	}
	return strings.Join(s, "; ")
}

// ledger reports where evidence goes and whether a record can be appended
// there: a ledger that cannot record stops every guarded command.
func (dr *doctor) ledger() {
	g := dr.g
	dr.section("ledger")
	dir := g.ledgerDir()
	if dir == "" {
		dr.bad("no place for the ledger: set HOME, XDG_STATE_HOME or GUARD_EXEC_LEDGER_DIR")
		return
	}
	if err := ledger.CheckAppendable(dir); err != nil {
		dr.bad("%s cannot be appended to (%v): every guarded command would fail with 125; make it writable by you, or set GUARD_EXEC_LEDGER_DIR to a directory that is", dir, err)
		return
	}
	where := "this project's (the git work tree's)"
	if g.workTree() == "" || dir == ledger.UserLocation(g.getenv) {
		where = "the user's (no git work tree here; each record names its directory)"
	}
	if g.getenv("GUARD_EXEC_LEDGER_DIR") != "" {
		where = "set by GUARD_EXEC_LEDGER_DIR"
	}
	dr.ok("this directory's ledger: %s, %s (appendable)", dir, where)
}

// build says whether this guard-exec links the C runtime: it works, but
// costs every command about 1 ms more (internal/buildinfo).
func (dr *doctor) build() {
	if advice := buildinfo.CgoAdvice(); advice != "" {
		dr.info("%s", advice)
		return
	}
	dr.ok("a static build (no cgo)")
}

// probe is one way a command reaches a shell.
type probe struct {
	label string
	path  string
}

// probes sends the must-hold command through every way in that is set
// up, with a fake git first on PATH, and an ordinary command through the
// shim to show that it runs.
func (dr *doctor) probes(ctx context.Context, dir string) {
	g := dr.g
	dr.section("live probes (" + probeCommand + " must be held)")
	tmp, err := os.MkdirTemp("", "guard-exec-doctor-")
	if err != nil {
		dr.bad("cannot make a scratch directory: %v", err)
		return
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "bin")
	marker := filepath.Join(tmp, "git-ran")
	fake := "#!/bin/sh\n: > '" + marker + "'\necho 'fake git ran'\n"
	if err := os.MkdirAll(bin, 0o755); err != nil || os.WriteFile(filepath.Join(bin, "git"), []byte(fake), 0o755) != nil {
		dr.bad("cannot write the fake git")
		return
	}
	var list []probe
	seen := map[string]bool{}
	add := func(label, p string) {
		if p == "" || seen[filepath.Clean(p)] {
			return
		}
		seen[filepath.Clean(p)] = true
		list = append(list, probe{label, p})
	}
	for _, n := range shim.Names {
		if p := filepath.Join(dir, n); fileExists(p) {
			add("shim "+n, p)
		}
		add("PATH "+n, shim.LookPath(n, g.vars["PATH"]))
	}
	if sh := g.vars["SHELL"]; sh != "" {
		if !filepath.IsAbs(sh) {
			sh = shim.LookPath(sh, g.vars["PATH"])
		}
		add("$SHELL", sh)
	}
	for _, p := range list {
		dr.probe(ctx, p, tmp, bin, marker)
	}
	for _, h := range dr.hookProbes {
		dr.probeHook(ctx, h, tmp, bin, marker)
	}
}

func (dr *doctor) probe(ctx context.Context, p probe, tmp, bin, marker string) {
	os.Remove(marker)
	code, out := dr.run(ctx, p.path, probeCommand, tmp, bin)
	ran := fileExists(marker)
	ours := shim.IsGuardExec(p.path, self())
	switch {
	case ran && !ours:
		dr.soft("%s (%s): NOT held — the command ran; this way in is not guarded", p.label, p.path)
	case ran:
		dr.bad("%s (%s): NOT held — the command ran; this way in is not guarded", p.label, p.path)
	case code == exitBlocked:
		dr.ok("%s (%s): held (exit 126), nothing ran", p.label, p.path)
	case !ours:
		dr.soft("%s (%s): not guard-exec, not held (exit %d)", p.label, p.path, code)
	default:
		dr.bad("%s (%s): not held as expected (exit %d): %s", p.label, p.path, code, firstLine(out))
	}
	if !strings.HasPrefix(p.label, "shim") {
		return
	}
	code, out = dr.run(ctx, p.path, "echo guard-exec-doctor-ok", tmp, bin)
	if code == 0 && strings.Contains(out, "guard-exec-doctor-ok") {
		dr.ok("%s: an ordinary command runs", p.label)
	} else {
		dr.bad("%s: an ordinary command failed (exit %d): %s", p.label, code, firstLine(out))
	}
}

// run starts one probe: SHELL -c CMD with the fake git first on PATH, a
// scratch ledger and directory, and no terminal, so nobody is asked.
func (dr *doctor) run(ctx context.Context, shell, cmd, tmp, bin string) (int, string) {
	return dr.runArgv(ctx, []string{shell, "-c", cmd}, "", tmp, bin)
}

// runArgv runs one probe program with the fake git first on PATH, a
// scratch ledger and directory, stdin as given, and no terminal.
func (dr *doctor) runArgv(ctx context.Context, argv []string, stdin, tmp, bin string) (int, string) {
	g := dr.g
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	c := exec.CommandContext(ctx, argv[0], argv[1:]...)
	c.Stdin = strings.NewReader(stdin)
	c.Dir = tmp
	var env []string
	for _, kv := range g.env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PATH", "GUARD_EXEC_LEDGER_DIR", "GUARD_EXEC_SESSION", "GITHUB_STEP_SUMMARY":
			continue
		}
		env = append(env, kv)
	}
	c.Env = append(env, "PATH="+bin+string(os.PathListSeparator)+g.vars["PATH"],
		"GUARD_EXEC_LEDGER_DIR="+filepath.Join(tmp, "ledger"), "GUARD_EXEC_SESSION=doctor")
	var buf bytes.Buffer
	c.Stdout, c.Stderr = &buf, &buf
	err := c.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		return -1, err.Error()
	}
	out := buf.String()
	if len(out) > 4096 {
		out = out[:4096]
	}
	return code, out
}

func (dr *doctor) limits() {
	dr.section("what the guard cannot see")
	for _, l := range []string{
		"programs that run /bin/sh or /bin/bash by absolute path (the PATH shim is not in their way; SHELL and hooks may be)",
		"programs that exec other programs directly, without a shell (a Python subprocess with a list, make recipes run by /bin/sh)",
		"the agent's own file tools (edit, write, read): they never pass through a shell",
		"code that only exists at run time: a downloaded script, eval of a variable (reported as dynamic, held or warned about)",
		"startup files a login shell reads (-l): ~/.bash_profile and /etc/profile run unanalysed",
	} {
		dr.add("limit", "%s", l)
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
