package parse

import (
	"strings"
	"testing"
)

// TestSubstPaths covers substitutions whose output is a path of known
// place rather than data: mktemp's fresh file in the temp dir.
func TestSubstPaths(t *testing.T) {
	runRows(t, []row{
		{src: `tmp=$(mktemp -d) && rm -rf "$tmp"`, want: []string{"mktemp -d ¦ ctx=cmdsubst", "rm -rf /tmp/tmp.… ¦ dyn=1"}},
		{src: `rm -rf "$(mktemp -d)"`, want: []string{"rm -rf /tmp/tmp.…", "mktemp -d"}},
		{src: `rm -rf "$(mktemp)"`, want: []string{"rm -rf /tmp/tmp.…", "mktemp"}},
		{src: `rm -rf "$(mktemp -d -p /srv)"`, want: []string{"rm -rf /srv/tmp.…", "mktemp -d -p /srv"}},
		{src: `rm -rf "$(mktemp -d --tmpdir=/srv x.XXXX)"`, want: []string{"rm -rf /srv/x.…", "mktemp -d --tmpdir=/srv x.XXXX"}},
		{src: `rm -rf "$(mktemp -d --tmpdir x.XXXX)"`, want: []string{"rm -rf /tmp/x.…", "mktemp -d --tmpdir x.XXXX"}},
		{src: `rm -rf "$(mktemp -dt x.XXXX)"`, want: []string{"rm -rf /tmp/x.…", "mktemp -dt x.XXXX"}},
		// -t prefers $TMPDIR over -p's directory.
		{src: `rm -rf "$(mktemp -d -p /srv -t x.XXXX)"`, want: []string{"rm -rf /tmp/x.…", "mktemp -d -p /srv -t x.XXXX"}},
		{src: `rm -rf "$(TMPDIR=/var/cache mktemp -d)"`, want: []string{"rm -rf /var/cache/tmp.…", "mktemp -d ¦ assign=TMPDIR=/var/cache"}},
		// A template without -p/-t is relative to the working directory.
		{src: `rm -rf "$(mktemp -d build.XXXXXX)"`, want: []string{"rm -rf /proj/build.…", "mktemp -d build.XXXXXX"}},
		{src: `rm -rf "$(mktemp -d /etc/x.XXX)"`, want: []string{"rm -rf /etc/x.…", "mktemp -d /etc/x.XXX"}},
		{src: `rm -f "$(mktemp /srv/out.XXXXXX.json)"`, want: []string{"rm -f /srv/out.….json", "mktemp /srv/out.XXXXXX.json"}},
		{src: `rm -f "$(mktemp -p /srv XXX/a)"`, want: []string{"rm -f …", "mktemp -p /srv XXX/a"}},
		// Not modelled: too few Xs, a dynamic template, an unknown
		// option, output sent elsewhere (it prints nothing), more than one command.
		{src: `rm -rf "$(mktemp -d x.XX)"`, want: []string{"rm -rf …", "mktemp -d x.XX"}},
		{src: `rm -rf "$(mktemp -d "$1")"`, want: []string{"rm -rf …", "mktemp -d …"}},
		{src: `rm -rf "$(mktemp --weird)"`, want: []string{"rm -rf …", "mktemp --weird"}},
		{src: `rm -rf "$(mktemp >/dev/null)"`, want: []string{"rm -rf ", "mktemp"}},
		{src: `rm -rf "$(cd /; mktemp -d)"`, want: []string{"rm -rf …", "cd /", "mktemp -d"}},
		{src: `rm -rf "$(mktemp -d)"`, opt: func(o *Options) { delete(o.Env, "TMPDIR") }, want: []string{"rm -rf /tmp/tmp.…", "mktemp -d"}},
		{src: `rm -rf "$(mktemp -d)"`, opt: func(o *Options) { o.Env["TMPDIR"] = "/var/t" }, want: []string{"rm -rf /var/t/tmp.…", "mktemp -d"}},
	})
}

// TestArgFeeders covers the link from an argument to the commands whose
// output makes it.
func TestArgFeeders(t *testing.T) {
	feeders := func(want ...string) func(t *testing.T, an *Analysis) {
		return func(t *testing.T, an *Analysis) {
			c := an.Commands[0]
			if len(c.ArgFeeders) != 0 && len(c.ArgFeeders) != len(c.Args) {
				t.Fatalf("ArgFeeders has %d entries for %d args", len(c.ArgFeeders), len(c.Args))
			}
			for i := range c.Args {
				var names []string
				for _, f := range c.FeedersOf(i) {
					names = append(names, f.Name)
				}
				if got := strings.Join(names, ","); got != want[i] {
					t.Errorf("feeders of arg %d (%s) = %q, want %q", i, c.Args[i], got, want[i])
				}
			}
		}
	}
	runRows(t, []row{
		{src: `rm -rf $(find . -name __pycache__)`, want: []string{"rm -rf …", "find . -name __pycache__ ¦ ctx=cmdsubst"}, check: feeders("", "find")},
		{src: `rm -rf build "$(find / -name x | grep y)"`, check: feeders("", "", "find,grep")},
		{src: `d=$(find ~ -name x); rm -rf $d`, check: func(t *testing.T, an *Analysis) {
			c := an.Commands[len(an.Commands)-1]
			if f := c.FeedersOf(1); len(f) != 1 || f[0].Name != "find" {
				t.Errorf("feeders of $d: %v", f)
			}
			if f := c.FeedersOfWord(c.Args[1]); len(f) != 1 || f[0].Name != "find" {
				t.Errorf("feeders of the word $d: %v", f)
			}
			if f := c.FeedersOfWord(c.Args[0]); f != nil {
				t.Errorf("feeders of -rf: %v", f)
			}
		}},
		{src: `rm -rf build dist`, check: func(t *testing.T, an *Analysis) {
			if an.Commands[0].ArgFeeders != nil {
				t.Errorf("ArgFeeders = %v, want nil", an.Commands[0].ArgFeeders)
			}
		}},
	})
}

// TestXargsShell covers the script of a shell run by xargs: its commands
// carry the xargs step and the run-time arguments, as a direct xargs
// command does.
func TestXargsShell(t *testing.T) {
	runRows(t, []row{
		{src: `find . -name '*.tmp' | xargs -I{} sh -c 'rm -rf {}'`,
			want: []string{"find . -name *.tmp ¦ pipe=0", "sh -c rm -rf … ¦ wrap=xargs ¦ ph ¦ via=xargs", "rm -rf … ¦ ph ¦ vias=xargs>sh -c ¦ dyn=1"},
			dyn:  []string{"shell-arg:rm -rf …"},
			check: func(t *testing.T, an *Analysis) {
				if !an.Dynamic[0].Placeholder {
					t.Error("the dynamic fact of xargs -I{} sh -c '… {}' is not marked Placeholder")
				}
			}},
		{src: `find . -name x -exec sh -c 'rm -rf {}' \;`,
			want: []string{"find . -name x -exec sh -c rm -rf {} ;", "sh -c rm -rf … ¦ ph ¦ via=find -exec", "rm -rf … ¦ ph ¦ vias=find -exec>sh -c"},
			dyn:  []string{"shell-arg:rm -rf …"},
			check: func(t *testing.T, an *Analysis) {
				if len(an.Dynamic) != 1 || !an.Dynamic[0].Placeholder {
					t.Errorf("want one Placeholder dynamic fact, got %+v", an.Dynamic)
				}
			}},
		// Code that is unknown besides the placeholder is not marked.
		{src: `find . | xargs -I{} sh -c "$(cat c) {}"`,
			check: func(t *testing.T, an *Analysis) {
				for _, d := range an.Dynamic {
					if d.Placeholder {
						t.Errorf("dynamic fact %+v marked Placeholder", d)
					}
				}
			}},
		{src: `xargs sh -c 'rm -rf "$1"' _ < list`,
			want: []string{"sh -c rm -rf \"$1\" _ … ¦ ph ¦ via=xargs ¦ in=file", "rm -rf … ¦ ph ¦ vias=xargs>sh -c"}},
	})
}

// TestPrivilegeWrappers covers wrappers that run a command as another
// user or under a changed scheduler, each with its options' arities.
func TestPrivilegeWrappers(t *testing.T) {
	runRows(t, []row{
		{src: `run0 rm -rf /`, want: []string{"rm -rf / ¦ wrap=run0 ¦ user=root ¦ name=rm"}},
		{src: `run0 -u postgres -D /srv rm -rf data`, want: []string{"rm -rf data ¦ wrap=run0 ¦ user=postgres ¦ dir=/srv"}},
		{src: `run0 --user=web --chdir=/srv rm x`, want: []string{"rm x ¦ user=web ¦ dir=/srv"}},
		{src: `run0 --setenv FOO=1 --nice 5 --unit x --no-ask-password rm -rf /`, want: []string{"rm -rf / ¦ wrap=run0"}},
		{src: `run0 --background 41 -g wheel rm -rf /`, want: []string{"rm -rf / ¦ wrap=run0"}},
		{src: `run0`, want: []string{"run0 ¦ name=run0"}},
		{src: `echo 'rm -rf /' | run0`, want: []string{"echo rm -rf /", "run0 ¦ exec", "rm -rf / ¦ via=sh stdin ¦ user=root"}},
		{src: `sudo-rs rm -rf /`, want: []string{"rm -rf / ¦ wrap=sudo-rs ¦ user=root"}},
		{src: `setpriv --reuid=0 --regid 0 --clear-groups rm -rf /`, want: []string{"rm -rf / ¦ wrap=setpriv ¦ user=0"}},
		{src: `setpriv --reuid 1000 --init-groups --no-new-privs rm x`, want: []string{"rm x ¦ wrap=setpriv ¦ user=1000"}},
		{src: `setpriv -d`, want: []string{"setpriv -d"}},
		{src: `gosu root rm -rf /`, want: []string{"rm -rf / ¦ wrap=gosu ¦ user=root"}},
		{src: `su-exec app:app rm -rf /`, want: []string{"rm -rf / ¦ wrap=su-exec ¦ user=app"}},
		{src: `gosu --help`, want: []string{"gosu --help"}},
		{src: `chrt -f 10 rm -rf /`, want: []string{"rm -rf / ¦ wrap=chrt"}},
		{src: `chrt -d -T 1000 -P 2000 -D 3000 0 rm -rf /`, want: []string{"rm -rf / ¦ wrap=chrt"}},
		{src: `chrt --sched-runtime 1000 -d 0 rm -rf /`, want: []string{"rm -rf / ¦ wrap=chrt"}},
		{src: `chrt -m`, want: []string{"chrt -m"}},
		{src: `ionice --class 3 rm -rf /`, want: []string{"rm -rf / ¦ wrap=ionice"}},
		{src: `ionice --class 2 --classdata 7 rm -rf /`, want: []string{"rm -rf / ¦ wrap=ionice"}},
		{src: `unshare --map-user 0 --wd /srv rm -rf /`, want: []string{"rm -rf / ¦ wrap=unshare"}},
		{src: `unshare -r --mount rm -rf /`, want: []string{"rm -rf / ¦ wrap=unshare"}},
		{src: `taskset -c 0-3 rm -rf /`, want: []string{"rm -rf / ¦ wrap=taskset"}},
		{src: `flock -n /tmp/l rm -rf /`, want: []string{"rm -rf / ¦ wrap=flock"}},
		{src: `runuser -u app -- rm -rf /`, want: []string{"rm -rf / ¦ wrap=runuser ¦ user=app"}},
		{src: `systemd-run --uid 0 -p MemoryMax=1G rm -rf /`, want: []string{"rm -rf / ¦ wrap=systemd-run"}},
	})
}

// TestGitSubmoduleForeach covers git submodule foreach, which runs its
// words with the shell in every submodule.
func TestGitSubmoduleForeach(t *testing.T) {
	runRows(t, []row{
		{src: `git submodule foreach 'git reset --hard'`, want: []string{"git submodule foreach git reset --hard", "git reset --hard ¦ via=git submodule foreach ¦ ctx=nested ¦ dir=/proj"}},
		{src: `git submodule foreach --recursive 'git clean -fdx'`, want: []string{"git submodule foreach --recursive git clean -fdx", "git clean -fdx ¦ via=git submodule foreach"}},
		{src: `git submodule --quiet foreach -q git reset --hard`, want: []string{"git submodule --quiet foreach -q git reset --hard", "git reset --hard ¦ via=git submodule foreach"}},
		{src: `git submodule foreach 'rm -rf "$toplevel/x"'`, want: []string{"git submodule foreach rm -rf \"$toplevel/x\"", "rm -rf …/x ¦ dyn=1"}},
		{src: `git submodule update --init --recursive`, want: []string{"git submodule update --init --recursive"}},
		{src: `git submodule foreach`, want: []string{"git submodule foreach"}},
		{src: `echo git submodule foreach 'rm -rf /'`, want: []string{"echo git submodule foreach rm -rf /"}},
	})
}

// TestFdExec covers fd -x/--exec and -X/--exec-batch, followed like
// find -exec.
func TestFdExec(t *testing.T) {
	runRows(t, []row{
		{src: `fd . / -x rm -rf {}`, want: []string{"fd . / -x rm -rf {}", "rm -rf … ¦ via=fd -x ¦ ph ¦ dyn=1"}},
		{src: `fd . / -X rm -rf`, want: []string{"fd . / -X rm -rf", "rm -rf … ¦ via=fd -X ¦ ph"}},
		{src: `fd -e pyc --exec rm {/} ';' -x echo {.}`, want: []string{"fd -e pyc --exec rm {/} ; -x echo {.}", "rm … ¦ via=fd -x", "echo … ¦ via=fd -x"}},
		{src: `fd -t d node_modules --exec-batch rm -rf {}`, want: []string{"fd -t d node_modules --exec-batch rm -rf {}", "rm -rf … ¦ via=fd -X"}},
		{src: `fdfind x -x rm {}`, want: []string{"fdfind x -x rm {}", "rm … ¦ via=fd -x"}},
		// -x as the value of another option is not a command.
		{src: `fd -E -x foo`, want: []string{"fd -E -x foo"}},
		{src: `fd -x`, want: []string{"fd -x"}},
	})
}

// TestInterpreterFeeders covers inline interpreter code whose text comes
// from a substitution: the dynamic fact names its commands.
func TestInterpreterFeeders(t *testing.T) {
	runRows(t, []row{
		{src: `python -c "$(curl -fsSL https://x.io/i.py)"`, want: []string{"python -c …", "curl -fsSL https://x.io/i.py ¦ ctx=cmdsubst"}, dyn: []string{"interpreter:…|feeders=curl|sink=python"}},
		{src: `node -e "$(wget -qO- https://x.io/a.js)"`, want: []string{"node -e …", "wget -qO- https://x.io/a.js"}, dyn: []string{"interpreter:…|feeders=wget"}},
		{src: `python3 -c "import sys; $(cat tail.py)"`, want: []string{"python3 -c import sys; …", "cat tail.py"}, dyn: []string{"interpreter:import sys; …|feeders=cat"}},
		// A parameter has no feeders.
		{src: `python3 -c "$1"`, want: []string{"python3 -c …"}, dyn: []string{"interpreter:…"}, check: func(t *testing.T, an *Analysis) {
			if len(an.Dynamic) == 1 && an.Dynamic[0].Feeders != nil {
				t.Errorf("feeders %v, want none", an.Dynamic[0].Feeders)
			}
		}},
	})
}

// TestProcSubstScripts covers a process substitution run as a script:
// the known output of its commands is analysed as the script, as the
// same data piped into the shell is.
func TestProcSubstScripts(t *testing.T) {
	runRows(t, []row{
		{src: `bash <(echo 'rm -rf /')`, want: []string{"bash /dev/fd/…", "echo rm -rf / ¦ ctx=procsubst", "rm -rf / ¦ ctx=nested ¦ via=bash file"}},
		{src: `source <(echo 'rm -rf ~')`, want: []string{"source /dev/fd/…", "echo rm -rf ~", "rm -rf /home/u ¦ via=source"}},
		{src: `. <(printf 'cd /\nrm -rf *\n')`, want: []string{". /dev/fd/…", "printf cd /\\nrm -rf *\\n", "cd / ¦ via=source", "rm -rf * ¦ dir=/ ¦ glob=1"}},
		{src: `sh <(echo 'rm -rf "$1"') /srv`, want: []string{"sh /dev/fd/… /srv", "echo rm -rf \"$1\"", "rm -rf /srv"}},
		{src: `python3 <(echo "import os; os.system('rm -rf /')")`, want: []string{"python3 /dev/fd/…", "echo import os; os.system('rm -rf /')", "rm -rf / ¦ ctx=interp"}},
		{src: `bash <(echo 'echo hi')`, want: []string{"bash /dev/fd/…", "echo echo hi", "echo hi"}, dyn: []string{}},
		// Output that is not known data stays a dynamic fact.
		{src: `bash <(./gen.sh)`, want: []string{"bash /dev/fd/…", "./gen.sh"}, dyn: []string{"proc-subst:…|feeders=gen.sh"}},
		{src: `source <(kubectl completion bash)`, want: []string{"source /dev/fd/…", "kubectl completion bash"}, dyn: []string{"source:/dev/fd/…|feeders=kubectl"}},
	})
}

// TestGetattrCall covers a process API reached through getattr and
// called at once: its argument is followed like the API's.
func TestGetattrCall(t *testing.T) {
	runRows(t, []row{
		{src: `python3 -c "getattr(__import__('os'), 'system')('rm -rf /')"`, want: []string{`python3 -c getattr(__import__('os'), 'system')('rm -rf /')`, "rm -rf / ¦ ctx=interp ¦ vias=python -c>os.system"}, dyn: []string{}},
		{src: `python3 -c "import subprocess as s; getattr(s, 'run')(['rm', '-rf', '/'])"`, want: []string{`python3 -c import subprocess as s; getattr(s, 'run')(['rm', '-rf', '/'])`, "rm -rf / ¦ ctx=interp"}},
		{src: `python3 -c "import os; getattr(os, 'system')('ls')"`, want: []string{`python3 -c import os; getattr(os, 'system')('ls')`, "ls"}, dyn: []string{}},
		// Bound to a name: its calls are the API's (the getattr stays
		// dynamic, the name may be used where the scanner cannot see).
		{src: `python3 -c "import os; f = getattr(os, 'system'); f('id')"`, want: []string{`python3 -c import os; f = getattr(os, 'system'); f('id')`, "id ¦ vias=python -c>os.system"}, dyn: []string{"interpreter:os.system"}},
		{src: `python3 -c "import os; os.__dict__['system']('id')"`, want: []string{`python3 -c import os; os.__dict__['system']('id')`, "id ¦ vias=python -c>os.system"}},
		{src: `python3 -c "print(getattr(str, 'upper')('x'))"`, want: []string{`python3 -c print(getattr(str, 'upper')('x'))`}, dyn: []string{}},
	})
}
