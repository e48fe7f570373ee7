package worktree

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// tree makes files (a trailing slash makes a directory) under a new root.
func tree(t *testing.T, paths ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, p := range paths {
		full := filepath.Join(root, p)
		if p[len(p)-1] == '/' {
			must(t, os.MkdirAll(full, 0o755))
			continue
		}
		must(t, os.MkdirAll(filepath.Dir(full), 0o755))
		must(t, os.WriteFile(full, []byte(p), 0o644))
	}
	return root
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// settled returns a moment after every change made so far under root:
// file times come from a clock that ticks coarsely (a few ms), so it waits
// until a fresh file's time is past the newest one there.
func settled(t *testing.T, root string) time.Time {
	t.Helper()
	var newest time.Time
	filepath.Walk(root, func(p string, _ os.FileInfo, _ error) error {
		if c, ok := lchangeTime(p); ok && c.After(newest) {
			newest = c
		}
		return nil
	})
	probe := filepath.Join(t.TempDir(), "probe")
	for i := 0; i < 2000; i++ {
		must(t, os.WriteFile(probe, nil, 0o644))
		if c, _ := lchangeTime(probe); c.After(newest) {
			return newest
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the file clock does not advance")
	return newest
}

// edit writes to path until its change time is after since.
func edit(t *testing.T, path string, since time.Time) {
	t.Helper()
	for i := 0; i < 2000; i++ {
		must(t, os.WriteFile(path, []byte("edited"), 0o644))
		if c, _ := lchangeTime(path); c.After(since) {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the file clock does not advance")
}

func TestUnchanged(t *testing.T) {
	root := tree(t, "go.mod", "a/b/c.go", "a/d.go", "docs/")
	since := settled(t, root)
	r := ChangedSince(root, since, Options{})
	if r.Changed || r.Incomplete {
		t.Fatalf("untouched tree reported %+v", r)
	}
	if r.Entries != 7 { // root, go.mod, a, a/b, a/b/c.go, a/d.go, docs
		t.Errorf("looked at %d entries, want 7", r.Entries)
	}
}

func TestEditDeep(t *testing.T) {
	root := tree(t, "go.mod", "a/b/c.go", "a/d.go")
	since := settled(t, root)
	edit(t, filepath.Join(root, "a/b/c.go"), since)
	r := ChangedSince(root, since, Options{})
	if !r.Changed || r.Path != filepath.Join(root, "a/b/c.go") {
		t.Fatalf("edit not found: %+v", r)
	}
}

func TestDeleteAndCreate(t *testing.T) {
	root := tree(t, "a/b/c.go", "a/d.go")
	since := settled(t, root)
	must(t, os.Remove(filepath.Join(root, "a/b/c.go")))
	if r := ChangedSince(root, since, Options{}); !r.Changed || r.Path != filepath.Join(root, "a/b") {
		t.Fatalf("deletion not found through its directory: %+v", r)
	}
}

func TestQuiet(t *testing.T) {
	root := tree(t, "src/x.go", "out/")
	since := settled(t, root)
	edit(t, filepath.Join(root, "out/report.xml"), since)
	after := settled(t, root)
	quiet := []Interval{{From: since.Add(time.Nanosecond), To: after}}
	if r := ChangedSince(root, since, Options{Quiet: quiet}); r.Changed {
		t.Fatalf("a write inside a quiet interval counted: %+v", r)
	}
	if r := ChangedSince(root, since, Options{}); !r.Changed {
		t.Fatalf("the same write outside any interval did not count: %+v", r)
	}
}

func TestSkipped(t *testing.T) {
	root := tree(t, "main.go", "node_modules/x/index.js", ".git/index", "ledger/ledger.jsonl", "target/debug/")
	since := settled(t, root)
	edit(t, filepath.Join(root, "node_modules/x/index.js"), since)
	edit(t, filepath.Join(root, ".git/index"), since)
	edit(t, filepath.Join(root, "ledger/ledger.jsonl"), since)
	edit(t, filepath.Join(root, "target/debug/app"), since)
	r := ChangedSince(root, since, Options{Skip: []string{filepath.Join(root, "ledger")}})
	if r.Changed {
		t.Fatalf("a change in a skipped directory counted: %+v", r)
	}
}

func TestLinks(t *testing.T) {
	outside := tree(t, "f")
	real := tree(t, "main.go")
	parent := t.TempDir()
	link := filepath.Join(parent, "proj")
	must(t, os.Symlink(real, link))
	must(t, os.Symlink(outside, filepath.Join(real, "elsewhere")))
	since := settled(t, real)
	edit(t, filepath.Join(outside, "f"), since)
	if r := ChangedSince(link, since, Options{}); r.Changed || r.Incomplete {
		t.Fatalf("a link inside the tree was followed: %+v", r)
	}
	edit(t, filepath.Join(real, "main.go"), since)
	if r := ChangedSince(link, since, Options{}); !r.Changed {
		t.Fatalf("a root reached through a link was not walked: %+v", r)
	}
}

func TestUnreadableRoot(t *testing.T) {
	r := ChangedSince(filepath.Join(t.TempDir(), "gone"), time.Now(), Options{})
	if r.Changed || !r.Incomplete {
		t.Fatalf("a missing root must be reported incomplete: %+v", r)
	}
}

func TestCap(t *testing.T) {
	root := tree(t, "a", "b", "c", "d", "e")
	since := settled(t, root)
	r := ChangedSince(root, since, Options{MaxEntries: 3, NoGit: true})
	if r.Changed || !r.Incomplete || r.Entries != 3 {
		t.Fatalf("capped walk: %+v", r)
	}
}

// TestGitFallback: when the walk reaches its bound in a repository, git
// status names the modified and untracked files, which are then judged.
func TestGitFallback(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := tree(t, "a.go", "b.go", "c/d.go", "c/e.go", "f.go")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@t",
			"-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "x")
	must(t, os.WriteFile(filepath.Join(root, "f.go"), []byte("modified before"), 0o644))
	since := settled(t, root)
	opt := Options{MaxEntries: 2}
	if r := ChangedSince(root, since, opt); r.Changed || r.Incomplete || !r.Git {
		t.Fatalf("nothing changed since, git asked: %+v", r)
	}
	edit(t, filepath.Join(root, "c/e.go"), since)
	if r := ChangedSince(root, since, opt); !r.Changed || !r.Git || r.Path != filepath.Join(root, "c/e.go") {
		t.Fatalf("modified file not found through git: %+v", r)
	}
}

func TestSplitStatus(t *testing.T) {
	got := splitStatus([]byte(" M a.go\x00R  new.go\x00old.go\x00?? dir/x\x00"))
	want := []string{"a.go", "new.go", "old.go", "dir/x"}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
}

func BenchmarkGOROOT(b *testing.B) {
	root := filepath.Join(os.Getenv("GOROOT"))
	if root == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			b.Skip("no GOROOT")
		}
		root = string(out[:len(out)-1])
	}
	var r Result
	for b.Loop() {
		r = ChangedSince(root, time.Now().Add(time.Hour), Options{NoGit: true})
	}
	b.ReportMetric(float64(r.Entries), "entries")
}
