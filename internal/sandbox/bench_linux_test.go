package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// benchSpec is a spec the size of a real one: a repository with hooks and
// config, the ledger, twenty roots, a dozen protected paths outside them.
func benchSpec(b *testing.B) *Spec {
	proj := b.TempDir()
	for _, d := range []string{".git/hooks", ".guard-exec", ".claude"} {
		os.MkdirAll(filepath.Join(proj, d), 0o755)
	}
	os.WriteFile(filepath.Join(proj, ".git", "config"), nil, 0o644)
	home := b.TempDir()
	s := &Spec{Mode: Write, WriteRoots: []string{proj, os.TempDir(), "/var/tmp", "/dev/shm"}}
	for _, c := range []string{".cache", "go", ".npm", ".cargo/registry", ".cargo/git", ".rustup/downloads", ".pnpm-store",
		".local/share/pnpm", ".yarn/berry/cache", ".m2/repository", ".gradle/caches", ".gradle/wrapper", ".bun/install/cache"} {
		s.WriteRoots = append(s.WriteRoots, filepath.Join(home, c))
	}
	os.MkdirAll(filepath.Join(home, ".cache"), 0o755)
	for _, p := range []string{".guard-exec", ".git/hooks", ".git/config", ".git/config.worktree", ".claude", ".codex", ".gemini", ".guard-exec.toml"} {
		s.Protected = append(s.Protected, filepath.Join(proj, p))
	}
	for _, p := range []string{".config/guard-exec", ".local/state/guard-exec", ".local/share/guard-exec/shim", ".cache/guard-exec", ".claude", ".codex"} {
		s.Protected = append(s.Protected, filepath.Join(home, p))
	}
	return s
}

// cpuTime is the user+system time of this process and its reaped children.
func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	t := func(r syscall.Rusage) time.Duration {
		return time.Duration(r.Utime.Nano() + r.Stime.Nano())
	}
	return t(self) + t(kids)
}

// reportCPU adds the CPU time per op, which stays meaningful on a busy
// machine where wall time does not.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

func BenchmarkStartWait(b *testing.B) {
	defer reportCPU(b, cpuTime())
	for i := 0; i < b.N; i++ {
		c := exec.Command("/bin/true")
		if err := c.Start(); err != nil {
			b.Fatal(err)
		}
		c.Wait()
	}
}

func BenchmarkStartWaitSandboxed(b *testing.B) {
	if ABI() == 0 {
		b.Skip("no Landlock")
	}
	s := benchSpec(b)
	aside := b.TempDir()
	b.ResetTimer()
	defer reportCPU(b, cpuTime())
	for i := 0; i < b.N; i++ {
		c := exec.Command("/bin/true")
		spec := *s
		spec.real = nil // each command builds its spec anew
		j := TakeJournal(&spec, false)
		if _, err := StartCmd(c, &spec); err != nil {
			b.Fatal(err)
		}
		c.Wait()
		j.Restore(aside)
	}
}

func BenchmarkStartWaitSandboxedMinimal(b *testing.B) {
	if ABI() == 0 {
		b.Skip("no Landlock")
	}
	s := &Spec{Mode: Write, WriteRoots: []string{b.TempDir()}}
	b.ResetTimer()
	defer reportCPU(b, cpuTime())
	for i := 0; i < b.N; i++ {
		c := exec.Command("/bin/true")
		if _, err := StartCmd(c, s); err != nil {
			b.Fatal(err)
		}
		c.Wait()
	}
}
