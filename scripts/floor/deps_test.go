package main

import (
	"go/build"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDepsAreGuardExecs: the floordeps build imports exactly the packages
// outside the standard library that guard-exec's main package imports, so
// that its time is the price of linking them and nothing else.
func TestDepsAreGuardExecs(t *testing.T) {
	nonStd := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			if first, _, _ := strings.Cut(p, "/"); strings.Contains(first, ".") {
				out = append(out, p)
			}
		}
		slices.Sort(out)
		return out
	}
	guard, err := build.ImportDir(filepath.Join("..", "..", "cmd", "guard-exec"), 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx := build.Default
	ctx.BuildTags = append(ctx.BuildTags, "floordeps")
	floor, err := ctx.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	want, got := nonStd(guard.Imports), nonStd(floor.Imports)
	if !slices.Equal(got, want) {
		t.Errorf("scripts/floor/deps.go imports\n  %v\nguard-exec imports\n  %v", got, want)
	}
}
