package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/guard-exec/guard-exec/policy"
)

// loadConfig merges the configuration layers for the working directory's
// project and prints their problems, one warning line each. A valid
// configuration prints nothing; a broken one prints on every command,
// since the person who broke it has to notice. A nested guard (inside a
// guarded command) stays quiet: the guard around it has said it already.
func (g *guard) loadConfig() *policy.Config {
	res := policy.LoadConfig(g.configOptions(true))
	if len(res.Problems) > 0 && !g.nested() {
		g.printProblems(res.Problems)
	}
	cfg := res.Config
	if g.timeout == 0 {
		g.timeout = cfg.Exec.Timeout // --timeout wins
	}
	return cfg
}

// adviseNote is what a warning adds in advise mode about a command that
// enforce mode would have blocked: the rule it names would have held it.
func adviseNote(d *policy.Decision) string {
	switch {
	case d.Verdict >= d.Severity:
		return ""
	case d.Severity == policy.Deny:
		return " (advise mode: would be denied)"
	}
	return " (advise mode: would be held)"
}

func (g *guard) printProblems(probs []policy.Problem) {
	for _, p := range probs {
		fmt.Fprintf(g.st.err, "guard-exec: warning: %s\n", p)
	}
}

// configOptions says where the layers are. The example cache is used on
// the hot path only; `config check` always checks every example.
func (g *guard) configOptions(cached bool) policy.LoadOptions {
	home := g.vars["HOME"]
	o := policy.LoadOptions{
		Sources: policy.ConfigSources(home, g.vars["XDG_CONFIG_HOME"], g.projectRoot(), g.workdir()),
		Home:    home,
	}
	if p := g.cachePath("checked-rules"); cached && p != "" {
		// Inside a sandboxed command guard-exec's files are protected:
		// what a nested guard wrote there would be undone, with a message.
		o.Checked = &policy.FileExampleCache{Path: p, ReadOnly: g.outerSandboxed()}
	}
	return o
}

// cachePath is a file in guard-exec's cache directory, or "".
func (g *guard) cachePath(name string) string {
	switch dir := g.vars["XDG_CACHE_HOME"]; {
	case filepath.IsAbs(dir):
		return filepath.Join(dir, "guard-exec", name)
	case filepath.IsAbs(g.vars["HOME"]):
		return filepath.Join(g.vars["HOME"], ".cache", "guard-exec", name)
	}
	return ""
}

// runConfig is `guard-exec config show|init|check`.
func runConfig(ctx context.Context, g *guard, args []string) error {
	if len(args) == 0 {
		return usagef("config needs show, init or check (guard-exec config --help)")
	}
	switch args[0] {
	case "show":
		return g.configShow(args[1:])
	case "init":
		return g.configInit(args[1:])
	case "check":
		return g.configCheck(args[1:])
	case "-h", "--help", "help":
		lookupCommand("config").printHelp(g.helpWriter(), nil)
		return nil
	}
	return usagef("config: unknown action %q%s (want show, init or check)", args[0], verbHint(args[0], lookupCommand("config").verbs))
}

// configShow prints the effective configuration as TOML, each value with
// the file:line it came from, or "default".
func (g *guard) configShow(args []string) error {
	fs := g.flags("config show")
	asJSON := fs.Bool("json", false, "print the configuration as JSON")
	cwd := fs.String("cwd", "", "show the configuration of the project of `DIR`")
	if err := g.parseFlags(fs, args); err != nil {
		return err
	}
	if err := g.setCwd(*cwd); err != nil {
		return err
	}
	res := policy.LoadConfig(g.configOptions(true))
	g.printProblems(res.Problems)
	v := newConfigView(res)
	if *asJSON {
		enc := newJSONEncoder(g.st.out)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	v.print(g.st.out)
	return nil
}

func (g *guard) setCwd(dir string) error {
	if dir == "" {
		return nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return usagef("--cwd: %v", err)
	}
	g.cwd, g.project = abs, ""
	return nil
}

// configInit writes the commented template as the user's file.
func (g *guard) configInit(args []string) error {
	fs := g.flags("config init")
	force := fs.Bool("force", false, "replace an existing file")
	if err := g.parseFlags(fs, args); err != nil {
		return err
	}
	path := policy.UserConfigPath(g.vars["HOME"], g.vars["XDG_CONFIG_HOME"])
	if path == "" {
		return errors.New("config init: neither $XDG_CONFIG_HOME nor $HOME names a directory")
	}
	if *force && (g.nested() || insideGuardedCommand(nil)) {
		// Replacing the file would drop the person's own rules; that is
		// theirs to do, not a guarded command's.
		return errors.New("config init --force cannot run inside a guarded command; run it in your own terminal")
	}
	if _, err := os.Lstat(path); err == nil && !*force {
		return fmt.Errorf("config init: %s exists; use --force to replace it", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("config init: %w", err)
	}
	tmp := path + ".tmp-" + strconv.Itoa(os.Getpid())
	if err := os.WriteFile(tmp, []byte(policy.ConfigTemplate), 0o644); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("config init: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("config init: %w", err)
	}
	fmt.Fprintln(g.st.out, path)
	return nil
}

// configCheck validates files and prints their problems on stdout as
// FILE:LINE: message. With no file it checks the layers of the working
// directory. Exit 1 when there is a problem.
func (g *guard) configCheck(args []string) error {
	flags := g.flags("config check")
	project := flags.Bool("project", false, "check FILE as a project file (the default for files named "+policy.ProjectConfigName+")")
	if err := g.parseFlags(flags, args); err != nil {
		return err
	}
	o := g.configOptions(false)
	if flags.NArg() > 0 {
		o.Sources = nil
		for _, f := range flags.Args() {
			abs, err := filepath.Abs(f)
			if err != nil {
				return usagef("config check: %v", err)
			}
			l := policy.LayerUser
			if *project || filepath.Base(f) == policy.ProjectConfigName {
				l = policy.LayerProject
			}
			o.Sources = append(o.Sources, policy.ConfigSource{Layer: l, Path: abs, Name: f})
		}
		// A named file that is missing is a problem, not an absent layer.
		read := o.Read
		o.Read = func(src policy.ConfigSource) ([]byte, error) {
			if read == nil {
				read = policy.ReadConfigFile
			}
			b, err := read(src)
			if errors.Is(err, fs.ErrNotExist) {
				return nil, errors.New("does not exist")
			}
			return b, err
		}
	}
	res := policy.LoadConfig(o)
	for _, p := range res.Problems {
		fmt.Fprintln(g.st.out, p)
	}
	if len(res.Problems) > 0 {
		return status(1)
	}
	for _, f := range res.Files {
		if f.State == policy.FileLoaded {
			fmt.Fprintf(g.st.out, "%s: ok\n", f.Name)
		}
	}
	return nil
}

// configView is the effective configuration for people and machines.
type configView struct {
	Files    []fileView       `json:"files"`
	Mode     valueView        `json:"mode"`
	Exempt   []valueView      `json:"exempt"`
	Severity []severityView   `json:"severity"`
	Rules    []ruleConfigView `json:"rules"`
	Boundary struct {
		AllowRoots []valueView `json:"allow_roots"`
	} `json:"boundary"`
	Env struct {
		StripCredentials valueView `json:"strip_credentials"`
	} `json:"env"`
	Loop struct {
		BlockAfter valueView `json:"block_after"`
	} `json:"loop"`
	Ledger struct {
		MaxBytes valueView `json:"max_bytes"`
		Keep     valueView `json:"keep"`
		Durable  valueView `json:"durable"`
	} `json:"ledger"`
	Exec struct {
		Timeout valueView `json:"timeout"`
	} `json:"exec"`
	Sandbox struct {
		Mode       valueView   `json:"mode"`
		Required   valueView   `json:"required"`
		AllowRoots []valueView `json:"allow_roots"`
	} `json:"sandbox"`
	Problems []string `json:"problems"`
}

type fileView struct {
	Layer string `json:"layer"`
	Path  string `json:"path"`
	State string `json:"state"`
}

type valueView struct {
	Value  any    `json:"value"`
	Origin string `json:"origin"`
}

type severityView struct {
	ID     string `json:"id"`
	Value  string `json:"value"`
	Origin string `json:"origin"`
}

type ruleConfigView struct {
	ID       string   `json:"id"`
	Command  []string `json:"command,omitempty"`
	Pattern  string   `json:"pattern,omitempty"`
	Severity string   `json:"severity"`
	Message  string   `json:"message"`
	Origin   string   `json:"origin"`
}

func newConfigView(res *policy.LoadResult) *configView {
	c := res.Config
	at := func(key string) string { return c.OriginOf(key).String() }
	v := &configView{Exempt: []valueView{}, Severity: []severityView{}, Rules: []ruleConfigView{}, Problems: []string{}}
	for _, f := range res.Files {
		v.Files = append(v.Files, fileView{Layer: f.Layer.String(), Path: f.Path, State: string(f.State)})
	}
	v.Mode = valueView{c.Mode.String(), at("mode")}
	for _, id := range c.Exempt {
		v.Exempt = append(v.Exempt, valueView{id, at("exempt." + id)})
	}
	for _, id := range sortedKeys(c.Severity) {
		v.Severity = append(v.Severity, severityView{id, c.Severity[id].String(), at("severity." + id)})
	}
	for _, r := range c.Rules {
		v.Rules = append(v.Rules, ruleConfigView{ID: r.ID, Command: r.Programs, Pattern: c.PatternOf(r),
			Severity: r.Severity.String(), Message: r.Message, Origin: at("rule." + r.ID)})
	}
	v.Boundary.AllowRoots = []valueView{}
	for _, p := range c.Boundary.AllowRoots {
		v.Boundary.AllowRoots = append(v.Boundary.AllowRoots, valueView{p, at("boundary.allow_roots[" + p + "]")})
	}
	v.Env.StripCredentials = valueView{c.Env.StripCredentials, at("env.strip_credentials")}
	v.Loop.BlockAfter = valueView{c.Loop.BlockAfter, at("loop.block_after")}
	v.Ledger.MaxBytes = valueView{c.Ledger.MaxBytes, at("ledger.max_bytes")}
	v.Ledger.Keep = valueView{c.Ledger.Keep, at("ledger.keep")}
	v.Ledger.Durable = valueView{c.Ledger.Durable, at("ledger.durable")}
	v.Exec.Timeout = valueView{c.Exec.Timeout.String(), at("exec.timeout")}
	v.Sandbox.Mode = valueView{c.Sandbox.Mode.String(), at("sandbox.mode")}
	v.Sandbox.Required = valueView{c.Sandbox.Required, at("sandbox.required")}
	v.Sandbox.AllowRoots = []valueView{}
	for _, p := range c.Sandbox.AllowRoots {
		v.Sandbox.AllowRoots = append(v.Sandbox.AllowRoots, valueView{p, at("sandbox.allow_roots[" + p + "]")})
	}
	for _, p := range res.Problems {
		v.Problems = append(v.Problems, p.String())
	}
	return v
}

// print renders the view as a TOML file whose comments say where each
// value comes from; it loads back as the same configuration.
func (v *configView) print(w io.Writer) {
	fmt.Fprintln(w, "# The configuration in effect; each value says where it comes from.")
	for _, f := range v.Files {
		fmt.Fprintf(w, "# %-7s %s (%s)\n", f.Layer, f.Path, f.State)
	}
	fmt.Fprintln(w)
	line(w, "mode = "+tomlString(v.Mode.Value.(string)), v.Mode.Origin)
	if len(v.Exempt) == 0 {
		line(w, "exempt = []", "default")
	} else {
		fmt.Fprintln(w, "exempt = [")
		for _, e := range v.Exempt {
			line(w, "  "+tomlString(e.Value.(string))+",", e.Origin)
		}
		fmt.Fprintln(w, "]")
	}
	fmt.Fprintln(w, "\n[severity]  # built-in severities not listed here: see guard-exec rules")
	for _, s := range v.Severity {
		line(w, s.ID+" = "+tomlString(s.Value), s.Origin)
	}
	fmt.Fprintln(w, "\n[boundary]")
	if len(v.Boundary.AllowRoots) == 0 {
		line(w, "allow_roots = []", "default")
	} else {
		fmt.Fprintln(w, "allow_roots = [")
		for _, r := range v.Boundary.AllowRoots {
			line(w, "  "+tomlString(r.Value.(string))+",", r.Origin)
		}
		fmt.Fprintln(w, "]")
	}
	fmt.Fprintln(w, "\n[env]")
	line(w, fmt.Sprintf("strip_credentials = %v", v.Env.StripCredentials.Value), v.Env.StripCredentials.Origin)
	fmt.Fprintln(w, "\n[loop]")
	line(w, fmt.Sprintf("block_after = %v", v.Loop.BlockAfter.Value), v.Loop.BlockAfter.Origin)
	fmt.Fprintln(w, "\n[ledger]")
	line(w, fmt.Sprintf("max_bytes = %v", v.Ledger.MaxBytes.Value), v.Ledger.MaxBytes.Origin)
	line(w, fmt.Sprintf("keep = %v", v.Ledger.Keep.Value), v.Ledger.Keep.Origin)
	line(w, fmt.Sprintf("durable = %v", v.Ledger.Durable.Value), v.Ledger.Durable.Origin)
	fmt.Fprintln(w, "\n[exec]")
	line(w, "timeout = "+tomlString(v.Exec.Timeout.Value.(string)), v.Exec.Timeout.Origin)
	fmt.Fprintln(w, "\n[sandbox]")
	line(w, "mode = "+tomlString(v.Sandbox.Mode.Value.(string)), v.Sandbox.Mode.Origin)
	line(w, fmt.Sprintf("required = %v", v.Sandbox.Required.Value), v.Sandbox.Required.Origin)
	if len(v.Sandbox.AllowRoots) == 0 {
		line(w, "allow_roots = []", "default")
	} else {
		fmt.Fprintln(w, "allow_roots = [")
		for _, r := range v.Sandbox.AllowRoots {
			line(w, "  "+tomlString(r.Value.(string))+",", r.Origin)
		}
		fmt.Fprintln(w, "]")
	}
	for _, r := range v.Rules {
		fmt.Fprintf(w, "\n[[rule]]  # %s\n", r.Origin)
		fmt.Fprintf(w, "id = %s\n", tomlString(r.ID))
		if len(r.Command) > 0 {
			q := make([]string, len(r.Command))
			for i, c := range r.Command {
				q[i] = tomlString(c)
			}
			fmt.Fprintf(w, "command = [%s]\n", strings.Join(q, ", "))
		}
		if r.Pattern != "" {
			fmt.Fprintf(w, "pattern = %s\n", tomlString(r.Pattern))
		}
		fmt.Fprintf(w, "severity = %s\n", tomlString(r.Severity))
		fmt.Fprintf(w, "message = %s\n", tomlString(r.Message))
	}
}

func line(w io.Writer, text, origin string) {
	fmt.Fprintf(w, "%-40s # %s\n", text, origin)
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
