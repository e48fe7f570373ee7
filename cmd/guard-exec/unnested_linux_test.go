package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestUnnestedFile: a parent's line is found once added, another's is
// not, and the file stays within its bound, the newest line in it.
func TestUnnestedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache", "guard-exec", unnestedName)
	u := unnested{path: path, key: "4242 1000"}
	if u.holds() {
		t.Fatal("an absent file holds a line")
	}
	u.add()
	if !u.holds() {
		t.Fatal("the line just added is not found")
	}
	if (unnested{path: path, key: "4242 1001"}).holds() {
		t.Error("a parent with another start time is taken for the one remembered")
	}
	if (unnested{path: path, key: "424 1000"}).holds() {
		t.Error("a line is found by a prefix of it")
	}
	var last unnested
	for i := range 1000 {
		last = unnested{path: path, key: strconv.Itoa(i) + " " + strconv.Itoa(1e9+i)}
		last.add()
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > maxUnnested {
		t.Errorf("the file grew to %d bytes, past its bound %d", fi.Size(), maxUnnested)
	}
	if !last.holds() {
		t.Error("the newest line was dropped when the file was emptied")
	}
	if b, _ := os.ReadFile(path); strings.HasPrefix(string(b), "0 ") {
		t.Error("the oldest lines were kept")
	}
}

// TestOuterRemembered: a guard with no guard above it writes its parent's
// line, and the next guard with that parent finds it there and is a guard
// of its own too. (Nesting itself is proven with real guards in
// nested_linux_test.go, which this cache must not change.)
func TestOuterRemembered(t *testing.T) {
	if o, alone := walkToOuter(); o != nil || !alone {
		t.Skipf("the test runs below a process that is or could be a guard (outer %v)", o)
	}
	g, _ := newCheckGuard(t.TempDir())
	if g == nil {
		t.Fatal("cannot set up the check world")
	}
	u := g.unnestedCache()
	if u.key == "" || u.path == "" {
		t.Fatalf("no line for the parent: %+v", u)
	}
	if want := strconv.Itoa(os.Getppid()) + " "; !strings.HasPrefix(u.key, want) {
		t.Errorf("the parent's line is %q, want it to start with %q", u.key, want)
	}
	if u.holds() {
		t.Fatal("a new cache directory holds the parent already")
	}
	if g.outer() != nil {
		t.Fatal("a guard of its own found a guard above it")
	}
	if !u.holds() {
		t.Fatal("the walk that found no guard left no line")
	}
	g2, _ := newCheckGuard(t.TempDir())
	g2.vars["XDG_CACHE_HOME"] = g.vars["XDG_CACHE_HOME"]
	if g2.outer() != nil {
		t.Error("the remembered parent made a guard nested")
	}
}
