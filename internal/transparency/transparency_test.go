package transparency

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestTableLoads(t *testing.T) {
	cases, err := Load("../../testdata/transparency/commands.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 40 {
		t.Fatalf("table has %d cases, want at least 40", len(cases))
	}
}

func TestParse(t *testing.T) {
	in := `# comment

plain :: echo a :: b
opts arg=zero arg="one two" flag=-e env=K=V stdin="x\ny" :: cat
sized stdin-size=10 :: wc -c
multi script="echo 1\necho 2\n"
tricky stdin=" :: " :: cat
byname file=greet arg=a :: echo "$0 $1"
`
	cases, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Case{
		{Name: "plain", Line: 3, Script: "echo a :: b"},
		{Name: "opts", Line: 4, Script: "cat", Args: []string{"zero", "one two"}, Flags: []string{"-e"},
			Env: []string{"K=V"}, Stdin: []byte("x\ny"), HasStdin: true},
		{Name: "sized", Line: 5, Script: "wc -c", HasStdin: true, StdinSize: 10},
		{Name: "multi", Line: 6, Script: "echo 1\necho 2\n"},
		{Name: "tricky", Line: 7, Script: "cat", Stdin: []byte(" :: "), HasStdin: true},
		{Name: "byname", Line: 8, Script: `echo "$0 $1"`, Args: []string{"a"}, File: "greet"},
	}
	if !reflect.DeepEqual(cases, want) {
		t.Fatalf("got  %+v\nwant %+v", cases, want)
	}
	if got := cases[1].BashArgs(); !reflect.DeepEqual(got, []string{"-e", "-c", "cat", "zero", "one two"}) {
		t.Errorf("BashArgs = %q", got)
	}
	if got := cases[5].BashArgs(); !reflect.DeepEqual(got, []string{"greet", "a"}) {
		t.Errorf("BashArgs of a file case = %q", got)
	}
	dir := t.TempDir()
	env, err := cases[5].Environ(dir)
	if err != nil || len(env) != 1 || !strings.HasPrefix(env[0], "PATH="+dir+string(filepath.ListSeparator)) {
		t.Errorf("Environ = %q, %v", env, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "greet")); err != nil || string(b) != `echo "$0 $1"` {
		t.Errorf("script file %q, %v", b, err)
	}
	var buf bytes.Buffer
	if err := cases[2].WriteStdin(&buf); err != nil || buf.String() != "abcdefghij" {
		t.Errorf("generated stdin = %q, %v", buf.String(), err)
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{
		"Bad :: x",
		"noscript arg=1",
		"dup :: a\ndup :: b",
		"badopt what=1 :: x",
		"badquote stdin=\"abc :: x",
		"both script=\"a\" :: b",
		"slash file=a/b :: x",
		"size stdin-size=-1 :: x",
		"env env=NOEQUALS :: x",
	} {
		if _, err := Parse(strings.NewReader(in)); err == nil {
			t.Errorf("Parse(%q): no error", in)
		}
	}
}
