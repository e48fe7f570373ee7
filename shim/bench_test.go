package shim

import (
	"context"
	"io"
	"os"
	"os/exec"
	"testing"
)

// The benchmarks compare Run with the floor: starting bash with os/exec and
// waiting. scripts/bench.sh measures the whole guard-exec command the same way.

func devNull(b *testing.B) *os.File {
	b.Helper()
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	return f
}

// BenchmarkExecTrue is the floor: os/exec runs bash -c true and waits.
func BenchmarkExecTrue(b *testing.B) {
	bash, null := realBash(b), devNull(b)
	for b.Loop() {
		cmd := exec.Command(bash, "-c", "true")
		cmd.Stdout, cmd.Stderr = null, null
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunTrue is Run of bash -c true in pipe mode, output observed.
func BenchmarkRunTrue(b *testing.B) {
	bash, null := realBash(b), devNull(b)
	spec := &Spec{Path: bash, Argv: []string{"bash", "-c", "true"}, Stdout: null, Stderr: null}
	for b.Loop() {
		if _, err := Run(context.Background(), spec); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunTruePTY is Run of bash -c true under a pty.
func BenchmarkRunTruePTY(b *testing.B) {
	bash, null := realBash(b), devNull(b)
	spec := &Spec{Path: bash, Argv: []string{"bash", "-c", "true"}, Stdout: null, Stderr: null, PTY: PTYAlways}
	for b.Loop() {
		if _, err := Run(context.Background(), spec); err != nil {
			b.Fatal(err)
		}
	}
}

const throughputBytes = 200 << 20

var throughputScript = "head -c 209715200 /dev/zero"

// BenchmarkThroughputBash: bash writes 200 MiB into a pipe that a reader drains.
func BenchmarkThroughputBash(b *testing.B) {
	bash := realBash(b)
	b.SetBytes(throughputBytes)
	for b.Loop() {
		cmd := exec.Command(bash, "-c", throughputScript)
		r, w := pipeToDiscard(b)
		cmd.Stdout = w
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		w.Close()
		cmd.Wait()
		<-r
	}
}

// BenchmarkThroughputRun: the same through Run, pipe mode.
func BenchmarkThroughputRun(b *testing.B) {
	benchThroughput(b, PTYNever)
}

// BenchmarkThroughputPTY: the same through Run, under a pty.
func BenchmarkThroughputPTY(b *testing.B) {
	benchThroughput(b, PTYAlways)
}

func benchThroughput(b *testing.B, mode PTYMode) {
	bash := realBash(b)
	b.SetBytes(throughputBytes)
	for b.Loop() {
		r, w := pipeToDiscard(b)
		_, err := Run(context.Background(), &Spec{Path: bash, Argv: []string{"bash", "-c", throughputScript}, Stdout: w, PTY: mode})
		if err != nil {
			b.Fatal(err)
		}
		w.Close()
		<-r
	}
}

// pipeToDiscard returns the write end of a pipe whose reader discards everything,
// and a channel closed when the reader saw EOF.
func pipeToDiscard(b *testing.B) (<-chan struct{}, *os.File) {
	b.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		io.CopyBuffer(io.Discard, r, make([]byte, 128<<10))
		r.Close()
		close(done)
	}()
	return done, w
}
