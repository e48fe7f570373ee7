package main

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTraceOnlyOnAPipe: the stage trace is written to an inherited pipe,
// and a descriptor that is a regular file (or no number) is ignored, so
// the variable cannot make guard-exec append to a file.
func TestTraceOnlyOnAPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	startTrace([]string{"X=1", envTraceFD + "=" + strconv.Itoa(int(w.Fd()))})
	mark("config")
	flushTrace()
	w.Close()
	line, _ := io.ReadAll(r)
	f := strings.Fields(string(line))
	if len(f) != 4 || f[0] != "trace" || !strings.HasPrefix(f[1], "main=") || !strings.HasPrefix(f[2], "config=") || !strings.HasPrefix(f[3], "exit=") {
		t.Fatalf("trace line = %q", line)
	}

	file, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for _, v := range []string{strconv.Itoa(int(file.Fd())), "x", "1", ""} {
		startTrace([]string{envTraceFD + "=" + v})
		if trace != nil {
			t.Errorf("%s=%q: trace enabled", envTraceFD, v)
		}
		mark("config")
		flushTrace()
	}
	if fi, _ := file.Stat(); fi.Size() != 0 {
		t.Errorf("the regular file got %d bytes", fi.Size())
	}
}
