package main

import (
	"path/filepath"
	"strings"

	"github.com/guard-exec/guard-exec/internal/paths"
	"github.com/guard-exec/guard-exec/internal/project"
	"github.com/guard-exec/guard-exec/ledger"
	"github.com/guard-exec/guard-exec/policy"
)

// pathCache remembers resolved directories for the life of the process,
// so check --batch resolves each directory once.
var pathCache = policy.NewPathCache()

// places are what a decision in one working directory is judged against,
// computed once per directory: check --batch judges many lines in few.
type places struct {
	proj  string
	home  string
	roots []string
	temps []string
	self  policy.SelfPaths
}

// maxPlaces bounds the directories remembered.
const maxPlaces = 256

// boundaryCtx is the policy context for a command run in dir.
func (g *guard) boundaryCtx(dir string) *policy.Ctx {
	pl := g.places[dir]
	if pl == nil {
		pl = &places{proj: project.Root(dir), temps: g.tempDirs()}
		if h := g.vars["HOME"]; filepath.IsAbs(h) {
			pl.home = filepath.Clean(h)
		}
		pl.roots = g.writeRoots(pl.proj, pl.home, pl.temps)
		pl.self = g.selfPaths(pl.proj)
		if g.places == nil {
			g.places = map[string]*places{}
		}
		if len(g.places) < maxPlaces {
			g.places[dir] = pl
		}
	}
	return &policy.Ctx{
		Cwd:        dir,
		Project:    pl.proj,
		Home:       pl.home,
		WriteRoots: pl.roots,
		TempDirs:   pl.temps,
		Env:        g.vars,
		FS:         policy.OSFS{},
		Paths:      pathCache,
		Self:       pl.self,
	}
}

// homeCaches are the directories under the home directory where package
// managers and build tools keep what they download and build. Writing
// there is routine (npm install, go build, cargo build); none of them
// holds a login. Settings files next to them (~/.m2/settings.xml,
// ~/.gradle/gradle.properties) are not covered.
var homeCaches = []string{
	".cache", "go", ".npm", ".cargo/registry", ".cargo/git", ".rustup/downloads", ".pnpm-store",
	".local/share/pnpm", ".yarn/berry/cache", ".m2/repository", ".gradle/caches", ".gradle/wrapper",
	".bun/install/cache", ".deno", ".nuget/packages", ".composer/cache", ".gem",
}

// writeRoots are the directories a command may write without a question:
// the project, the temp directories, the user's caches, the CI runner's
// temp directory, and the roots the user configured.
func (g *guard) writeRoots(proj, home string, temps []string) []string {
	roots := make([]string, 0, len(temps)+len(homeCaches)+8)
	if g.projectIsRoot(proj, home) {
		roots = append(roots, proj)
	}
	roots = append(roots, temps...)
	if home != "" {
		for _, c := range homeCaches {
			roots = append(roots, home+"/"+c)
		}
	}
	for _, v := range []string{"XDG_CACHE_HOME", "GOCACHE", "GOMODCACHE", "npm_config_cache", "PIP_CACHE_DIR",
		"RUNNER_TEMP", "RUNNER_TOOL_CACHE"} {
		if d := g.vars[v]; filepath.IsAbs(d) && filepath.Clean(d) != home && filepath.Clean(d) != "/" {
			roots = append(roots, filepath.Clean(d))
		}
	}
	// Not all of CARGO_HOME: shell profiles source its env script.
	if d := g.vars["CARGO_HOME"]; filepath.IsAbs(d) {
		roots = append(roots, filepath.Join(d, "registry"), filepath.Join(d, "git"))
	}
	for _, d := range filepath.SplitList(g.vars["GOPATH"]) {
		if filepath.IsAbs(d) && filepath.Clean(d) != home {
			roots = append(roots, filepath.Join(d, "pkg", "mod"))
		}
	}
	for _, r := range g.config().Boundary.AllowRoots {
		if r = expandHome(r, home); filepath.IsAbs(r) {
			roots = append(roots, filepath.Clean(r))
		}
	}
	return roots
}

// projectIsRoot reports whether the project directory may be a write root.
// A repository is, wherever it is (a container's /usr/src/app too). A
// working directory that is no repository is, unless it is too broad to
// mean "the project": the filesystem root, the home directory or a
// directory above it, or a system directory.
func (g *guard) projectIsRoot(proj, home string) bool {
	if proj == "/" || proj == "" {
		return false
	}
	if home != "" && (proj == home || strings.HasPrefix(home, proj+"/")) {
		return false
	}
	if project.InRepo(proj) {
		return !isSystemTop(proj)
	}
	for _, d := range []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/boot", "/var", "/opt", "/srv", "/root", "/proc", "/sys", "/dev"} {
		if proj == d || strings.HasPrefix(proj, d+"/") {
			return false
		}
	}
	return true
}

// isSystemTop reports whether dir is a system directory itself (a
// repository at /etc, as etckeeper makes, does not make /etc a root).
func isSystemTop(dir string) bool {
	switch dir {
	case "/etc", "/usr", "/usr/local", "/bin", "/sbin", "/lib", "/lib64", "/boot", "/var", "/opt", "/srv", "/root":
		return true
	}
	return false
}

func expandHome(p, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return home + p[1:]
	}
	return p
}

// systemTempDirs are the machine's temp directories. The tests clear it:
// their work directories live under /tmp, where every write would be
// allowed, so they judge with $TMPDIR as the only temp directory.
var systemTempDirs = []string{"/tmp", "/var/tmp", "/dev/shm"}

// tempDirs are the system temp directories and $TMPDIR.
func (g *guard) tempDirs() []string {
	tmp := append([]string(nil), systemTempDirs...)
	if t := g.vars["TMPDIR"]; filepath.IsAbs(t) && filepath.Clean(t) != "/" {
		tmp = append(tmp, filepath.Clean(t))
	}
	return tmp
}

// repoRoot is root when it is a git work tree's, else "".
func repoRoot(root string) string {
	if project.InRepo(root) {
		return root
	}
	return ""
}

// selfPaths are guard-exec's own files, which commands may not change.
func (g *guard) selfPaths(proj string) policy.SelfPaths {
	return policy.SelfPaths{
		ConfigFiles: []string{paths.UserConfigDir(g.getenv), paths.SystemConfigDir},
		LedgerDir:   ledger.Location(repoRoot(proj), g.getenv),
		StateDir:    paths.StateDir(g.getenv),
		ShimDir:     paths.ShimDir(g.getenv),
		CacheDir:    paths.CacheDir(g.getenv),
	}
}
