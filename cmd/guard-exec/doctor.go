package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/sys/unix"

	"github.com/guard-exec/guard-exec/internal/buildinfo"
	"github.com/guard-exec/guard-exec/internal/paths"
	"github.com/guard-exec/guard-exec/ledger"
	"github.com/guard-exec/guard-exec/shim"
)

// probeCommand must be held by any working guard. The probes run it with a
// fake git first on PATH, so even a guard that fails to hold it runs
// nothing but the fake, which leaves a marker.
const probeCommand = "git push --force origin main"

// probeTimeout bounds one probe.
const probeTimeout = 10 * time.Second

// doctor collects what needs attention; it exits 1 when anything does.
type doctor struct {
	g      *guard
	issues int
}

func (dr *doctor) ok(format string, a ...any) {
	fmt.Fprintf(dr.g.st.out, "  ok    "+format+"\n", a...)
}

func (dr *doctor) bad(format string, a ...any) {
	dr.issues++
	fmt.Fprintf(dr.g.st.out, "  FIX   "+format+"\n", a...)
}

func (dr *doctor) info(format string, a ...any) {
	fmt.Fprintf(dr.g.st.out, "  info  "+format+"\n", a...)
}

func (dr *doctor) section(name string) { fmt.Fprintf(dr.g.st.out, "%s\n", name) }

// runDoctor checks that the guard is really in the way of commands: the
// real shells, the shim, SHELL, configuration, the ledger, the kernel; then
// it sends a command that must be held through the shim and through
// $SHELL and reports whether it was. It ends with what the guard cannot
// see. Exit 0 when all is well, 1 when something needs attention.
func runDoctor(ctx context.Context, g *guard, args []string) error {
	fs := pflag.NewFlagSet("doctor", pflag.ContinueOnError)
	fs.SetOutput(g.st.err)
	dirFlag := fs.String("dir", "", "the shim `DIR`ectory to check (default: the install default)")
	if err := g.parseFlags(fs, args); err != nil {
		return err
	}
	dir := *dirFlag
	if dir == "" {
		dir = paths.ShimDir(g.getenv)
	} else if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	dr := &doctor{g: g}
	fmt.Fprintf(g.st.out, "guard-exec doctor (%s)\n", self())
	dr.shells()
	dr.shim(dir)
	dr.shellVar()
	dr.config()
	dr.ledger()
	dr.landlock()
	dr.build()
	dr.probes(ctx, dir)
	dr.limits()
	if dr.issues > 0 {
		fmt.Fprintf(g.st.out, "%d thing(s) need attention\n", dr.issues)
		return status(1)
	}
	fmt.Fprintln(g.st.out, "all is well")
	return nil
}

func (dr *doctor) shells() {
	g := dr.g
	dr.section("real shells")
	for _, name := range shim.Names {
		if p, err := shim.FindShell(name, g.vars["PATH"], g.pathSet(), self()); err == nil {
			dr.ok("%s: %s", name, p)
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
	for _, l := range shim.Status(dir, g.vars["PATH"], self()) {
		switch {
		case !l.Exists:
			dr.bad("%s is not installed: guard-exec shim install --dir %s", l.Path, dir)
		case !l.Ours:
			dr.bad("%s exists but is not guard-exec", l.Path)
		case l.Target == "":
			dr.bad("%s is a broken link (its guard-exec is gone): guard-exec shim install --dir %s", l.Path, dir)
		case !l.Active():
			dr.bad("%s is installed, but PATH finds %s first: put %s first on PATH", l.Name, orNone(l.Found), dir)
		default:
			dr.ok("%s -> %s, found first on PATH", l.Path, l.Target)
		}
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
		dr.bad("SHELL is not set; set SHELL=%s", self())
	case !filepath.IsAbs(sh) && shim.LookPath(sh, g.vars["PATH"]) == "":
		dr.bad("SHELL=%s is not found", sh)
	default:
		p := sh
		if !filepath.IsAbs(p) {
			p = shim.LookPath(sh, g.vars["PATH"])
		}
		if shim.IsGuardExec(p, self()) {
			dr.ok("SHELL=%s is guard-exec", sh)
		} else {
			dr.bad("SHELL=%s is not guard-exec: agents that run $SHELL -c are not guarded; set SHELL=%s", sh, self())
		}
	}
	for _, v := range []string{"CLAUDE_CODE_SHELL", "CLAUDE_CODE_SHELL_PREFIX"} {
		if val := g.vars[v]; val != "" {
			dr.info("%s=%s", v, val)
		}
	}
}

// config lists the configuration files that apply here.
func (dr *doctor) config() {
	g := dr.g
	dr.section("configuration")
	_ = g.config()
	files := []string{"/etc/guard-exec/config.toml"}
	if d := g.vars["XDG_CONFIG_HOME"]; filepath.IsAbs(d) {
		files = append(files, filepath.Join(d, "guard-exec", "config.toml"))
	} else if h := g.vars["HOME"]; filepath.IsAbs(h) {
		files = append(files, filepath.Join(h, ".config", "guard-exec", "config.toml"))
	}
	files = append(files, filepath.Join(g.projectRoot(), ".guard-exec.toml"))
	for _, f := range files {
		if _, err := os.Stat(f); err == nil {
			dr.ok("%s", f)
		} else {
			dr.info("%s (none)", f)
		}
	}
	// CONFIG WARNINGS: when configuration loading reports problems (unknown
	// keys, wrong types, a project file trying to weaken the floor), list
	// each here with dr.bad("FILE:LINE: …"). The loader's warnings API is
	// not in this branch yet.
	dr.info("mode: %s", g.policyEngine().Mode)
}

// ledger reports where evidence goes and whether it can be written.
func (dr *doctor) ledger() {
	g := dr.g
	dr.section("ledger")
	dir := g.ledgerDir()
	if err := writable(dir); err != nil {
		dr.bad("%s is not writable (%v): guarded commands would not run", dir, err)
		return
	}
	where := "this project's (the git work tree's)"
	if g.workTree() == "" || dir == ledger.UserLocation(g.getenv) {
		where = "the user's (no git work tree here; each record names its directory)"
	}
	if g.getenv("GUARD_EXEC_LEDGER_DIR") != "" {
		where = "set by GUARD_EXEC_LEDGER_DIR"
	}
	dr.ok("this directory's ledger: %s, %s", dir, where)
}

// writable checks that dir (or, if it does not exist yet, the nearest
// existing parent, where it would be created) accepts a new file.
func writable(dir string) error {
	d := dir
	for {
		if fi, err := os.Stat(d); err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("%s is not a directory", d)
			}
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			return errors.New("no existing parent")
		}
		d = parent
	}
	f, err := os.CreateTemp(d, ".guard-exec-doctor-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// landlock reports whether the kernel offers Landlock (for sandboxing
// commands), by asking for its ABI version.
func (dr *doctor) landlock() {
	dr.section("kernel")
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	switch {
	case errno == 0:
		dr.info("Landlock available, ABI version %d", v)
	case errno == unix.EOPNOTSUPP:
		dr.info("Landlock is built in but disabled at boot")
	default:
		dr.info("Landlock not available (%v)", errno)
	}
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
	if len(list) == 0 {
		dr.bad("nothing to probe: no shim and no SHELL")
		return
	}
	for _, p := range list {
		dr.probe(ctx, p, tmp, bin, marker)
	}
}

func (dr *doctor) probe(ctx context.Context, p probe, tmp, bin, marker string) {
	os.Remove(marker)
	code, out := dr.run(ctx, p.path, probeCommand, tmp, bin)
	ran := fileExists(marker)
	switch {
	case ran:
		dr.bad("%s (%s): NOT held — the command ran; this way in is not guarded", p.label, p.path)
	case code == exitBlocked:
		dr.ok("%s (%s): held (exit 126), nothing ran", p.label, p.path)
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
	g := dr.g
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	c := exec.CommandContext(ctx, shell, "-c", cmd)
	c.Dir = tmp
	var env []string
	for _, kv := range g.env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PATH", "GUARD_EXEC_LEDGER_DIR", "GUARD_EXEC_SESSION", envParent, "GITHUB_STEP_SUMMARY":
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
		fmt.Fprintf(dr.g.st.out, "  -     %s\n", l)
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
