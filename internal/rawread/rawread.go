// Package rawread reads small files with open, read and close alone.
//
// os.ReadFile and os.Open first try to add every file to the runtime's
// poller (an epoll_ctl and four fcntls on Linux, refused for a regular
// file), which each command pays for every small file it reads: the
// ledger key, the ledger's anchor, /proc and cgroup files. The files read
// here are never pipes or terminals, so nothing is lost by not polling.
package rawread

import (
	"errors"
	"io/fs"
	"syscall"
)

// ErrTooLarge is returned for a file longer than the limit.
var ErrTooLarge = errors.New("file too large")

// File reads the whole of path, refusing one of more than limit bytes.
// flags are added to O_RDONLY|O_CLOEXEC (O_NOFOLLOW, say). Errors are
// *fs.PathError, so errors.Is(err, fs.ErrNotExist) works as with os.
func File(path string, flags, limit int) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|flags, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	b := make([]byte, 0, min(limit+1, 4096))
	for {
		if len(b) == cap(b) {
			if len(b) > limit {
				return nil, &fs.PathError{Op: "read", Path: path, Err: ErrTooLarge}
			}
			b = append(b, 0)[:len(b)]
		}
		n, err := syscall.Read(fd, b[len(b):cap(b)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		case n == 0:
			if len(b) > limit {
				return nil, &fs.PathError{Op: "read", Path: path, Err: ErrTooLarge}
			}
			return b, nil
		}
		b = b[:len(b)+n]
	}
}
