package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/guard-exec/guard-exec/internal/project"
	"github.com/guard-exec/guard-exec/ledger"
	"github.com/guard-exec/guard-exec/parse"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/shim"
)

// guard is one invocation's state: the caller's environment and streams,
// guard-exec's own flags, and what is computed from them on demand.
type guard struct {
	env  []string
	vars map[string]string
	st   *stdio

	invocation string // shell|shim|script|argv|hook|check
	// realShell is the bash that runs the command line, once found: the
	// analysis knows $BASH as bash sets it.
	realShell  string
	pty        shim.PTYMode
	mode       *policy.Mode        // from --mode; nil means the configured mode
	sandbox    *policy.SandboxMode // from --sandbox; nil means the configured one
	timeout    time.Duration
	ci         bool
	strict     bool // --strict: scrub credentials from the command's environment
	answeredNo bool // a person answered no to a hold at the terminal (prompt.go)

	cwd     string
	project string
	engine  *policy.Engine
	led     *ledger.Ledger
	ledErr  error
	cfg     *policy.Config
	sess    string // session(), once computed
	scrub   *envScrub
	places  map[string]*places // by working directory (roots.go)
	sources *sourcedFiles      // large sourced files, reduced (sourced.go)
	progs   *programIdentity   // which program a file run by its path is (identity.go)

	helpOut io.Writer      // where help goes instead of stdout (commands.go)
	helpFS  *pflag.FlagSet // the flag set whose help was printed last
	keyVal  []byte         // the user's key (key.go), once loaded
	keyDone bool

	outerVal  *outerGuard // the guard this one runs inside (nest.go), once found
	outerDone bool
	// hookSandbox is, for the interactive shell's hook, the sandbox that
	// shell runs in: no guard process is left above it to announce one.
	hookSandbox policy.SandboxMode
	// recorder is, for the hook of a sandboxed interactive shell, the
	// socket of the guard outside that records for it (recorder.go).
	recorder string
}

// config returns the merged configuration, loaded once (config.go).
func (g *guard) config() *policy.Config {
	if g.cfg == nil {
		g.cfg = g.loadConfig()
	}
	return g.cfg
}

func newGuard(env []string, st *stdio) *guard {
	g := &guard{env: env, vars: make(map[string]string, len(env)), st: st}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			g.vars[k] = v
		}
	}
	return g
}

func (g *guard) getenv(k string) string { return g.vars[k] }

// workdir is where the command runs: the process's directory. PWD is
// preferred when it names the same directory, as bash does, so that paths
// through symlinks read the way the caller wrote them.
func (g *guard) workdir() string {
	if g.cwd != "" {
		return g.cwd
	}
	wd, err := os.Getwd()
	if err != nil {
		wd = "/"
	}
	if pwd := g.vars["PWD"]; pwd != "" && filepath.IsAbs(pwd) && pwd != wd {
		if a, err1 := os.Stat(pwd); err1 == nil {
			if b, err2 := os.Stat(wd); err2 == nil && os.SameFile(a, b) {
				wd = pwd
			}
		}
	}
	g.cwd = wd
	return wd
}

// projectRoot is the repository the working directory is in, or the
// working directory itself.
func (g *guard) projectRoot() string {
	if g.project == "" {
		g.project = project.Root(g.workdir())
	}
	return g.project
}

// policyEngine builds the rule engine once.
func (g *guard) policyEngine() *policy.Engine {
	if g.engine == nil {
		g.engine = policy.NewEngineFromConfig(g.config())
		if g.mode != nil {
			g.engine.Mode = *g.mode
		}
	}
	return g.engine
}

// decisionCtx is what policy judges against besides the facts (roots.go).
func (g *guard) decisionCtx(dir string) *policy.Ctx {
	x := g.boundaryCtx(dir)
	x.Sandboxed = g.sandboxInForce() // sandbox.go
	return x
}

// analyze runs the analysis of a script in dir with the caller's
// environment.
func (g *guard) analyze(script string, d parse.Dialect, args []string, dir string) *parse.Analysis {
	return g.analyzeSourced(script, parse.Options{
		Dialect: d,
		Env:     g.vars,
		Dir:     dir,
		Args:    args,
		Shell:   g.realShell,
		// check keeps no history, so it has no use for the fingerprint.
		NoCanonical: g.invocation == "check",
	})
}

// osFiles lets the analysis read files a script sources, bounded so a
// sourced device or huge file cannot stall the guard.
type osFiles struct{}

const maxSourced = 1 << 20

func (osFiles) ReadFile(path string) ([]byte, error) {
	b, _, err := readScript(path)
	return b, err
}

// ReadDir lists a directory's names for the analysis' glob expansion,
// reading no more than it would use.
func (osFiles) ReadDir(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(parse.MaxGlobDir + 1)
	if err == io.EOF {
		err = nil
	}
	return names, err
}

// readScript reads a regular file of at most maxSourced bytes, with the
// FileInfo it was read under.
func readScript(path string) ([]byte, os.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxSourced {
		return nil, nil, errNotScript
	}
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, nil, err
	}
	return b, fi, nil
}

var errNotScript = &os.PathError{Op: "read", Path: "", Err: os.ErrInvalid}
