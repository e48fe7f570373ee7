package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProgramIdentity: a copy, a hard link and a symlink of a program on
// PATH are that program, whatever they are called; another file of the
// same size is not.
func TestProgramIdentity(t *testing.T) {
	bin, work := t.TempDir(), t.TempDir()
	rm := filepath.Join(bin, "rm")
	if err := os.WriteFile(rm, []byte("\x7fELF stand-in for rm"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "bash"), []byte("\x7fELF stand-in for bash, longer"), 0o755); err != nil {
		t.Fatal(err)
	}
	copyTo := filepath.Join(work, "del")
	if err := os.WriteFile(copyTo, []byte("\x7fELF stand-in for rm"), 0o755); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(work, "same-size")
	if err := os.WriteFile(other, []byte("\x7fELF stand-in for XX"), 0o755); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(work, "hard")
	if err := os.Link(rm, hard); err != nil {
		t.Skip("no hard links here:", err)
	}
	sym := filepath.Join(work, "mybash")
	if err := os.Symlink(filepath.Join(bin, "bash"), sym); err != nil {
		t.Fatal(err)
	}
	pi := &programIdentity{getenv: func(k string) string {
		if k == "PATH" {
			return bin
		}
		return ""
	}}
	if _, bin := pi.ProgramAt(other); !bin {
		t.Errorf("a file starting with ELF's magic is not taken for a compiled program")
	}
	script := filepath.Join(work, "configure")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if name, bin := pi.ProgramAt(script); name != "" || bin {
		t.Errorf("a shell script is taken for program %q (binary %v)", name, bin)
	}
	for path, want := range map[string]string{copyTo: "rm", hard: "rm", sym: "bash", other: "", filepath.Join(work, "none"): ""} {
		if got, _ := pi.ProgramAt(path); got != want {
			t.Errorf("ProgramAt(%s) = %q, want %q", filepath.Base(path), got, want)
		}
	}
}

// BenchmarkProgramIdentity measures the cost on a file that is no known
// program (the usual case: ./configure, ./gradlew): one lstat and a size
// lookup.
func BenchmarkProgramIdentity(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "configure")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho hi\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	pi := &programIdentity{getenv: os.Getenv}
	pi.ProgramAt(p)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pi.ProgramAt(p)
	}
}
