package shim

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// bashDefaultPath is the PATH bash sets itself when none is in its
// environment (env -i bash): its script search uses it.
const bashDefaultPath = "/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:."

// ScriptPath is the file bash reads for the script operand name. bash
// opens name itself first; when there is no such file and name has no
// slash, it takes the first readable file (not a directory) of that name
// in the directories of PATH, an empty entry being the current directory:
// `bash bats -v` runs the bats on PATH. $0 stays name. With pathSet false
// (no PATH in the environment) bash's own default path is searched. When
// bash would find nothing, or name exists (even as a directory, which
// bash then refuses), ScriptPath returns name, whose error the caller
// reports.
func ScriptPath(name, pathEnv string, pathSet bool) string {
	if strings.Contains(name, "/") {
		return name
	}
	if _, err := os.Stat(name); !errors.Is(err, fs.ErrNotExist) {
		return name
	}
	if !pathSet {
		pathEnv = bashDefaultPath
	}
	if pathEnv == "" {
		return name
	}
	for _, dir := range strings.Split(pathEnv, ":") {
		if p := filepath.Join(dir, name); readableFile(p) {
			return p
		}
	}
	return name
}

// readableFile is bash's test of a script candidate on PATH: it exists,
// is not a directory, and this process may read it.
func readableFile(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || fi.IsDir() {
		return false
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	f.Close()
	return true
}
