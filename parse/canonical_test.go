package parse

import (
	"math/rand"
	"strings"
	"testing"
)

// TestPlainScriptCanonical checks canonical's shortcut: a script that
// plainScript accepts prints back as itself, in both dialects. It tries
// the corpus and fuzz seeds and words made of the plain characters,
// keywords and assignment-like words among them.
func TestPlainScriptCanonical(t *testing.T) {
	srcs := fuzzSeeds()
	words := []string{"git", "status", "-rf", "--force", "a=b", "X=1", "=x", "~", "~/x", "HEAD~1", "a~b", "-",
		"%1", "^", "a^b", "@", "+x", ",", ":", "a:b", "./x", "../..", "1", "2", "time", "export", "declare",
		"local", "let", "in", "do", "done", "if", "then", "fi", "esac", "coproc", "function", "select",
		"typeset", "readonly", "nameref", "x+=1", "a.b.c", "--x=y", "-n5", "_", "__a"}
	rng := rand.New(rand.NewSource(1))
	for range 3000 {
		n := 1 + rng.Intn(5)
		ws := make([]string, n)
		for i := range ws {
			ws[i] = words[rng.Intn(len(words))]
		}
		srcs = append(srcs, strings.Join(ws, " "))
	}
	plain := 0
	for _, src := range srcs {
		if !plainScript(src) {
			continue
		}
		plain++
		for _, d := range []Dialect{Bash, POSIX} {
			f, err := parseScript(src, d)
			if err != nil {
				t.Errorf("%q (dialect %v): plain but does not parse: %v", src, d, err)
				continue
			}
			if got := printCanonical(f, src, d); got != src {
				t.Errorf("%q (dialect %v): plain, but prints as %q", src, d, got)
			}
		}
	}
	if plain < 500 {
		t.Errorf("only %d plain scripts tried", plain)
	}
	for _, src := range []string{"", " ls", "ls ", "ls  -l", "ls\t-l", "ls\n", "time ls", "~ x", "echo 'a'", "a;b", "a#b", "x # c", "!ls", "{ls}"} {
		if plainScript(src) {
			t.Errorf("%q taken as plain", src)
		}
	}
}

// TestNoCanonical: with Options.NoCanonical the script is its own
// Canonical, and nothing else of the analysis changes.
func TestNoCanonical(t *testing.T) {
	src := `echo   "a b" ; rm  -rf 'build'`
	full := Analyze(src, Options{})
	skip := Analyze(src, Options{NoCanonical: true})
	if full.Canonical == src {
		t.Fatalf("Canonical(%q) is the script itself; the test needs one the printer changes", src)
	}
	if skip.Canonical != src {
		t.Errorf("with NoCanonical, Canonical = %q, want the script %q", skip.Canonical, src)
	}
	if len(full.Commands) != len(skip.Commands) {
		t.Fatalf("%d commands with the fingerprint, %d without", len(full.Commands), len(skip.Commands))
	}
	for i := range full.Commands {
		if f, s := full.Commands[i], skip.Commands[i]; f.Name != s.Name || len(f.Args) != len(s.Args) || f.Span != s.Span {
			t.Errorf("command %d: %q %d args %q with the fingerprint, %q %d args %q without", i, f.Name, len(f.Args), f.Span, s.Name, len(s.Args), s.Span)
		}
	}
}
