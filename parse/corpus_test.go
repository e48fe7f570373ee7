package parse

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/internal/corpus"
)

// TestCorpus checks facts-level invariants over the shared corpus: every
// line analyses, each risky spelling (evasion-*) exposes what it runs, and
// benign lookalikes run nothing nested. The verdicts are policy's.
func TestCorpus(t *testing.T) {
	fh, err := os.Open("../testdata/corpus/commands.tsv")
	if err != nil {
		t.Skip(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		parts := strings.SplitN(text, "\t", 3)
		if len(parts) != 3 {
			t.Errorf("line %d: want VERDICT<TAB>CATEGORY<TAB>COMMAND", line)
			continue
		}
		switch parts[0] {
		case "allow", "warn", "hold", "deny":
		default:
			t.Errorf("line %d: verdict %q", line, parts[0])
		}
		n++
		cmd := corpus.UnescapeTSV(parts[2])
		an := Analyze(cmd, corpusOptions())
		if an.Err != nil {
			t.Errorf("line %d %q: %v", line, cmd, an.Err)
			continue
		}
		switch cat := parts[1]; {
		case strings.HasPrefix(cat, "evasion-"):
			if !exposes(an) {
				t.Errorf("line %d %q (%s): nothing risky exposed:\n%s", line, cmd, cat, dump(an))
			}
		case cat == "lookalike":
			for _, c := range an.Commands {
				if len(c.Via) > 0 || c.Context&(InNested|InInterpreter) != 0 {
					t.Errorf("line %d %q: data ran as code:\n%s", line, cmd, dump(an))
					break
				}
			}
			if len(an.Dynamic) > 0 {
				t.Errorf("line %d %q: data is dynamic code:\n%s", line, cmd, dump(an))
			}
		}
	}
	if n < 400 {
		t.Errorf("corpus has %d commands, want at least 400", n)
	}
}

// exposes reports whether the analysis shows a risky program running: rm,
// git push/reset, or code that cannot be known.
func exposes(an *Analysis) bool {
	if len(an.Dynamic) > 0 {
		return true
	}
	for _, c := range an.Commands {
		argv := strings.Join(c.Argv(), " ")
		switch c.Name {
		case "rm", "shred", "mkfs":
			return true
		case "git":
			if strings.Contains(argv, "push") || strings.Contains(argv, "reset") {
				return true
			}
		}
	}
	return false
}

// TestConcurrent analyses the corpus from several goroutines at once: the
// parser and printer pools and the expand configurations must not share
// state (run with -race).
func TestConcurrent(t *testing.T) {
	cmds := corpusCommands(t)
	want := make([]string, len(cmds))
	for i, c := range cmds {
		want[i] = summary(Analyze(c, corpusOptions()))
	}
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func(g int) {
			defer func() { done <- true }()
			for i := range cmds {
				k := (i + g*len(cmds)/4) % len(cmds)
				if got := summary(Analyze(cmds[k], corpusOptions())); got != want[k] {
					t.Errorf("%q: concurrent analysis differs", cmds[k])
					return
				}
			}
		}(g)
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}
