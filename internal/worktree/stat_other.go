//go:build !linux

package worktree

import (
	"os"
	"path/filepath"
	"time"
)

// Elsewhere the walk uses the modification time, which os reports
// portably; ctime would need a variant per system.
type dirHandle struct {
	f    *os.File
	path string
}

func openDir(path string, _ bool) (*dirHandle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &dirHandle{f: f, path: path}, nil
}

func (d *dirHandle) close() { d.f.Close() }

func (d *dirHandle) names() ([]string, error) { return d.f.Readdirnames(1024) }

func (d *dirHandle) stat(name string) (time.Time, bool, bool) {
	fi, err := os.Lstat(filepath.Join(d.path, name))
	if err != nil {
		return time.Time{}, false, false
	}
	return fi.ModTime(), fi.IsDir(), true
}

func changeTime(path string) (time.Time, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return time.Time{}, false
	}
	return fi.ModTime(), true
}

func lchangeTime(path string) (time.Time, bool) {
	fi, err := os.Lstat(path)
	if err != nil {
		return time.Time{}, false
	}
	return fi.ModTime(), true
}
