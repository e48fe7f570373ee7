package parse

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestValuesAgainstBash holds the analysis to "never wrong": for each
// script, every field the analysis says it knows must be what the real
// bash prints, and the rows marked known must be known. A field may be
// unknown (the analysis then holds or warns) but never a guess. Each
// script prints with printf '[%s]\n' only, in a scratch directory that
// holds a file f (text "/home/u") and a file g (text "a b\nc\n").
func TestValuesAgainstBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	rows := []struct {
		script string
		known  bool // every field must be known
	}{
		// $(<file) and $(cat file) read the file.
		{`printf '[%s]\n' "$(<f)" $(<g) "$(cat f)" $(cat g f)`, true},
		{`echo /x > t; printf '[%s]\n' "$(<t)"`, true},
		{`printf '[%s]\n' "$(< nofile)"`, false},
		{`printf '[%s]\n' "$(<f; echo x)" "$(cat -n f)"`, false},
		{`printf '[%s]\n' "$( <f )"`, true},
		// Output of head, tail and yes piped into head.
		{`printf '[%s]\n' "$(yes | head -3)" "$(yes -- rm -rf | head -n 2)" "$(yes a b | head -n1)" "$(yes - | head -1)"`, true},
		{`printf '[%s]\n' "$(yes rm -rf | head -n 2)"`, false},
		{`printf '[%s]\n' "$(printf 'a\nb\nc\nd' | head -n 2)" "$(printf 'a\nb\nc\n' | tail -1)" "$(printf 'a\nb\nc\n' | tail -n +2)"`, true},
		{`printf '[%s]\n' "$(printf 'a\nb\nc\n' | head -n -1)" "$(printf 'abcdef' | head -c 3)" "$(printf 'abcdef' | tail -c 2)" "$(printf 'abcdef' | tail -c +3)"`, true},
		{`printf '[%s]\n' "$(printf 'a\nb\n' | head -5)" "$(printf '' | tail -2)" "$(printf 'a\nb\nc' | tail -2)" "$(printf 'a\nb' | tail -n 0)"`, true},
		{`printf '[%s]\n' "$(yes | head -c 3)" "$(printf 'a\nb\n' | head -n 1K)" "$(printf "a\\nb" | tail -n 1 -q)"`, false},
		// Parameter transformations.
		{`x='rm -rf $HOME'; printf '[%s]\n' ${x@P} "${x@Q}" ${x@U} ${x@L} ${x@u}`, true},
		{`x='a\tb'; printf '[%s]\n' "${x@E}" "${x@Q}" "${x@K}"`, true},
		{`x="it's"; y=''; printf '[%s]\n' "${x@Q}" "${y@Q}" "${nope@Q}"`, true},
		{`x=$'a\nb'; printf '[%s]\n' "${x@Q}"`, false},
		{`x='\u$(echo hi)'; printf '[%s]\n' "${x@P}"`, false},
		// Attributes, realpath, sparse arrays, read -n/-N/-u: unknown where
		// not modelled, never wrong (readonly and -t are not tracked).
		{`declare -l lc=X; declare -u uc; declare -i -l il; printf '[%s]\n' "${lc@a}" "${uc@a}" "${il@a}" "${lc@A}"`, true},
		{`declare -i n=3; x=abc; printf '[%s]\n' "${n@a}" "${x@a}" "${x@A}"`, false},
		{`declare -i n=3; x=abc; printf '[%s]\n' "${n@a}" "${x@a}" "${x@A}" "${n@A}"`, false},
		{`readonly x=abc; declare -r y=1; declare -t z=2; export w=3; printf '[%s]\n' "${x@a}" "${y@a}" "${z@a}" "${w@a}" "${x@A}" "${HOME@a}"`, false},
		{`a=(p q); declare -A m=([k]=v); declare -l lc=X; printf '[%s]\n' "${a@a}" "${m@a}" "${lc@a}" "${a@A}" "${nope@a}"`, false},
		{`printf '[%s]\n' "$(realpath f)" "$(realpath d/../g)" "$(realpath -m no/x/..)" "$(realpath -s d/a)"`, false},
		{`a[3]=x; a[7]=y; printf '[%s]\n' "${a[@]}" "${#a[@]}" "${!a[@]}" "${a[3]}" "${a[5]}"`, false},
		{`read -n 2 x <<< 'rm -rf'; read -N 3 y <<< 'abcdef'; printf '[%s]\n' "$x" "$y"`, false},
		{`exec 3<<< 'rm -rf'; read -u 3 x y; printf '[%s]\n' "$x" "$y"`, false},
		// Integer variables: an assignment to one is arithmetic; let and
		// (( )) assign.
		{`declare -i n; n=2+3; n+=4; printf '[%s]\n' "$n"`, false},
		{`declare -i n=x; x=5; printf '[%s]\n' "$n"; n=x*2; printf '[%s]\n' "$n"`, false},
		{`let x=2+3 y=x*2; printf '[%s]\n' "$x" "$y"`, false},
		{`((x=7, y=x+1)); z=1; ((z++)); printf '[%s]\n' "$x" "$y" "$z"`, false},
		{`x=rm; ((x=1)); printf '[%s]\n' "$x"; let 'x+=1'; printf '[%s]\n' "$x"`, false},
		{`i=1; let "i = i + 1"; ((i+=2)); x='1+2'; let j=2*x 'k = j - 1'; printf '[%s]\n' "$i" "$((2*x))" "$j" "$k"`, true},
		{`x='y=5'; : $((x)); printf '[%s]\n' "$y"; z='w+=1'; w=1; ((z)); printf '[%s]\n' "$w"`, true},
		{`y='1+2'; printf '[%s]\n' "$((2 * $y))" "$(($y))" "$((0x10 + 010))"`, false},
		{`v=; e=''; printf '[%s]\n' "$((v + 1))" "$((${e} + 2))"`, false},
		{`declare -i n=3; n=rm; printf '[%s]\n' "$n"`, false},
		{`x=rm; declare -i x; x=x; printf '[%s]\n' "$x"`, false},
		{`f() { local -i n=1+1; printf '[%s]\n' "$n"; }; f`, false},
		{`typeset -i n; n='1 + 2'; printf '[%s]\n' "$n"`, false},
		{`x=rm; : $((x=4)); printf '[%s]\n' "$x"; y=3; (( y *= 2 )); printf '[%s]\n' "$y"`, false},
		{`for ((i=0; i<2; i++)); do :; done; printf '[%s]\n' "$i"`, false},
		{`a=(x y); ((a[1]=5)); let 'a[0]=2'; printf '[%s]\n' "${a[@]}"`, false},
		{`declare -ia arr=(1+1 2*3); printf '[%s]\n' "${arr[@]}"`, false},
		{`read -n 1 -N 2 x <<< 'abc'; printf '[%s]\n' "$x"; read -N 0 y <<< 'q'; printf '[%s]\n' "$y"`, false},
		{`a=([5]=x [2]=y); unset 'a[5]'; b=("${a[@]}"); printf '[%s]\n' "${b[0]}" "${#a[@]}" "${a[2]}"`, false},
		{`printf '[%s]\n' "$(realpath .git/../f)" "$(realpath -e nofile 2>/dev/null)" "$(realpath --relative-to=d f)"`, false},
		// awk's fields of known input, run by system() once per record.
		{`printf ' a  b \n c\n' | awk '{system("printf \"[%s]\\n\" " $1 " " $2 " x" $3)}'`, true},
		{`awk '{system("printf \"[%s]\\n\" " $0)}' g; awk -F' ' '{system("printf \"[%s]\\n\" " $2)}' g`, false},
		// Case modification, pattern substitution, substrings.
		{`x=RmDir; printf '[%s]\n' ${x,,} ${x^^} ${x,} ${x^} ${x,,[RD]} ${x^^[md]}`, true},
		{`x=xmxm; printf '[%s]\n' ${x/x/r} ${x//x/r} ${x/#x/r} ${x/%m/r} "${x//x}"`, true},
		{`x=xmxm; printf '[%s]\n' ${x/} ${x//} ${x/#} ${x/%} "${x/}"`, true},
		{`x=xmxm; printf '[%s]\n' ${x/m/<&>} ${x/m/\&} ${x//*/r} ${x/#*/r} ${x/@(m)/r}`, false},
		{`x=a.b.c; printf '[%s]\n' ${x/./} ${x//[.b]/_} ${x/*./} ${x/?/Q}`, true},
		{`x=xrmx; printf '[%s]\n' ${x:1:2} ${x: -3:2} ${x:1} ${x: -1} ${x:1:-1} "${x:9}"`, true},
		{`set -- a b c d; printf '[%s]\n' "${@:2:2}" "${@: -1}" "${*:3}"`, true},
		{`a=(p q r s); printf '[%s]\n' "${a[@]:1:2}" "${a[@]/q/Q}" "${a[@]^}" "${#a[@]}" "${a[-1]}"`, true},
		// declare attributes.
		{`declare -l c=RM; declare -u d=rm; printf '[%s]\n' "$c" "$d"; c+=X; printf '[%s]\n' "$c"`, true},
		{`declare -l c; c=AbC; declare -u d; d=x; printf '[%s]\n' "$c" "$d"`, true},
		{`typeset -l c=RM; local_ok=1; printf '[%s]\n' "$c"`, true},
		{`declare -a a=(x y); declare -A m=([k]=v [j]=w); printf '[%s]\n' "${a[1]}" "${m[k]}" "${m[j]}"`, true},
		{`T=target; declare -n r=T; printf '[%s]\n' "$r"; r=new; printf '[%s]\n' "$T"`, true},
		{`declare -c x=aBC; printf '[%s]\n' "$x"`, false},
		// printf -v, read, mapfile.
		{`printf -v c %s rm; printf -v d '%s-%s' a b; printf '[%s]\n' "$c" "$d"`, true},
		{`IFS=, read -r x y <<< 'rm,-rf,z'; printf '[%s]\n' "$x" "$y"`, true},
		{`IFS=: read -r x y z <<< 'a:b'; printf '[%s]\n' "$x" "$y" "$z"`, true},
		{`read -r x y <<< '  a   b  c  '; printf '[%s]\n' "$x" "$y"`, true},
		{`read -ra a <<< 'rm -rf z'; printf '[%s]\n' "${a[0]}" "${a[1]}" "${#a[@]}"`, true},
		{`IFS=, read -ra a <<< 'x,y'; printf '[%s]\n' "${a[@]}"`, true},
		{`read -r -d , x <<< 'rm,rest'; printf '[%s]\n' "$x"`, true},
		{`read x <<< 'a\b c'; printf '[%s]\n' "$x"`, true},
		{`read -n 2 x <<< 'abc'; printf '[%s]\n' "$x"`, false},
		{`mapfile -t a <<< $'rm\n-rf'; printf '[%s]\n' "${a[0]}" "${a[1]}" "${#a[@]}"`, true},
		{`readarray a <<< $'x\ny'; printf '[%s]\n' "${a[0]}"`, true},
		{`mapfile -t a < g; printf '[%s]\n' "${a[@]}"`, true},
		// Arrays and indices.
		{`a[0]=rm; a[1]=x; printf '[%s]\n' "${a[0]}" "${a[1]}" "${#a[@]}" "${a[@]}"`, true},
		{`a[0]=rm; a[2]=x; a[-1]=y; printf '[%s]\n' "${a[0]}" "${a[2]}" "${#a[@]}" "${a[@]}"`, false},
		{`declare -A m; printf '[%s]\n' "${m-unset}" "${m[k]-none}"`, true},
		{`x=s; x[1]=t; printf '[%s]\n' "${x[@]}"`, true},
		{`a=(x y z); a[1]=Y; a+=(w); printf '[%s]\n' "${a[@]}" "$a"`, true},
		{`i=1; a=(x y z); a[i]=Q; printf '[%s]\n' "${a[@]}" "${a[i+1]}"`, true},
		{`declare -A m; m[k]=v; printf '[%s]\n' "${m[k]}" "${m[@]}"`, true},
		// dirname, basename, realpath, pwd of known values.
		{`printf '[%s]\n' "$(dirname /a/b/c)" "$(basename /a/b/c.sh .sh)" "$(dirname x)" "$(basename /a/b/)"`, true},
		{`cd /tmp; printf '[%s]\n' "$(pwd)" "$(dirname "$PWD")"`, true},
		{`printf '[%s]\n' "$(basename -s .sh /a/b.sh)" "$(dirname a/b c/d)"`, true},
		// Globs against the scratch directory (.git/, .gx, d/a, d/.h, f, g).
		{`printf '[%s]\n' .g* .??* * d/* "d"/.* ./?`, true},
		{`x=d; printf '[%s]\n' "$x"/* $x/* '.g'* [.]g* *.none d/*/z`, true},
		{`shopt -s dotglob; printf '[%s]\n' d/* *; shopt -u dotglob; printf '[%s]\n' d/*`, true},
		{`shopt -s nullglob; printf '[%s]\n' x *.none y`, true},
		{`set -f; printf '[%s]\n' .g*; set +f; printf '[%s]\n' .g*`, true},
		{`[ -e f ] && shopt -s dotglob; printf '[%s]\n' d/*`, false},
		{`printf '[%s]\n' [[:alpha:]] [!f] [^g] \.g* .g\*`, false},
	}
	home := "/home/u"
	for _, r := range rows {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte(home+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "g"), []byte("a b\nc\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, d := range []string{".git", "d"} {
			if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range []string{".gx", "d/a", "d/.h"} {
			if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		dir, _ = filepath.EvalSymlinks(dir)
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", r.script)
		cmd.Env = []string{"HOME=" + home, "PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"}
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("%s: bash: %v", r.script, err)
			continue
		}
		opts := Options{Env: map[string]string{"HOME": home, "PATH": "/usr/bin:/bin", "PWD": dir}, Dir: dir, Args: []string{"bash"}, Files: osFiles{}}
		an := Analyze(r.script, opts)
		if an.Err != nil {
			t.Errorf("%s: %v", r.script, an.Err)
			continue
		}
		var got []string
		for _, c := range an.Commands {
			if c.Name == "printf" && c.Context&InCmdSubst == 0 && (len(c.Args) == 0 || c.Args[0].Value != "-v") {
				for _, a := range c.Args[1:] {
					if a.Glob {
						// A pattern left unexpanded is not a known value.
						got = append(got, "["+Unknown+"]")
						continue
					}
					got = append(got, "["+a.Value+"]")
				}
			}
		}
		ours := strings.Join(got, "\n") + "\n"
		if len(got) == 0 {
			ours = "[]\n" // printf '[%s]\n' with no argument
		}
		if !agrees(ours, string(out)) {
			t.Errorf("%s:\n bash: %q\n ours: %q", r.script, out, ours)
			continue
		}
		if r.known && strings.Contains(ours, Unknown) {
			t.Errorf("%s: not known:\n bash: %q\n ours: %q", r.script, out, ours)
		}
	}
}

// agrees reports whether what the analysis says is printed agrees with
// what bash printed: an unknown part may stand for any text.
func agrees(ours, bash string) bool {
	parts := strings.Split(ours, Unknown)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("(?s)^" + strings.Join(parts, ".*") + "$").MatchString(bash)
}

type osFiles struct{}

func (osFiles) ReadFile(p string) ([]byte, error) { return os.ReadFile(p) }

func (osFiles) ReadDir(p string) ([]string, error) {
	es, err := os.ReadDir(p)
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.Name()
	}
	return names, err
}

// TestRevParseAgainstGit compares git rev-parse as the analysis works it
// out with what git prints, at the top of a repository and below it.
func TestRevParseAgainstGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	top, _ := filepath.EvalSymlinks(t.TempDir())
	if out, err := exec.Command(git, "init", "-q", top).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	script := `printf '[%s]\n' "$(git rev-parse --show-toplevel)" "$(git rev-parse --git-dir)" "$(git rev-parse --absolute-git-dir)" "$(git rev-parse --show-prefix)" "$(git rev-parse --show-cdup)" "$(git rev-parse --git-path config)" "$(git rev-parse --git-path objects/info)"`
	for _, dir := range []string{top, filepath.Join(top, "a"), filepath.Join(top, "a", "b")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", "--norc", "--noprofile", "-c", script)
		cmd.Dir = dir
		cmd.Env = []string{"HOME=/nonexistent", "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1"}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("bash: %v", err)
		}
		an := Analyze(script, Options{Env: map[string]string{"HOME": "/nonexistent", "PWD": dir}, Dir: dir, Files: osFiles{}})
		var ours string
		for _, c := range an.Commands {
			if c.Name == "printf" {
				for _, a := range c.Args[1:] {
					ours += "[" + a.Value + "]\n"
				}
			}
		}
		if ours != string(out) {
			t.Errorf("in %s:\n  git: %q\n ours: %q", dir, out, ours)
		}
	}
}
