package shim

import (
	"bytes"
	"errors"
	"io"
	"os"
	"syscall"
	"testing"
	"time"
)

// TestCopierWriterSeesFailure: when the destination refuses the bytes (a full
// disk: /dev/full says ENOSPC) the command's next write fails with EPIPE, as it
// would writing to a pipe whose reader is gone, and the stream is incomplete;
// on every relay path.
func TestCopierWriterSeesFailure(t *testing.T) {
	for _, rp := range relayPaths {
		t.Run(rp.name, func(t *testing.T) {
			rp.use(t)
			full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
			if err != nil {
				t.Skip("no /dev/full here:", err)
			}
			defer full.Close()
			c, w, err := newCopier(full, 16)
			if err != nil {
				t.Fatal(err)
			}
			c.start()
			chunk := bytes.Repeat([]byte("x"), 4096)
			deadline := time.Now().Add(30 * time.Second)
			for {
				_, err = w.Write(chunk)
				if err != nil || time.Now().After(deadline) {
					break
				}
			}
			w.Close()
			if !errors.Is(err, syscall.EPIPE) {
				t.Errorf("the writer got %v, want EPIPE", err)
			}
			if !drain(0, c) {
				t.Error("a refused stream is not reported incomplete")
			}
		})
	}
}

// TestCopierEOFAtLastWriter: the copier reads on while any writer holds the
// pipe, and ends, with every byte delivered, when the last one closes it.
func TestCopierEOFAtLastWriter(t *testing.T) {
	for _, rp := range relayPaths {
		t.Run(rp.name, func(t *testing.T) {
			rp.use(t)
			r, dst, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			got := make(chan []byte, 1)
			go func() { b, _ := io.ReadAll(r); r.Close(); got <- b }()
			c, w1, err := newCopier(dst, 64)
			if err != nil {
				t.Fatal(err)
			}
			fd, err := syscall.Dup(int(w1.Fd()))
			if err != nil {
				t.Fatal(err)
			}
			w2 := os.NewFile(uintptr(fd), "w2")
			c.start()
			w1.Write([]byte("first "))
			w1.Close()
			select {
			case <-c.done:
				t.Fatal("the copier stopped while a writer still held the pipe")
			case <-time.After(50 * time.Millisecond):
			}
			w2.Write([]byte("second"))
			w2.Close()
			select {
			case <-c.done:
			case <-time.After(30 * time.Second):
				t.Fatal("no end of file after the last writer closed")
			}
			c.r.Close()
			dst.Close()
			if b := <-got; string(b) != "first second" {
				t.Errorf("delivered %q", b)
			}
			if s := c.dig.stream(); s.Bytes != 12 || string(s.Head) != "first second" || s.Hashed != 12 {
				t.Errorf("digest %+v", s)
			}
		})
	}
}
