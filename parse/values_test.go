package parse

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestKnownValues covers values the analysis once believed it knew but
// got wrong, each turning a destructive command into a harmless-looking
// one, and values it forgot.
func TestKnownValues(t *testing.T) {
	files := func(o *Options) {
		o.Files = mapFiles{"/proj/t": "/home/me\n", "/proj/gp": "push --force\n", "/proj/q": "rm -rf ~\n"}
	}
	runRows(t, []row{
		// $(<file) was an empty literal.
		{src: `echo /home/me > t; rm -rf $(<t)`, want: []string{"echo /home/me ¦ redir=>/proj/t", "rm -rf /home/me", ""}},
		{src: `rm -rf $(<t)`, opt: files, want: []string{"rm -rf /home/me", ""}},
		{src: `git $(<gp)`, opt: files, want: []string{"git push --force", ""}},
		{src: `eval "$(<q)"`, opt: files, want: []string{"eval rm -rf ~", "", "rm -rf /home/u ¦ via=eval"}},
		{src: `rm -rf $(<missing)`, want: []string{"rm -rf …", ""}},
		{src: `rm -rf $(cat t)`, opt: files, want: []string{"rm -rf /home/me", "cat t"}},
		{src: `rm -rf "$(cat missing)"`, want: []string{"rm -rf …", "cat missing"}},
		// Parameter transformations.
		{src: `x='rm -rf $HOME'; ${x@P}`, want: []string{"rm -rf /home/u"}},
		{src: `x='$(rm -rf ~)'; : ${x@P}`, want: []string{": …", "rm -rf /home/u ¦ ctx=cmdsubst"}},
		{src: `x='\u$(rm -rf ~)'; : ${x@P}`, want: []string{": …", "rm -rf /home/u ¦ ctx=cmdsubst"}},
		{src: `x=rm; ${x@U} -rf ~`, want: []string{"RM -rf /home/u"}},
		{src: `x=RM; ${x@L} -rf ~`, want: []string{"rm -rf /home/u"}},
		{src: `x=m; ${x/#m/rm} -rf ~`, want: []string{"rm -rf /home/u"}},
		{src: `x=m; ${x/m/r&} -rf ~`, want: []string{"… -rf /home/u ¦ namedyn"}, dyn: []string{"command-name"}},
		// declare attributes.
		{src: `declare -l c=RM; $c -rf ~`, want: []string{"declare -l c=RM", "rm -rf /home/u"}},
		{src: `declare -u c; c=rm; ${c,,} -rf ~`, want: []string{"declare -u c", "rm -rf /home/u"}},
		{src: `typeset -l c; c=RM; $c -rf ~`, want: []string{"typeset -l c", "rm -rf /home/u"}},
		{src: `declare -i n; n=1+1; rm -rf /$n`, want: []string{"declare -i n", "rm -rf /…"}},
		{src: `declare -u c; if x; then c=a; fi; c=rm; $c -rf ~`, want: []string{"declare -u c", "x", "RM -rf /home/u"}},
		// read with IFS, -a, -d; mapfile; arrays.
		{src: `IFS=, read -r x y <<< 'rm,-rf'; $x $y ~`, want: []string{"read -r x y ¦ assign=IFS=,", "rm -rf /home/u"}},
		{src: `read -ra a <<< 'rm -rf'; ${a[0]} ${a[1]} ~`, want: []string{"read -ra a", "rm -rf /home/u"}},
		{src: `read -d , x <<< 'rm,ls'; $x -rf ~`, want: []string{"read -d , x", "rm -rf /home/u"}},
		{src: `mapfile -t a <<< 'rm'; ${a[0]} -rf ~`, want: []string{"mapfile -t a", "rm -rf /home/u"}},
		{src: "readarray -t a <<END\nrm\nEND\n${a[0]} -rf ~", want: []string{"readarray -t a", "rm -rf /home/u"}},
		{src: `a[0]=rm; ${a[0]} -rf ~`, want: []string{"rm -rf /home/u"}},
		{src: `declare -A m; m[p]=rm; ${m[p]} -rf ~`, want: []string{"declare -A m", "rm -rf /home/u"}},
		{src: `while read -r c; do $c -rf ~; done <<< 'rm'`, want: []string{"read -r c", "rm -rf /home/u"}},
		// env -S expands ${VAR}.
		{src: `env -S 'rm -rf ${HOME}'`, want: []string{"rm -rf /home/u ¦ wrap=env"}},
		{src: `env -S 'rm -rf \q'`, want: []string{"rm -rf … ¦ wrap=env"}},
		// \_ separates words outside quotes, \t is a tab, \c ends the
		// string, $NAME without braces is not known.
		{src: `env -S 'rm\_-rf\_/home/u\c ignored'`, want: []string{"rm -rf /home/u ¦ wrap=env"}},
		{src: `env -S 'printf "a\_b" x\ty'`, want: []string{"printf a b x\ty ¦ wrap=env"}},
		{src: `env -S "rm -rf 'a\\'b'"`, want: []string{"rm -rf a'b ¦ wrap=env"}},
		{src: `env -S 'rm -rf $HOME/x'`, want: []string{"rm -rf …/x ¦ wrap=env"}},
		// dirname, basename.
		{src: `cd "$(dirname /srv/app/run.sh)" && rm -rf build`, want: []string{"cd /srv/app", "dirname /srv/app/run.sh", "rm -rf build ¦ dir=/srv/app"}},
		{src: `rm -rf "/$(basename /x/etc/)"`, want: []string{"rm -rf /etc", "basename /x/etc/"}},
	})
}

// TestInvalidUTF8 covers bytes that are not UTF-8: parsed as bash reads
// them, each an unknown character, never the raw-text fallback.
func TestInvalidUTF8(t *testing.T) {
	runRows(t, []row{
		{src: "#\xff\nx=rm; $x -rf ~", want: []string{"rm -rf /home/u"}},
		{src: "rm -rf /tmp/\xfe\xff ~", want: []string{"rm -rf /tmp/…… /home/u ¦ dyn=1"}},
		{src: "echo '\xff'; rm -rf ~ # \xc3", want: []string{"echo …", "rm -rf /home/u"}},
		{src: "bash -c $'#\\xff\\nrm -rf ~'", want: []string{"bash -c #\xff\nrm -rf ~", "rm -rf /home/u ¦ via=bash -c"}},
		{src: "echo \xc3\xa9", want: []string{"echo \xc3\xa9"}},
	})
}

// TestRevParse covers git rev-parse worked out from the repository
// around the directory, without running git.
func TestRevParse(t *testing.T) {
	repo := func(o *Options) {
		o.Files = mapFiles{"/proj/.git/HEAD": "ref: refs/heads/main\n", "/proj/wt/.git": "gitdir: /proj/.git/worktrees/wt\n"}
	}
	sub := func(o *Options) { repo(o); o.Dir = "/proj/src/app" }
	runRows(t, []row{
		{src: `rm -rf "$(git rev-parse --show-toplevel)/dist"`, opt: repo, want: []string{"rm -rf /proj/dist", "git rev-parse --show-toplevel"}},
		{src: `rm -rf "$(git rev-parse --show-toplevel)/dist"`, opt: sub, want: []string{"rm -rf /proj/dist ¦ dir=/proj/src/app", "git rev-parse --show-toplevel"}},
		{src: `cp x "$(git rev-parse --git-dir)/hooks/pre-commit"`, opt: repo, want: []string{"cp x .git/hooks/pre-commit", "git rev-parse --git-dir"}},
		{src: `cp x "$(git rev-parse --git-dir)/hooks/pre-commit"`, opt: sub, want: []string{"cp x /proj/.git/hooks/pre-commit", "git rev-parse --git-dir"}},
		{src: `echo "$(git rev-parse --git-path config)" "$(git rev-parse --show-prefix)" "$(git rev-parse --show-cdup)"`, opt: sub,
			want: []string{"echo ../../.git/config src/app/ ../../", "git rev-parse --git-path config", "git rev-parse --show-prefix", "git rev-parse --show-cdup"}},
		{src: `cd wt && echo "$(git rev-parse --git-dir)" "$(git rev-parse --show-toplevel)"`, opt: repo,
			want: []string{"cd wt", "echo /proj/.git/worktrees/wt /proj/wt ¦ dir=/proj/wt", "git rev-parse --git-dir", "git rev-parse --show-toplevel"}},
		// Not modelled: hooks (core.hooksPath), GIT_DIR, no repository, other options.
		{src: `echo "$(git rev-parse --git-path hooks)"`, opt: repo, want: []string{"echo …", "git rev-parse --git-path hooks"}},
		{src: `GIT_DIR=/x; echo "$(git rev-parse --git-dir)"`, opt: repo, want: []string{"echo …", "git rev-parse --git-dir"}},
		{src: `echo "$(git rev-parse --show-toplevel)"`, want: []string{"echo …", "git rev-parse --show-toplevel"}},
		{src: `echo "$(git rev-parse HEAD)"`, opt: repo, want: []string{"echo …", "git rev-parse HEAD"}},
	})
}

// globFiles is a tree globs are matched against: each key a file, each
// directory implied by the paths under it.
type globFiles map[string]string

func (g globFiles) ReadFile(p string) ([]byte, error) { return mapFiles(g).ReadFile(p) }

func (g globFiles) ReadDir(dir string) ([]string, error) {
	seen := map[string]bool{}
	var names []string
	for p := range g {
		rest, ok := strings.CutPrefix(p, dir+"/")
		if !ok {
			continue
		}
		n, _, _ := strings.Cut(rest, "/")
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, os.ErrNotExist
	}
	return names, nil
}

// TestGlobs covers globs expanded against the filesystem when checked.
func TestGlobs(t *testing.T) {
	tree := func(o *Options) {
		o.Files = globFiles{"/proj/.git/HEAD": "", "/proj/.guard-exec/ledger": "", "/proj/.gitignore": "", "/proj/src/a.go": "", "/proj/src/b.go": "", "/proj/README": ""}
	}
	rows := []row{
		{src: `rm -rf ./.g*`, want: []string{"rm -rf ./.git ./.gitignore ./.guard-exec ¦ lit=1"}},
		{src: `rm -rf .??*`, want: []string{"rm -rf .git .gitignore .guard-exec"}},
		{src: `rm -rf *`, want: []string{"rm -rf README src"}},
		{src: `shopt -s dotglob; rm -rf *`, want: []string{"shopt -s dotglob", "rm -rf .git .gitignore .guard-exec README src"}},
		{src: `rm -f src/*.go`, want: []string{"rm -f src/a.go src/b.go"}},
		{src: `d=src; rm -f "$d"/*.go`, want: []string{"rm -f src/a.go src/b.go"}},
		{src: `rm -rf /proj/.gu*`, want: []string{"rm -rf /proj/.guard-exec"}},
		{src: `rm -f *.none`, want: []string{"rm -f *.none ¦ lit=1"}},
		{src: `shopt -s nullglob; rm -f *.none`, want: []string{"shopt -s nullglob", "rm -f"}},
		{src: `set -f; rm -rf .g*`, want: []string{"set -f", "rm -rf .g* ¦ lit=1"}},
		// Not known: options set on some paths only, globstar, classes.
		{src: `[ -n "$1" ] && shopt -s dotglob; rm -rf *`, want: []string{"[ -n … ]", "shopt -s dotglob", "rm -rf * ¦ glob=1"}},
		{src: `shopt -s globstar; rm -rf **`, want: []string{"shopt -s globstar", "rm -rf ** ¦ glob=1"}},
		{src: `rm -rf .[[:alpha:]]*`, want: []string{"rm -rf .[[:alpha:]]* ¦ glob=1"}},
	}
	for i := range rows {
		rows[i].opt = tree
	}
	// More matches than maxGlob: the pattern is kept and judged as one
	// (every entry of /many), not entry by entry.
	many := globFiles{}
	for i := range maxGlob + 1 {
		many[fmt.Sprintf("/many/f%02d", i)] = ""
	}
	rows = append(rows,
		row{src: `cd /many && rm -rf *`, want: []string{"cd /many", "rm -rf * ¦ glob=1 ¦ dir=/many"}, opt: func(o *Options) { o.Files = many }},
		row{src: `cd /many && rm -f f0*`, want: []string{"cd /many", "rm -f f00 f01 f02 f03 f04 f05 f06 f07 f08 f09"}, opt: func(o *Options) { o.Files = many }},
	)
	runRows(t, rows)
}
