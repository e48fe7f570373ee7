package parse

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gitConfigCases are configuration files parseGitConfig must read as git
// reads them (bad: git refuses the file).
var gitConfigCases = []struct {
	text string
	want []string
	bad  bool
}{
	{"[core]\n\tpager = less -R\n", []string{"core.pager=less -R"}, false},
	{"[Core]\n\tPager=  \"rm  -rf ~\" ; comment\n", []string{"core.pager=rm  -rf ~"}, false},
	{"[alias]\n\tx = !echo a \\\n  b # c\n", []string{"alias.x=!echo a   b"}, false},
	{"[alias]\n\tx = \"!sh -c \\\"rm -rf ~\\\"\"\n", []string{"alias.x=!sh -c \"rm -rf ~\""}, false},
	{"[filter \"Lfs\"]\n\tclean = git-lfs clean -- %f\n\trequired\n", []string{"filter.Lfs.clean=git-lfs clean -- %f", "filter.Lfs.required=true"}, false},
	{"[pager.log]\nx=1\n", []string{"pager.log.x=1"}, false},
	{"# only a comment\n; another\n", nil, false},
	{"[a \"b\\\"]c\"]\n\tk = v\n", []string{"a.b\"]c.k=v"}, false},
	{"pager = x\n", []string{"pager=x"}, false},
	{"[core\n\tpager = x\n", nil, true},
	{"[core]\n\tpager = \"x\n", nil, true},
	{"[core]\n\tpager = a\\qb\n", nil, true},
}

func TestParseGitConfig(t *testing.T) {
	git, _ := exec.LookPath("git")
	for _, tc := range gitConfigCases {
		got, ok := parseGitConfig(tc.text)
		if ok == tc.bad || !slices.Equal(got, tc.want) {
			t.Errorf("parseGitConfig(%q) = %q, %v; want %q", tc.text, got, ok, tc.want)
		}
		if git == "" {
			continue
		}
		f := filepath.Join(t.TempDir(), "config")
		if err := os.WriteFile(f, []byte(tc.text), 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(git, "config", "-f", f, "--list", "--null").Output()
		var real []string
		for _, e := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
			if e == "" {
				continue
			}
			k, v, hasValue := strings.Cut(e, "\n")
			if !hasValue {
				v = "true"
			}
			real = append(real, k+"="+v)
		}
		if (err == nil) != ok || ok && !slices.Equal(got, real) {
			t.Errorf("parseGitConfig(%q) = %q, %v; git reads %q (err %v)", tc.text, got, ok, real, err)
		}
	}
}

func TestGitConfigParameters(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{`'core.pager'='rm -rf ~'`, []string{"core.pager=rm -rf ~"}},
		{`'core.pager=rm -rf ~' 'user.name'='a'\''b'`, []string{"core.pager=rm -rf ~", "user.name=a'b"}},
		{`'core.bare'`, []string{"core.bare"}},
		{`core.pager=x`, []string{Unknown + "=core.pager=x"}},
		{`'core.pager'=x`, []string{"core.pager=" + Unknown}},
	} {
		if got := gitConfigParameters(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("gitConfigParameters(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
