package parse

import (
	"os/exec"
	"strings"
	"testing"
)

// TestAgainstBash compares the analysis' expansion of words with what the
// real bash makes of them: each case is the argument list of a printf
// that only prints, run by bash and analysed. Skipped when bash is absent.
func TestAgainstBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	cases := []string{
		`r''m -rf /`, `"rm" '-rf' \/`, `$'\x72\x6d' $'\101\102' $'a\tb' $'\u00e9'`,
		`{a,b,c}`, `x{1..3}y`, `{a,b}{1,2}`, `"{a,b}"`, `\{a,b\}`, `a\ b c`,
		`~ ~/x "~" x~`, `$HOME "$HOME" '$HOME' ${HOME} ${HOME:-d} ${NOPE:-d} ${NOPE:=v} $NOPE`,
		`${#HOME} ${HOME/h/H} ${HOME%/*} ${HOME#/} ${HOME^^} ${HOME:1:3}`,
		`"$@"`, `$*`, `"$*"`, `$#`, `$1 "$2" ${3:-three}`,
		`$(echo a b) "$(echo a b)" $(printf '%s' x)`, "`echo q`",
		`$((1+2)) $((2**10)) $(( 7 % 3 ))`,
		`-f"" ""-x '' ""`, `--for"ce" 'it'\''s'`,
		`"a\"b\$c\\d\e"`, `$"loc"`, `a"b"'c'd`,
		`$(echo rm) -rf`, `$(echo 'r m')`, `"$(echo 'r m')"`,
		`*.nomatch_zz ?nomatch [nomatch]zz`,
		`$X "$X" ${X// /_} x$X"y"`, `${NOPE:-"a b"} ${NOPE:-a b} "${NOPE:-a b}"`,
		`$'a\0b' $'\x41\x' $'\e[0m'`, `$(echo rm -rf /)`, `"${@:2}" ${#@}`,
		`'$(echo no)' "\$(echo no)" \$HOME`, `$'it\'s' "it's"`, `a{b,c{d,e}}f`,
		`{1..10..3} {a..e} {z..w}`, `$((X=3)) $X`, `"${X:0:1}${X: -1}"`,
	}
	scripts := []string{
		`IFS=:; Y=a:b::c; printf '[%s]\n' $Y`,
		`arr=(x "y z"); arr+=(w); printf '[%s]\n' "${arr[@]}" ${arr[1]} ${#arr[@]}`,
		`read -r a b <<< 'one two three'; printf '[%s]\n' "$a" "$b"`,
		`cd /tmp && cd ..; printf '[%s]\n' "$PWD" "$OLDPWD"`,
		`f() { printf '[%s]\n' "$#" "$1" "${2:-none}"; }; f 'a b'`,
		`eval 'V=rm'; printf '[%s]\n' $V`,
		`for w in a 'b c'; do L="$L<$w>"; done; printf '[%s]\n' "$L"`,
		`x=5; (( x += 2 )); printf '[%s]\n' $x $((x*2))`,
		`printf -v P '%s-%s' a b; printf '[%s]\n' "$P"`,
		`set -euo pipefail; printf '[%s]\n' "$#" "${1:-unset}"`,
		`declare -n ref=T; T=target; printf '[%s]\n' "$ref"`,
		`a=$'r\x6d'; printf '[%s]\n' "$a" "${a^}"`,
		`set -- a b c; shift; printf '[%s]\n' "$@" $#`,
		`A=1; A+=2; B=x; B=$B$B; printf '[%s]\n' $A $B`,
		`x=$(echo " a  b "); printf '[%s]\n' "$x" $x`,
		`v=out; f() { local v=in; printf '[%s]\n' $v; }; f; printf '[%s]\n' $v`,
		`c=$(printf 'x\n\n\n'); printf '[%s]\n' "$c"`,
		`cd /; printf '[%s]\n' "$PWD" "$OLDPWD"`,
	}
	for _, script := range scripts {
		cases = append(cases, "\x00"+script)
	}
	for _, words := range cases {
		script := `set -- one "two words" three; X='a  b'; arr=(p "q r"); printf '[%s]\n' ` + words
		if strings.HasPrefix(words, "\x00") {
			script = words[1:]
		}
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", script)
		cmd.Env = []string{"HOME=/home/u", "PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"}
		dir := t.TempDir()
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("%s: bash: %v", words, err)
			continue
		}
		var want []string
		for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
			want = append(want, strings.TrimSuffix(strings.TrimPrefix(l, "["), "]"))
		}
		opts := Options{Env: map[string]string{"HOME": "/home/u", "PATH": "/usr/bin:/bin"}, Dir: dir, Args: []string{"bash"}}
		an := Analyze(script, opts)
		if an.Err != nil || len(an.Commands) == 0 {
			t.Errorf("%s: %v", words, an.Err)
			continue
		}
		var got []string // what the printing printfs print, in order
		for _, c := range an.Commands {
			if c.Name == "printf" && c.Context&InCmdSubst == 0 && (len(c.Args) == 0 || c.Args[0].Value != "-v") {
				got = append(got, c.Argv()[1:]...)
			}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\n bash: %q\n ours: %q", words, want, got)
		}
	}
}
