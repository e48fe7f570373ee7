package parse

import (
	"slices"
	"strings"
	"testing"
)

func argWords(line string) []Word {
	var ws []Word
	for _, f := range strings.Fields(line) {
		ws = append(ws, Word{Value: f})
	}
	return ws
}

func operandValues(a *Args) []string {
	var out []string
	for _, w := range a.Operands {
		out = append(out, w.Value)
	}
	return out
}

// TestParseArgs covers option permutation, "--", values and stopping at
// the first operand, including operands that do not stand together (they
// are copied) and ones that do (they are a slice of the words).
func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		line  string
		spec  OptSpec
		ops   []string
		short string
	}{
		{"-rf /", OptSpec{}, []string{"/"}, "rf"},
		{"/ -rf", OptSpec{}, []string{"/"}, "rf"},
		{"a -r b -f c", OptSpec{}, []string{"a", "b", "c"}, "rf"},
		{"a b -- -c d", OptSpec{}, []string{"a", "b", "-c", "d"}, ""},
		{"-- -c d", OptSpec{}, []string{"-c", "d"}, ""},
		{"a --", OptSpec{}, []string{"a"}, ""},
		{"-n 5 a b", OptSpec{Short: "n"}, []string{"a", "b"}, "n"},
		{"-C dir push -f origin", OptSpec{Short: "Cc", Long: []string{"git-dir", "work-tree"}, StopAtOperand: true}, []string{"push", "-f", "origin"}, "C"},
		{"--no-pager push", OptSpec{Short: "Cc", Long: []string{"git-dir", "work-tree"}, StopAtOperand: true}, []string{"push"}, ""},
		{"-x", OptSpec{}, nil, "x"},
	} {
		a := ParseArgs(argWords(tc.line), tc.spec)
		if got := operandValues(a); !slices.Equal(got, tc.ops) {
			t.Errorf("%q: operands %q, want %q", tc.line, got, tc.ops)
		}
		for i := 0; i < len(tc.short); i++ {
			if !a.Short(tc.short[i : i+1]) {
				t.Errorf("%q: -%c not seen", tc.line, tc.short[i])
			}
		}
		if a.Short("z") {
			t.Errorf("%q: -z seen", tc.line)
		}
	}
}

// TestParseArgsAppendKeepsWords checks that appending to Operands, which
// may be a slice of the command's words, never writes into them.
func TestParseArgsAppendKeepsWords(t *testing.T) {
	words := argWords("-f a b c")
	a := ParseArgs(words[:3], OptSpec{}) // words[3] lies past the slice
	_ = append(a.Operands, Word{Value: "x"})
	if words[3].Value != "c" {
		t.Fatalf("append through Operands overwrote a word: %q", words[3].Value)
	}
}
