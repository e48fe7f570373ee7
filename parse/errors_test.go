package parse

import (
	"strings"
	"testing"
)

// Scripts that cannot be analysed: the error says why and where, and no
// facts come from a partial tree.
func TestErrors(t *testing.T) {
	deep := strings.Repeat("$(", 300) + strings.Repeat(")", 300)
	cases := []struct {
		src        string
		kind       ErrKind
		pos        string
		incomplete bool
		dialect    Dialect
	}{
		{src: `echo "abc`, kind: ErrSyntax, pos: "1:6", incomplete: true},
		{src: `rm -rf / |`, kind: ErrSyntax, incomplete: true},
		{src: `if true; then`, kind: ErrSyntax, incomplete: true},
		{src: `echo $(`, kind: ErrSyntax, incomplete: true},
		{src: "cat <<EOF\nabc", kind: ErrSyntax, incomplete: true},
		{src: `{echo;}`, kind: ErrSyntax},
		{src: `fi`, kind: ErrSyntax, pos: "1:1"},
		{src: `echo )`, kind: ErrSyntax},
		{src: "ls\x00rm", kind: ErrInvalid, pos: "1:3"},
		{src: strings.Repeat("a", MaxScript+1), kind: ErrTooLarge},
		{src: deep, kind: ErrTooDeep},
		{src: strings.Repeat("(", 300) + "ls" + strings.Repeat(")", 300), kind: ErrTooDeep},
		{src: "cat <<EOF\n" + strings.Repeat("$(", 300) + strings.Repeat(")", 300) + "\nEOF", kind: ErrTooDeep},
		{src: `a=(1 2)`, kind: ErrSyntax, dialect: POSIX},
		{src: `function f { ls; }`, kind: ErrSyntax, dialect: POSIX},
		{src: `echo ${x:1}`, kind: ErrSyntax, dialect: POSIX},
	}
	for _, tc := range cases {
		name := tc.src
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			opts := testOptions()
			opts.Dialect = tc.dialect
			an := Analyze(tc.src, opts)
			if an.Err == nil {
				t.Fatalf("no error:\n%s", dump(an))
			}
			if an.Err.Kind != tc.kind {
				t.Errorf("kind %s, want %s (%v)", an.Err.Kind, tc.kind, an.Err)
			}
			if tc.pos != "" && an.Err.Pos.String() != tc.pos {
				t.Errorf("pos %s, want %s", an.Err.Pos, tc.pos)
			}
			if an.Err.Incomplete != tc.incomplete {
				t.Errorf("incomplete %v, want %v", an.Err.Incomplete, tc.incomplete)
			}
			if len(an.Commands) != 0 || len(an.Dynamic) != 0 {
				t.Errorf("facts from a failed parse:\n%s", dump(an))
			}
			if an.Raw != tc.src || an.Canonical != tc.src {
				t.Errorf("Raw/Canonical must be the raw script")
			}
		})
	}
}

// Nested scripts that cannot be parsed, or nest too deep, are dynamic facts.
func TestNestedErrors(t *testing.T) {
	deep := strings.Repeat("eval ", 12) + "rm -rf /"
	runRows(t, []row{
		{src: `bash -c 'echo "unclosed'`, want: []string{`bash -c echo "unclosed`}, dyn: []string{`unparsable:echo "unclosed`}},
		{src: `eval 'if then'`, want: []string{"eval if then"}, dyn: []string{"unparsable"}},
		{src: deep, check: func(t *testing.T, an *Analysis) {
			if len(an.Dynamic) != 1 || an.Dynamic[0].Kind != DynTooDeep {
				t.Errorf("want one too-deep fact:\n%s", dump(an))
			}
			if len(an.Commands) != 9 {
				t.Errorf("want 9 evals (depth 8 followed):\n%s", dump(an))
			}
		}},
		{src: `f() { f; }; f`, want: []string{"f ¦ fn", "f ¦ fn ¦ rec ¦ via=function f"}},
		{src: `:(){ :|:& };:`, want: []string{": ¦ fn", ": ¦ rec ¦ ctx=pipe,bg", ": ¦ rec"}, check: func(t *testing.T, an *Analysis) {
			if !an.ForkBomb {
				t.Error("fork bomb not recognised")
			}
		}},
		{src: `bomb() { bomb | bomb & }; bomb`, want: []string{"bomb ¦ fn", "bomb ¦ rec", "bomb ¦ rec"}, check: func(t *testing.T, an *Analysis) {
			if !an.ForkBomb {
				t.Error("fork bomb not recognised")
			}
		}},
		{src: `f() { g; }; g() { f; }; f`, want: []string{"f ¦ fn", "g ¦ fn ¦ via=function f", "f ¦ rec ¦ vias=function f>function g"}, check: func(t *testing.T, an *Analysis) {
			if an.ForkBomb {
				t.Error("plain recursion is not a fork bomb")
			}
		}},
	})
}

// Analyze must never panic, whatever the input.
func TestNoPanic(t *testing.T) {
	for _, src := range []string{
		"", " ", "\n", ";;", "${", "$((", "<(", "echo ${x@Z}", "export A0=$0(", "a=(", `${!x*}`,
		"x=${y:-${z:-$(echo ${a[@]:1:2})}}", "echo ${@:1}", "cat <<<", "cat <<E\nE", "f() { f; }; f",
		"eval eval eval eval eval eval eval eval eval eval eval eval ls", "declare -n r=x; r=1; echo $x",
		"echo $'\\x'", "echo $'\\u'", "echo $'\\c'", "printf %", "printf '%q' x", "set --", "shift 9",
		"echo {1..99999}", "echo {a..z}{a..z}{a..z}", "for ((;;)); do :; done", "select x in a; do :; done",
	} {
		an := Analyze(src, testOptions())
		if an.Err != nil && an.Err.Kind == ErrPanic {
			t.Errorf("%q: %v", src, an.Err)
		}
	}
}

// Inputs that multiply work are bounded by the budget, which says so.
func TestBudget(t *testing.T) {
	nest := func(open, close string, n int) string {
		return strings.Repeat(open, n) + "ls" + strings.Repeat(close, n)
	}
	for _, src := range []string{
		nest("for a in 1 2 3 4 5 6 7 8; do ", "; done", 10),
		nest("while true; do ", "; done", 16),
		"f() { g;g;g;g;g;g;g;g; }; g() { h;h;h;h;h;h;h;h; }; h() { i;i;i;i;i;i;i;i; }; i() { j;j;j;j;j;j;j;j; }; j() { ls;ls;ls;ls;ls;ls;ls;ls; }; f;f;f;f;f;f;f;f",
	} {
		an := Analyze(src, testOptions())
		if an.Err != nil {
			t.Fatalf("%.40q: %v", src, an.Err)
		}
		found := false
		for _, d := range an.Dynamic {
			found = found || d.Kind == DynTooDeep
		}
		if !found {
			t.Errorf("%.40q: no budget fact (%d commands)", src, len(an.Commands))
		}
	}
}

// Quoted heredoc bodies are literal: their parentheses do not count
// towards the nesting bound.
func TestHeredocNotNesting(t *testing.T) {
	src := "cat > notes.md <<'EOF'\n" + strings.Repeat("sad :( ", 400) + "\nEOF\nls"
	an := Analyze(src, testOptions())
	if an.Err != nil {
		t.Fatalf("%v", an.Err)
	}
	checkCommands(t, an, []string{"cat", "ls"})
	src = "cat <<-'A' <<\"B\"\n\t((((\n\tA\n((((\nB\necho ok"
	if an := Analyze(src, testOptions()); an.Err != nil || len(an.Commands) != 2 {
		t.Errorf("two heredocs: %v %d", an.Err, len(an.Commands))
	}
}
