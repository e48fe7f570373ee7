package shim

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A destination the copier writes to, and how to get back what reached it.
type destination struct {
	name string
	open func(t *testing.T) (f *os.File, result func() []byte)
}

func fileDestination(flags int) func(t *testing.T) (*os.File, func() []byte) {
	return func(t *testing.T) (*os.File, func() []byte) {
		p := filepath.Join(t.TempDir(), "out")
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|flags, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		return f, func() []byte {
			f.Close()
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	}
}

// pipeDestination drains a pipe in a goroutine. goPipe is os.Pipe, whose write
// end is non-blocking and in the runtime's poller; otherwise the write end is a
// plain blocking descriptor, as a shell would pass it.
func pipeDestination(goPipe bool) func(t *testing.T) (*os.File, func() []byte) {
	return func(t *testing.T) (*os.File, func() []byte) {
		var r, w *os.File
		if goPipe {
			var err error
			if r, w, err = os.Pipe(); err != nil {
				t.Fatal(err)
			}
		} else {
			var p [2]int
			if err := pipe2(p[:], syscall.O_CLOEXEC); err != nil {
				t.Fatal(err)
			}
			r, w = os.NewFile(uintptr(p[0]), "r"), os.NewFile(uintptr(p[1]), "w")
		}
		got := make(chan []byte, 1)
		go func() {
			var b bytes.Buffer
			io.Copy(&b, r)
			r.Close()
			got <- b.Bytes()
		}()
		return w, func() []byte { w.Close(); return <-got }
	}
}

var destinations = []destination{
	{"file", fileDestination(os.O_TRUNC)},
	{"append-file", fileDestination(os.O_APPEND)}, // splice refuses O_APPEND: the read/write path
	{"os-pipe", pipeDestination(true)},
	{"blocking-pipe", pipeDestination(false)},
}

// outputs are scripts whose output has structure, so a misplaced byte shows.
var outputs = []struct{ name, script string }{
	{"small", "printf 'a\\nb'"},
	{"lines", "seq 1 300000"}, // 2 MB in large writes
	{"small-writes", "for i in $(seq 1 3000); do printf '%05d\\n' $i; done"}, // many small chunks
	{"big", "seq 1 4000000; printf tail-end"},                                // 30 MB
	{"empty", "true"},
}

// checkStream compares a Stream with the bytes that reached the destination.
func checkStream(t *testing.T, s Stream, got []byte, keep int) {
	t.Helper()
	if s.Bytes != int64(len(got)) {
		t.Fatalf("digest of %d bytes, %d delivered", s.Bytes, len(got))
	}
	if s.Hashed < 0 || s.Hashed > s.Bytes || s.Hashed < s.Bytes && s.Hashed < hashFloor {
		t.Fatalf("%d of %d bytes hashed (floor %d)", s.Hashed, s.Bytes, hashFloor)
	}
	sum := sha256.Sum256(got[:s.Hashed])
	if s.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("sha256 %s is not of the first %d bytes", s.SHA256, s.Hashed)
	}
	head := got[:min(keep, len(got))]
	rest := got[len(head):]
	tail := rest[max(0, len(rest)-keep):]
	if !bytes.Equal(s.Head, head) || !bytes.Equal(s.Tail, tail) {
		t.Errorf("head %q tail %q, want %q %q", s.Head, s.Tail, head, tail)
	}
	if s.Truncated != (len(got) > len(head)+len(tail)) {
		t.Errorf("truncated %v for %d bytes", s.Truncated, len(got))
	}
}

func runTo(t *testing.T, d destination, script string, keep int) (Stream, []byte) {
	t.Helper()
	dst, result := d.open(t)
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	res, err := Run(context.Background(), &Spec{Path: realBash(t), Argv: []string{"bash", "-c", script},
		Stdout: dst, Stderr: null, DigestBytes: keep})
	if err != nil {
		t.Fatal(err)
	}
	got := result()
	if res.ExitCode != 0 || res.Incomplete {
		t.Fatalf("%s", summary(res))
	}
	return res.Stdout, got
}

// TestCopyDestinations: every kind of destination gets the command's bytes
// exactly, and the digest describes them, hashed whole.
func TestCopyDestinations(t *testing.T) {
	for _, d := range destinations {
		for _, o := range outputs {
			t.Run(d.name+"/"+o.name, func(t *testing.T) {
				s, got := runTo(t, d, o.script, 100)
				checkStream(t, s, got, 100)
			})
		}
	}
}

// TestHashGivesWay: once hashing gives way (forced here at a low floor), the
// bytes and their count stay exact, the hash is of a prefix it says the length
// of, and head and tail are still the stream's first and last bytes.
func TestHashGivesWay(t *testing.T) {
	oldFloor, oldWay := hashFloor, hashGivesWay
	hashFloor, hashGivesWay = 64<<10, true
	defer func() { hashFloor, hashGivesWay = oldFloor, oldWay }()
	for _, d := range destinations {
		for _, o := range outputs {
			for _, keep := range []int{7, 2048} {
				t.Run(fmt.Sprintf("%s/%s/%d", d.name, o.name, keep), func(t *testing.T) {
					s, got := runTo(t, d, o.script, keep)
					checkStream(t, s, got, keep)
					if len(got) > 4<<20 && s.Hashed == s.Bytes {
						t.Errorf("%d bytes, all hashed: hashing did not give way", s.Bytes)
					}
				})
			}
		}
	}
}
