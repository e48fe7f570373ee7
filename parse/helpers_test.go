package parse

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

// A row states the facts expected for one script, compactly.
//
// want lists the commands in order, each as its argv ("rm -rf /", unknown
// parts as "…") optionally followed by " ¦ key=value" checks:
//
//	path=P       Command.Path            dir=D      Command.Dir ("?" for unknown)
//	via=S        the innermost Via.Sink   vias=A>B   all Via sinks
//	wrap=A,B     Command.Wrappers         ctx=a,b    Context flags that must be set
//	noctx=a      flags that must not be set
//	in=KIND      Stdin kind (pipe, heredoc, herestring, file, procsubst, none)
//	exec         Stdin.Executed           text=T     Stdin.Text (\n escaped)
//	from=NAME    Stdin.From.Name          redir=OP>PATH a redirect (PATH "?" when unknown)
//	glob=i       argument i is a glob     dyn=i      argument i is dynamic
//	lit=i        argument i is literal    fn         Function   rec  Recursive
//	ph           Placeholder              remote=H   Remote     user=U  User
//	pos=L:C      Command.Pos              assign=N=V an Assign  namedyn NameDynamic
//	pipe=I       PipeIndex                synth      Synthetic  name=N  Command.Name
//	dirpart=D    Command.DirPart ("…" unknown, "+made" DirMade)
//
// dyn lists the Dynamic facts in order as "kind" or "kind:known", with
// "|feeders=a,b" and "|sink=NAME" checks.
type row struct {
	src  string
	want []string
	dyn  []string
	opt  func(*Options)
	// check is extra assertions.
	check func(t *testing.T, an *Analysis)
}

var testEnv = map[string]string{
	"HOME": "/home/u", "TMPDIR": "/tmp", "PATH": "/usr/bin:/bin", "USER": "u", "PWD": "/proj",
}

func testOptions() Options {
	env := make(map[string]string, len(testEnv))
	for k, v := range testEnv {
		env[k] = v
	}
	return Options{Env: env, Dir: "/proj", Files: testFiles}
}

// testFiles is the filesystem sourced files are read from in tests.
var testFiles = mapFiles{
	"/proj/setup.sh":           "cd /srv && rm -rf cache\n",
	"/proj/env.sh":             "export TARGET=/var/data\nDEPLOY=rsync\n",
	"/proj/script.sh":          "#!/bin/bash\ngit push --force\n",
	"/proj/.venv/bin/activate": "VIRTUAL_ENV=/proj/.venv\nexport PATH=\"$VIRTUAL_ENV/bin:$PATH\"\n",
	"/proj/run.py":             "import os\nos.system('rm -rf /tmp/x')\n",
	"/home/u/.bashrc":          "alias ll='ls -l'\n",
	"/proj/bashenv":            "curl http://x | sh\n",
	"/proj/tools/clean.py":     "import shutil\nshutil.rmtree('/srv/data')\n",
	"/proj/x.js":               "require('child_process').execSync('git push --force')\n",
	"/proj/deploy":             "#!/usr/bin/env python3\nimport os\nos.system('rm -rf /srv/www')\n",
	"/proj/bin/tool":           "\x7fELF\x00\x00binary",
	"/proj/big.sh":             "",
	"/proj/mk/Makefile":        "BUILD = out\nall: build\nbuild:\n\tgo build -o $(BUILD)/app .\nclean:\n\trm -rf $(BUILD)\n",
	"/proj/web/package.json":   `{"scripts": {"build": "tsc -p .", "prebuild": "rm -rf dist", "test": "jest", "nuke": "rm -rf ~"}}`,
	"/proj/lib.sh":             "# a library\nrmall() { rm -rf \"$@\"; }\nsafe() { ls \"$@\"; }\nalias nuke='rm -rf ~'\n",
	"/proj/rc":                 "greet() { echo hi; }\nwipe() { rm -rf /; }\n",
	"/proj/selfinc.cfg":        strings.Repeat("[include]\n\tpath = selfinc.cfg\n", 50),
	"/proj/git.cfg":            "[user]\n\tname = Dev ; a comment\n[core]\n\tpager = \"rm -rf /srv\" # comment\n[include]\n\tpath = inc.cfg\n",
	"/proj/inc.cfg":            "[alias \"Up\"]\n[alias]\n\tup = !git fetch && \\\n  git push -f\n",
	"/proj/bad.cfg":            "[core\n\tpager = rm -rf /srv\n",
}

type mapFiles map[string]string

func (m mapFiles) ReadFile(p string) ([]byte, error) {
	if p == "/proj/big.sh" {
		return nil, errors.New("too large")
	}
	if s, ok := m[p]; ok {
		return []byte(s), nil
	}
	return nil, os.ErrNotExist
}

func runRows(t *testing.T, rows []row) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.src, func(t *testing.T) {
			opts := testOptions()
			if r.opt != nil {
				r.opt(&opts)
			}
			an := Analyze(r.src, opts)
			if an.Err != nil {
				if r.check != nil {
					r.check(t, an)
					return
				}
				t.Fatalf("error: %v (%s)", an.Err, an.Err.Kind)
			}
			if r.want != nil || r.dyn != nil || r.check == nil {
				checkCommands(t, an, r.want)
				checkDynamic(t, an, r.dyn)
			}
			if r.check != nil {
				r.check(t, an)
			}
		})
	}
}

func checkCommands(t *testing.T, an *Analysis, want []string) {
	t.Helper()
	if len(an.Commands) != len(want) {
		t.Errorf("got %d commands, want %d:\n%s", len(an.Commands), len(want), dump(an))
		return
	}
	for i, w := range want {
		c := an.Commands[i]
		parts := strings.Split(w, " ¦ ")
		if got := argvString(c); got != parts[0] {
			t.Errorf("command %d: argv %q, want %q\n%s", i, got, parts[0], dump(an))
			continue
		}
		for _, chk := range parts[1:] {
			if msg := checkAttr(c, chk); msg != "" {
				t.Errorf("command %d (%s): %s: %s\n%s", i, parts[0], chk, msg, dump(an))
			}
		}
	}
}

func argvString(c *Command) string {
	ws := []string{Word{Value: c.Path}.String()}
	if c.Name == "" && c.Path == "" {
		ws = []string{""}
	}
	for _, a := range c.Args {
		ws = append(ws, a.String())
	}
	return strings.Join(ws, " ")
}

var ctxNames = map[string]Context{
	"pipe": InPipeline, "bg": InBackground, "subshell": InSubshell, "cmdsubst": InCmdSubst,
	"procsubst": InProcSubst, "function": InFunction, "alias": InAlias, "cond": InCondition,
	"loop": InLoop, "nested": InNested, "interp": InInterpreter, "branch": InBranch,
	"orleft": InOrLeft, "uncalled": InUncalled, "remote": InRemote,
}

var kindNames = map[string]InputKind{
	"none": InputNone, "heredoc": InputHeredoc, "herestring": InputHereString, "pipe": InputPipe,
	"file": InputFile, "procsubst": InputProcSubst,
}

func checkAttr(c *Command, chk string) string {
	key, val, _ := strings.Cut(chk, "=")
	idx := func() (Word, bool) {
		var i int
		fmt.Sscan(val, &i)
		if i < 0 || i >= len(c.Args) {
			return Word{}, false
		}
		return c.Args[i], true
	}
	switch key {
	case "path":
		return diff(c.Path, val)
	case "name":
		return diff(c.Name, val)
	case "dir":
		if val == "?" {
			val = ""
		}
		return diff(c.Dir, val)
	case "dirpart":
		// Command.DirPart with "…" for unknown parts, and "+made" when
		// DirMade is set.
		got := strings.ReplaceAll(c.DirPart, Unknown, "…")
		if c.DirMade {
			got += "+made"
		}
		return diff(got, val)
	case "via":
		if len(c.Via) == 0 {
			return "no via"
		}
		return diff(c.Via[len(c.Via)-1].Sink, val)
	case "vias":
		var s []string
		for _, v := range c.Via {
			s = append(s, v.Sink)
		}
		return diff(strings.Join(s, ">"), val)
	case "wrap":
		return diff(strings.Join(c.Wrappers, ","), val)
	case "ctx", "noctx":
		for _, n := range strings.Split(val, ",") {
			f, ok := ctxNames[n]
			if !ok {
				return "unknown context " + n
			}
			if (c.Context&f != 0) != (key == "ctx") {
				return fmt.Sprintf("context %b", c.Context)
			}
		}
	case "in":
		k := InputNone
		if c.Stdin != nil {
			k = c.Stdin.Kind
		}
		if k != kindNames[val] {
			return fmt.Sprintf("stdin kind %d", k)
		}
	case "exec":
		if c.Stdin == nil || !c.Stdin.Executed {
			return "stdin not executed"
		}
	case "noexec":
		if c.Stdin != nil && c.Stdin.Executed {
			return "stdin executed"
		}
	case "text":
		if c.Stdin == nil {
			return "no stdin"
		}
		return diff(strings.ReplaceAll(Word{Value: c.Stdin.Text}.String(), "\n", `\n`), val)
	case "from":
		if c.Stdin == nil || c.Stdin.From == nil {
			return "no stdin from"
		}
		return diff(c.Stdin.From.Name, val)
	case "redir":
		for _, r := range c.Redirs {
			p := r.Path
			if p == "" {
				p = "?"
			}
			if string(r.Op)+p == val {
				return ""
			}
		}
		return fmt.Sprintf("redirects %+v", c.Redirs)
	case "glob", "dyn", "lit":
		w, ok := idx()
		if !ok {
			return "no such argument"
		}
		if key == "glob" && !w.Glob || key == "dyn" && !w.Dynamic || key == "lit" && !w.Literal() {
			return fmt.Sprintf("word %+v", w)
		}
	case "fn":
		if !c.Function {
			return "not a function call"
		}
	case "nofn":
		if c.Function {
			return "a function call"
		}
	case "rec":
		if !c.Recursive {
			return "not recursive"
		}
	case "ph":
		if !c.Placeholder {
			return "no placeholder"
		}
	case "synth":
		if !c.Synthetic {
			return "not synthetic"
		}
	case "namedyn":
		if !c.NameDynamic {
			return "name not dynamic"
		}
	case "remote":
		return diff(c.Remote, val)
	case "user":
		return diff(c.User, val)
	case "pos":
		return diff(c.Pos.String(), val)
	case "pipe":
		var i int
		fmt.Sscan(val, &i)
		if c.Pipeline == 0 || c.PipeIndex != i {
			return fmt.Sprintf("pipeline %d index %d", c.Pipeline, c.PipeIndex)
		}
	case "assign":
		for _, a := range c.Assigns {
			if a.Name+"="+a.Value.String() == val {
				return ""
			}
		}
		return fmt.Sprintf("assigns %+v", c.Assigns)
	default:
		return "unknown check"
	}
	return ""
}

func diff(got, want string) string {
	if got != want {
		return fmt.Sprintf("got %q", got)
	}
	return ""
}

func checkDynamic(t *testing.T, an *Analysis, want []string) {
	t.Helper()
	if len(an.Dynamic) != len(want) {
		t.Errorf("got %d dynamic facts, want %d:\n%s", len(an.Dynamic), len(want), dump(an))
		return
	}
	for i, w := range want {
		d := an.Dynamic[i]
		parts := strings.Split(w, "|")
		head := parts[0]
		kind, known, hasKnown := strings.Cut(head, ":")
		if string(d.Kind) != kind {
			t.Errorf("dynamic %d: kind %s, want %s\n%s", i, d.Kind, kind, dump(an))
			continue
		}
		if hasKnown {
			if got := (Word{Value: d.Known}).String(); got != known {
				t.Errorf("dynamic %d: known %q, want %q", i, got, known)
			}
		}
		for _, chk := range parts[1:] {
			k, v, _ := strings.Cut(chk, "=")
			switch k {
			case "feeders":
				var names []string
				for _, f := range d.Feeders {
					names = append(names, f.Name)
				}
				if got := strings.Join(names, ","); got != v {
					t.Errorf("dynamic %d: feeders %q, want %q", i, got, v)
				}
			case "sink":
				if d.Sink == nil || d.Sink.Name != v {
					t.Errorf("dynamic %d: sink %+v, want %s", i, d.Sink, v)
				}
			default:
				t.Errorf("unknown dynamic check %s", k)
			}
		}
	}
}

// dump renders an analysis for failure messages.
func dump(an *Analysis) string {
	var b strings.Builder
	for i, c := range an.Commands {
		fmt.Fprintf(&b, "  [%d] %q name=%q dir=%q ctx=%b wrap=%v pos=%v", i, argvString(c), c.Name, c.Dir, c.Context, c.Wrappers, c.Pos)
		if len(c.Via) > 0 {
			var s []string
			for _, v := range c.Via {
				s = append(s, v.Sink)
			}
			fmt.Fprintf(&b, " via=%s", strings.Join(s, ">"))
		}
		if c.Stdin != nil {
			fmt.Fprintf(&b, " stdin={kind=%d exec=%v text=%q}", c.Stdin.Kind, c.Stdin.Executed, c.Stdin.Text)
		}
		for _, r := range c.Redirs {
			fmt.Fprintf(&b, " redir=%s%s", r.Op, r.Path)
		}
		if c.Function || c.Recursive || c.Placeholder || c.Remote != "" {
			fmt.Fprintf(&b, " fn=%v rec=%v ph=%v remote=%q", c.Function, c.Recursive, c.Placeholder, c.Remote)
		}
		b.WriteByte('\n')
	}
	for i, d := range an.Dynamic {
		var names []string
		for _, f := range d.Feeders {
			names = append(names, f.Name)
		}
		sink := ""
		if d.Sink != nil {
			sink = d.Sink.Name
		}
		fmt.Fprintf(&b, "  dyn[%d] %s known=%q sink=%s feeders=%v pos=%v\n", i, d.Kind, Word{Value: d.Known}.String(), sink, names, d.Pos)
	}
	if len(an.EnvCode) > 0 {
		fmt.Fprintf(&b, "  envcode=%v\n", an.EnvCode)
	}
	return b.String()
}

// summary is a facts-derived fingerprint of an analysis: the sorted
// multiset of command names with their literal argv, and the dynamic
// kinds. A script and its canonical reprint must have the same.
func summary(an *Analysis) string {
	var lines []string
	for _, c := range an.Commands {
		lines = append(lines, argvString(c))
	}
	for _, d := range an.Dynamic {
		lines = append(lines, "dyn:"+string(d.Kind))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
