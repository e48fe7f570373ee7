package parse

import "testing"

// The working directory each command runs in.
func TestCwd(t *testing.T) {
	runRows(t, []row{
		{src: `cd / && rm -rf *`, want: []string{"cd / ¦ dir=/proj ¦ ctx=cond", "rm -rf * ¦ dir=/ ¦ ctx=branch"}},
		{src: `cd ..; rm -rf x`, want: []string{"cd ..", "rm -rf x ¦ dir=/"}},
		{src: `cd sub/dir && make`, want: []string{"cd sub/dir", "make ¦ dir=/proj/sub/dir"}},
		{src: `cd /tmp; cd -; ls`, want: []string{"cd /tmp", "cd - ¦ dir=/tmp", "ls ¦ dir=/proj"}},
		{src: `cd; ls`, want: []string{"cd", "ls ¦ dir=/home/u"}},
		{src: `cd ~/src; ls`, want: []string{"cd /home/u/src", "ls ¦ dir=/home/u/src"}},
		{src: `cd "$X"; ls`, want: []string{"cd ", "ls ¦ dir=?"}},
		{src: `cd $(mktemp -d) && rm -rf *`, want: []string{"cd …", "mktemp -d", "rm -rf * ¦ dir=?"}},
		{src: `(cd /; rm -rf x); ls`, want: []string{"cd / ¦ ctx=subshell", "rm -rf x ¦ dir=/ ¦ ctx=subshell", "ls ¦ dir=/proj ¦ noctx=subshell"}},
		{src: `cd / | true; ls`, want: []string{"cd /", "true", "ls ¦ dir=/proj"}},
		{src: `cd / & ls`, want: []string{"cd / ¦ ctx=bg", "ls ¦ dir=/proj"}},
		{src: `if true; then cd /; fi; ls`, want: []string{"true ¦ ctx=cond", "cd / ¦ ctx=branch", "ls ¦ dir=?"}},
		{src: `if cd /srv; then rm -rf x; else rm -rf y; fi`, want: []string{"cd /srv", "rm -rf x ¦ dir=/srv", "rm -rf y ¦ dir=?"}},
		{src: `test -d x || cd /; ls`, want: []string{"test -d x ¦ ctx=orleft", "cd / ¦ ctx=branch", "ls ¦ dir=?"}},
		{src: `cd /srv || exit 1; rm -rf x`, want: []string{"cd /srv", "exit 1", "rm -rf x ¦ dir=/srv"}},
		{src: `cd /srv || rm -rf *`, want: []string{"cd /srv", "rm -rf * ¦ dir=?"}},
		{src: `cd /a && cd b && ls; pwd`, want: []string{"cd /a", "cd b ¦ dir=/a", "ls ¦ dir=/a/b", "pwd ¦ dir=/a/b"}},
		{src: `true && cd /; ls`, want: []string{"true", "cd /", "ls ¦ dir=?"}},
		{src: `[ -d /srv ] && cd /srv; rm -rf x`, want: []string{"[ -d /srv ]", "cd /srv", "rm -rf x ¦ dir=?"}},
		{src: `cd build && make; rm -rf out`, want: []string{"cd build", "make ¦ dir=/proj/build", "rm -rf out ¦ dir=/proj/build"}},
		{src: `mkdir -p x && cd x && git init`, want: []string{"mkdir -p x", "cd x", "git init ¦ dir=/proj/x"}},
		{src: `pushd /tmp; rm -rf x; popd; ls`, want: []string{"pushd /tmp", "rm -rf x ¦ dir=/tmp", "popd ¦ dir=/tmp", "ls ¦ dir=/proj"}},
		{src: `pushd /a >/dev/null && pushd /b && popd && ls`, want: []string{"pushd /a", "pushd /b ¦ dir=/a", "popd ¦ dir=/b", "ls ¦ dir=/a"}},
		{src: `for d in a b; do cd $d; done; ls`, want: []string{"cd a ¦ ctx=loop", "cd b ¦ dir=?", "ls ¦ dir=?"}},
		{src: `while true; do cd x; done; ls`, want: []string{"true ¦ ctx=loop,cond", "cd x ¦ dir=?", "ls ¦ dir=?"}},
		{src: `CDPATH=/opt cd lib; ls`, want: []string{"cd lib", "ls ¦ dir=/proj/lib"}},
		{src: `CDPATH=/opt; cd lib; ls`, want: []string{"cd lib", "ls ¦ dir=?"}},
		{src: `cd /srv/app/../../etc && ls`, want: []string{"cd /srv/app/../../etc", "ls ¦ dir=/etc"}},
		{src: `f() { cd /; }; f; rm -rf x`, want: []string{"f ¦ fn", "cd / ¦ ctx=function", "rm -rf x ¦ dir=/"}},
		{src: `case $1 in a) cd /;; esac; ls`, want: []string{"cd / ¦ ctx=branch", "ls ¦ dir=?"}},
		{src: `cd /tmp; bash -c 'rm -rf x'`, want: []string{"cd /tmp", "bash -c rm -rf x ¦ dir=/tmp", "rm -rf x ¦ dir=/tmp"}},
		{src: `cd /tmp; echo $PWD $OLDPWD`, want: []string{"cd /tmp", "echo /tmp /proj"}},
		{src: `env -C /srv rm -rf x`, want: []string{"rm -rf x ¦ dir=/srv ¦ wrap=env"}},
		{src: `sudo -D /srv rm -rf x`, want: []string{"rm -rf x ¦ dir=/srv ¦ wrap=sudo"}},
		{src: `ls`, want: []string{"ls ¦ dir=?"}, opt: func(o *Options) { o.Dir = "" }},
		{src: `cd sub; ls`, want: []string{"cd sub", "ls ¦ dir=?"}, opt: func(o *Options) { o.Dir = "" }},
		{src: `cd /x; ls`, want: []string{"cd /x", "ls ¦ dir=/x"}, opt: func(o *Options) { o.Dir = "" }},
	})
}
