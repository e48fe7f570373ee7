package ledger

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"time"
)

// The lock is flock(2) on ledger.lock, a file of its own that is never
// rotated: locking ledger.jsonl itself would let a waiter that opened the
// old file before a rotation get the lock and append to the rotated segment.
// flock belongs to the open file description, so the kernel releases it
// when a holder dies, and Go's close-on-exec keeps it out of the commands
// the guard starts (an inherited copy would hold it for the child's life).
// Writers hold it exclusively for one append; readers share it, so they
// never see a rotation or a write half done.

// lockExclusive takes the lock for an append, recreating the directory if
// it vanished.
func (l *Ledger) lockExclusive() (rawFile, error) {
	f, err := openRaw(l.path(lockName), syscall.O_RDWR|syscall.O_CREAT, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		if perr := l.setup(); perr != nil {
			return f, perr
		}
		f, err = openRaw(l.path(lockName), syscall.O_RDWR|syscall.O_CREAT, 0o600)
	}
	if err != nil {
		return f, fmt.Errorf("ledger: lock: %w", err)
	}
	return l.take(f, syscall.LOCK_EX)
}

// lockShared takes the lock for reading. With no lock file (nothing was
// ever appended, or someone removed it) readers go on without one: a
// missing lock must not make the records behind it look absent.
func (l *Ledger) lockShared() (rawFile, error) {
	f, err := openRaw(l.path(lockName), syscall.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return rawFile{fd: -1}, nil
	}
	if err != nil {
		return f, fmt.Errorf("ledger: lock: %w", err)
	}
	return l.take(f, syscall.LOCK_SH)
}

// take locks f, waiting at most the lock timeout. Closing the returned file
// releases the lock.
func (l *Ledger) take(f rawFile, how int) (rawFile, error) {
	err := flock(f.fd, how|syscall.LOCK_NB)
	if err == nil {
		return f, nil
	}
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		f.Close()
		return f, fmt.Errorf("ledger: lock: %w", err)
	}
	// Someone holds it. A blocking flock cannot be cancelled, so it runs
	// in a goroutine; on timeout that goroutine is left to finish and
	// release the lock at once.
	done := make(chan error, 1)
	go func() { done <- flock(f.fd, how) }()
	t := time.NewTimer(l.opts.LockTimeout)
	defer t.Stop()
	select {
	case err := <-done:
		if err != nil {
			f.Close()
			return f, fmt.Errorf("ledger: lock: %w", err)
		}
		return f, nil
	case <-t.C:
		go func() { <-done; f.Close() }()
		return f, fmt.Errorf("ledger: lock %s held by another process for over %v", l.path(lockName), l.opts.LockTimeout)
	}
}

func flock(fd, how int) error {
	for {
		err := syscall.Flock(fd, how)
		if err != syscall.EINTR {
			return err
		}
	}
}
