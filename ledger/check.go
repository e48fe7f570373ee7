package ledger

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// CheckAppendable reports whether an append to the ledger in dir would
// succeed as far as the files allow, without writing a record: the
// directory (or the nearest existing parent it would be made in) takes a
// new file, and the ledger and lock files that exist open for writing.
// For guard-exec doctor, which must not call a ledger ok that every
// command would fail to record in.
func CheckAppendable(dir string) error {
	d := dir
	for {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("%s is not a directory", d)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		parent := filepath.Dir(d)
		if parent == d {
			return fmt.Errorf("%s: no existing parent directory", dir)
		}
		d = parent
	}
	f, err := os.CreateTemp(d, ".guard-exec-check-*")
	if err != nil {
		return err
	}
	f.Close()
	os.Remove(f.Name())
	if d != dir {
		return nil // made on first use
	}
	for _, name := range []string{activeName, lockName} {
		f, err := openRaw(filepath.Join(dir, name), syscall.O_WRONLY|syscall.O_APPEND, 0)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		f.Close()
	}
	return nil
}
