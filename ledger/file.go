package ledger

import (
	"fmt"
	"io"
	"io/fs"
	"syscall"
)

// rawFile is a file descriptor used with plain system calls. The hot path
// (two appends and a tail read per command) opens the lock file and the
// active segment every time; os.File would add a poller registration and
// an allocation to each open, about 2 µs apiece, for nothing a regular file
// needs.
type rawFile struct {
	fd       int
	path     string
	dev, ino uint64 // set by openActive
}

// openRaw opens path with flags plus close-on-exec (so no command the guard
// starts inherits the lock) and no-follow (see openFlags).
func openRaw(path string, flags int, perm uint32) (rawFile, error) {
	for {
		fd, err := syscall.Open(path, flags|syscall.O_CLOEXEC|openFlags, perm)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return rawFile{fd: -1}, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return rawFile{fd: fd, path: path}, nil
	}
}

// Close closes f; a rawFile that was never opened (fd -1) closes quietly.
func (f rawFile) Close() error {
	if f.fd < 0 {
		return nil
	}
	return syscall.Close(f.fd)
}

func (f rawFile) size() (int64, error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(f.fd, &st); err != nil {
		return 0, &fs.PathError{Op: "stat", Path: f.path, Err: err}
	}
	return st.Size, nil
}

// stat returns f's size, and its device and inode, which tell one file
// from another of the same name.
func (f rawFile) stat() (size int64, dev, ino uint64, err error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(f.fd, &st); err != nil {
		return 0, 0, 0, &fs.PathError{Op: "stat", Path: f.path, Err: err}
	}
	return st.Size, uint64(st.Dev), st.Ino, nil
}

// ReadAt makes a rawFile an io.ReaderAt for the backward scanner.
func (f rawFile) ReadAt(b []byte, off int64) (int, error) {
	n := 0
	for n < len(b) {
		m, err := syscall.Pread(f.fd, b[n:], off+int64(n))
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return n, &fs.PathError{Op: "read", Path: f.path, Err: err}
		case m == 0:
			return n, io.ErrUnexpectedEOF // the file shrank under us
		}
		n += m
	}
	return n, nil
}

// write writes all of b; with O_APPEND and a local filesystem that is one
// write(2) unless the disk is full.
func (f rawFile) write(b []byte) error {
	for len(b) > 0 {
		n, err := syscall.Write(f.fd, b)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return &fs.PathError{Op: "write", Path: f.path, Err: err}
		}
		b = b[n:]
	}
	return nil
}

// writeAt writes all of b at off (pwrite).
func (f rawFile) writeAt(b []byte, off int64) error {
	for len(b) > 0 {
		n, err := syscall.Pwrite(f.fd, b, off)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return &fs.PathError{Op: "write", Path: f.path, Err: err}
		}
		b, off = b[n:], off+int64(n)
	}
	return nil
}

func (f rawFile) sync() error {
	if err := syscall.Fsync(f.fd); err != nil {
		return fmt.Errorf("ledger: sync: %w", &fs.PathError{Op: "fsync", Path: f.path, Err: err})
	}
	return nil
}
