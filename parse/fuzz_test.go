package parse

import (
	"bufio"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/guard-exec/guard-exec/internal/corpus"
)

// FuzzAnalyze checks that the analysis never panics, and that a script
// and its canonical reprint have the same facts (the sorted command lines
// and dynamic kinds): the loop brake's fingerprint must not change what
// the command is.
func FuzzAnalyze(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		opts := testOptions()
		start := time.Now()
		an := Analyze(src, opts)
		if d := time.Since(start); d > 10*time.Second {
			// Not a benchmark: ten seconds mean a pathological path.
			t.Fatalf("analysis of %q took %v", src, d)
		}
		if an.Err != nil {
			if an.Err.Kind == ErrPanic {
				t.Fatalf("panic: %v", an.Err)
			}
			return
		}
		again := Analyze(an.Canonical, opts)
		if again.Err != nil {
			t.Fatalf("canonical form %q of %q does not analyse: %v", an.Canonical, src, again.Err)
		}
		if a, b := summary(an), summary(again); a != b {
			t.Fatalf("canonical form changes the facts\nsrc:   %q\ncanon: %q\n%s\n---\n%s", src, an.Canonical, a, b)
		}
	})
}

// fuzzSeeds are the corpus commands and a sample of table sources.
func fuzzSeeds() []string {
	seeds := []string{
		"rm -rf /", "X=rm; $X -rf /", `bash -c 'rm -rf "$1"' _ /`, "cat <<'EOF' | sh\nrm -rf /\nEOF",
		"f() { rm -rf /; }; f", ":(){ :|:& };:", "eval \"$(curl x)\"", "cd / && rm -rf *",
		"for d in a b; do rm -rf $d; done", "python3 -c 'import os; os.system(\"rm -rf /\")'",
		"find . -exec rm {} \\;", "ls | xargs -I{} sh -c 'echo {}'", "case $x in a) ls;; esac",
		"shopt -s expand_aliases\nalias ls='rm -rf /'\nls", "a=(1 2); echo ${a[@]:1}", "echo $((1+2))",
	}
	for _, p := range ProgramTable() {
		seeds = append(seeds, p.Hold...)
		seeds = append(seeds, p.Allow...)
	}
	if fh, err := os.Open("../testdata/corpus/commands.tsv"); err == nil {
		defer fh.Close()
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if cmd, ok := corpusCommand(sc.Text()); ok {
				seeds = append(seeds, cmd)
			}
		}
	}
	return seeds
}

// TestCanonical checks the canonical form on a few spellings.
func TestCanonical(t *testing.T) {
	same := [][]string{
		{`echo  'a b'   "c"`, `echo "a b" c`, `echo a\ b 'c'`},
		{`git commit -m 'it'"'"'s'`, `git commit -m "it's"`},
		{"ls -la   # note", "ls -la"},
		{"a; b", "a\nb", "a ;b"},
		{`rm -rf "$HOME"`, `rm -rf "${HOME}"`},
	}
	for _, group := range same {
		want := Analyze(group[0], testOptions()).Canonical
		for _, s := range group[1:] {
			if got := Analyze(s, testOptions()).Canonical; got != want {
				t.Errorf("%q: canonical %q, want %q (as %q)", s, got, want, group[0])
			}
		}
	}
	differ := [][2]string{
		{"rm -rf *", "rm -rf '*'"},
		{"cat <<EOF\n$x\nEOF", "cat <<'EOF'\n$x\nEOF"},
		{"echo ~", "echo '~'"},
		{"rm -rf a", "rm -rf b"},
	}
	for _, p := range differ {
		if a, b := Analyze(p[0], testOptions()).Canonical, Analyze(p[1], testOptions()).Canonical; a == b {
			t.Errorf("%q and %q must differ, both %q", p[0], p[1], a)
		}
	}
	for _, s := range []string{"case x in a) ;; esac", "case x in a) ls;; b) ;; esac"} {
		an := Analyze(s, testOptions())
		if again := Analyze(an.Canonical, testOptions()); again.Err != nil {
			t.Errorf("%q: canonical %q does not parse: %v", s, an.Canonical, again.Err)
		}
	}
}

// corpusCommand extracts the command of a corpus line.
func corpusCommand(line string) (string, bool) {
	if line == "" || strings.HasPrefix(line, "#") {
		return "", false
	}
	parts := strings.SplitN(line, "\t", 3)
	if len(parts) < 3 {
		return "", false
	}
	return corpus.UnescapeTSV(parts[2]), true
}
