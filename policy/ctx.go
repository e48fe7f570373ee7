package policy

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/guard-exec/guard-exec/parse"
)

// FS is the little of the filesystem policy needs: whether a path exists
// (overwriting differs from creating) and where symlinks lead.
type FS interface {
	Lstat(name string) (fs.FileInfo, error)
	EvalSymlinks(name string) (string, error)
}

// OSFS is the real filesystem.
type OSFS struct{}

func (OSFS) Lstat(name string) (fs.FileInfo, error)   { return os.Lstat(name) }
func (OSFS) EvalSymlinks(name string) (string, error) { return filepath.EvalSymlinks(name) }

// Ctx is what a decision is made against besides the facts.
type Ctx struct {
	Cwd     string // where the command line runs
	Project string // project root (see FindProject)
	Home    string
	// WriteRoots are directories where writes are routine: the project, the
	// temp dirs, user caches, and configured roots. Symlinks in them are
	// resolved when a write lands outside their literal form.
	WriteRoots []string
	TempDirs   []string
	Env        map[string]string
	FS         FS
	// Paths, when set, remembers resolved directories across decisions.
	Paths *PathCache
	// Self holds guard-exec's own files, which commands may not touch.
	Self SelfPaths
	// Session, History and BlockAfter feed the loop brake (loop.go);
	// History may be nil, and BlockAfter 0 turns the brake off.
	Session    string
	History    History
	BlockAfter int

	// Sandboxed: the command will run under the kernel sandbox (write or
	// strict), so a Bounded rule's hold that exists only because a place
	// is unknown becomes a warning (sandbox.go).
	Sandboxed bool

	a *parse.Analysis // the analysis being decided
	// confined: judging as if every unknown place were inside the roots.
	confined bool
	e        *Engine // the engine deciding, for rules that consult other rules
	// nested counts decisions made inside a decision (a script written and
	// run in the same command line), to bound them.
	nested int
	// real caches the roots (project, home, write roots) with symlinks
	// resolved, so they compare with resolved operands (/tmp is
	// /private/tmp on macOS).
	real map[string]string
	// temps are the write roots besides the project and home, resolved
	// as real does, once: every glob of rm -rf ~/{a..z}* is placed
	// against all of them (inTempOrCache).
	temps     []string
	tempsDone bool
	bnd       *boundaryState // the boundary pass over a, computed once (boundary.go)
}

// SelfPaths are guard-exec's own configuration, ledger and shim locations.
// Entries may be files or directories; a directory covers what is below
// it; symlinks in them are resolved. Empty fields fall back to the
// default locations (rules_self.go).
type SelfPaths struct {
	ConfigFiles []string
	LedgerDir   string // the ledger of the command's project
	StateDir    string // the ledger outside any project
	ShimDir     string
	CacheDir    string // what the guard has checked already (trusted like config)
}

// Analysis returns the analysis under decision.
func (x *Ctx) Analysis() *parse.Analysis { return x.a }

func (x *Ctx) fs() FS {
	if x.FS == nil {
		return OSFS{}
	}
	return x.FS
}
