package parse

import (
	"strings"
	"testing"
)

// pathological are inputs that exhausted the guard: the parser and the
// walk recursed once per link of a chain, and a long pipeline copied its
// upstream at every stage (100,000 stages: 105 s and 5 GB).
var pathological = map[string]string{
	"pipe-100k":  strings.Repeat("true|", 100000) + "true",
	"pipe-20k":   strings.Repeat("true | ", 20000) + "true",
	"and-100k":   strings.Repeat("true && ", 100000) + "true",
	"or-lines":   strings.Repeat("true ||\n", 5000) + "true",
	"stmts-100k": strings.Repeat("true;", 100000),
	"lines-100k": strings.Repeat("true\n", 100000),
}

// TestBudget checks the verdict on them, not the time (the benchmark
// below measures it): refused before parsing, with a position.
func TestPathological(t *testing.T) {
	for name, src := range pathological {
		an := Analyze(src, testOptions())
		if an.Err == nil || an.Err.Kind != ErrTooMuch || !an.Err.Pos.IsValid() {
			t.Errorf("%s: err %v, want %s", name, an.Err, ErrTooMuch)
		}
		// Nested, the same input is refused too, as a fact.
		an = Analyze("bash -c "+quoteWord(src, Bash), testOptions())
		if an.Err != nil || len(an.Dynamic) == 0 {
			t.Errorf("%s nested: err %v, %d dynamic facts", name, an.Err, len(an.Dynamic))
		}
	}
	// Within the bounds, and text that only looks like a chain.
	fine := []string{
		strings.Repeat("true|", MaxChain-1) + "true",
		strings.Repeat("true\n", MaxCommands-1),
		"cat > t.md <<EOF\n" + strings.Repeat("| a | b |\n", 5000) + "EOF\n",
		"cat > t.md <<'EOF'\n" + strings.Repeat("| a | b |\n", 5000) + "EOF\n",
		"echo '" + strings.Repeat("a|", 5000) + "'",
		"echo \"" + strings.Repeat("a&&", 5000) + "\"",
		strings.Repeat("# a | b | c\n", 2000) + "true",
		strings.Repeat("echo x >&2 2>&1 &>/dev/null\n", 2000),
	}
	for _, src := range fine {
		if an := Analyze(src, testOptions()); an.Err != nil {
			t.Errorf("%.40q…: %v", src, an.Err)
		}
	}
}

func BenchmarkPathological(b *testing.B) {
	for name, src := range pathological {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				Analyze(src, testOptions())
			}
		})
	}
}
