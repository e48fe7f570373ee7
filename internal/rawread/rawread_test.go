package rawread

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestFile(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 4095, 4096, 4097, 10000} {
		p := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte("x"), size)
		if err := os.WriteFile(p, want, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := File(p, 0, 10000)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("size %d: got %d bytes, %v", size, len(got), err)
		}
		if size > 0 {
			if _, err := File(p, 0, size-1); !errors.Is(err, ErrTooLarge) {
				t.Errorf("size %d, limit %d: %v, want ErrTooLarge", size, size-1, err)
			}
		}
	}
	if _, err := File(filepath.Join(dir, "none"), 0, 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
}
