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
	// temp dirs, user caches, and configured roots.
	WriteRoots []string
	TempDirs   []string
	Env        map[string]string
	FS         FS
	// Self holds guard-exec's own files, which commands may not touch.
	Self SelfPaths
	// Session, History and BlockAfter feed the loop brake (loop.go);
	// History may be nil, and BlockAfter 0 turns the brake off.
	Session    string
	History    History
	BlockAfter int

	a *parse.Analysis // the analysis being decided
}

// SelfPaths are guard-exec's own configuration, ledger and shim locations.
type SelfPaths struct {
	ConfigFiles []string
	LedgerDir   string
	ShimDir     string
}

// Analysis returns the analysis under decision.
func (x *Ctx) Analysis() *parse.Analysis { return x.a }

func (x *Ctx) fs() FS {
	if x.FS == nil {
		return OSFS{}
	}
	return x.FS
}
