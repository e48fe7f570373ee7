//go:build linux

package worktree

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// dirHandle reads one directory's names and stats them relative to its
// descriptor, so no path is resolved twice.
type dirHandle struct {
	f  *os.File
	fd int
}

// openDir opens a directory; below the root it refuses a symbolic link,
// in case one replaced the directory since it was looked at.
func openDir(path string, root bool) (*dirHandle, error) {
	flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC
	if !root {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := unix.Open(path, flags, 0)
	if err != nil {
		return nil, err
	}
	return &dirHandle{f: os.NewFile(uintptr(fd), path), fd: fd}, nil
}

func (d *dirHandle) close() { d.f.Close() }

// names returns the next batch of names, unsorted.
func (d *dirHandle) names() ([]string, error) { return d.f.Readdirnames(1024) }

func (d *dirHandle) stat(name string) (t time.Time, isDir, ok bool) {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return time.Time{}, false, false
	}
	return time.Unix(st.Ctim.Unix()), st.Mode&unix.S_IFMT == unix.S_IFDIR, true
}

func changeTime(path string) (time.Time, bool) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return time.Time{}, false
	}
	return time.Unix(st.Ctim.Unix()), true
}

func lchangeTime(path string) (time.Time, bool) {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		return time.Time{}, false
	}
	return time.Unix(st.Ctim.Unix()), true
}
