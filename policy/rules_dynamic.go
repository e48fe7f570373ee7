package policy

import (
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/parse"
)

// Dynamic-execution rules: code that runs but that the analysis cannot
// see. Where the code's known parts are themselves risky the analysis has
// already followed them (eval "rm -rf $X" is analysed as rm -rf …), so
// the other rules judge them as usual. What is left here:
//
//   - a command whose name is unknown but whose arguments would be risky
//     for some program the name could be: the other rules are run on the
//     hypothetical command, once per program a rule is indexed under and
//     the name's known parts allow ("$(echo rm) -rf /" when echo's output
//     were unknown, "$TOOL push --force"). A rule that fires on the
//     program name alone (mkfs, reboot) does not count unless the name's
//     known parts pin the program down, or every unknown name would hold;
//   - content that cannot be known at all warns, unless it comes only from
//     a well-known environment generator (eval "$(ssh-agent -s)");
//   - nesting too deep to follow holds, and a nested script the parser
//     rejects is scanned like an unparseable command line.

var dynamicRules = []*Rule{
	{
		ID: "dynamic-risky-args", Family: "dynamic", Severity: Hold,
		Message: "runs a program chosen at run time with arguments that would be destructive for a program it could be",
		Hint:    "write the program name out, so the command can be checked",
		Dynamic: func(x *Ctx, d *parse.Dynamic) bool {
			// A command name computed at run time, or a file this line
			// made with contents it cannot know, run by its path (cp
			// "$SRC" x; ./x -rf ~): either could be any program.
			switch {
			case d.Sink == nil:
				return false
			case d.Kind == parse.DynCommandName:
				return hypotheticalHold(x, d.Sink)
			case d.Kind == parse.DynSource && d.Known == d.Sink.Path && unknownWriter(d):
				// (a program the line built from its sources is the
				// project's own, judged as any program run by path)
				any := *d.Sink
				any.Name = parse.Unknown
				return hypotheticalHold(x, &any)
			}
			return false
		},
		Examples: []string{
			"$(cat cmd.txt) -rf /",
			"cp \"$(cat name)\" ./x; ./x -rf ~",
			"cat \"$(cat name)\" > x; chmod +x x; ./x push --force origin main",
			"\"$(which rm)\" -rf ~",
			"$(get_git) push --force origin main",
			"r=$(cat); ${r}m -rf /",
			"\"$T\"$(cat x) -c 'DROP DATABASE prod'",
			"${X}$(cat x)mkfs.ext4 /dev/sda1",
		},
		NotExamples: []string{
			"$(cat cmd.txt) --version",
			"\"$(npm bin)/eslint\" .",
			"$(which python3) script.py",
			"$(cat cmd.txt) /dev/sda",
			"\"$(which cat)\" /etc/hosts",
			"$(cat x) flushall",
			"cp \"$(cat name)\" ./x; ./x --version",
			"go build -o k ./cmd/k && ./k delete --all",
		},
	},
	{
		ID: "dynamic-exec", Family: "dynamic", Severity: Warn,
		Message: "runs code that cannot be known before it runs (eval of a variable, sh -c of a substitution, a computed command name, unknown input piped to a shell)",
		Hint:    "write the command out literally so it can be checked, or save the generated code to a file and read it first",
		Dynamic: dynamicUnknown,
		Examples: []string{
			"eval \"$(cat cmd.txt)\"",
			"sh -c \"$(cat cmd.txt)\"",
			"bash -c \"$(./gen.sh)\"",
			"cat script.sh | bash",
			"./gen.sh | sh",
			"$(cat cmd.txt) --version",
			"source \"$(./find-env.sh)\"",
			"bash <(./gen.sh)",
			"cp \"$1\" run.sh; bash run.sh",
		},
		NotExamples: []string{
			"eval \"$(ssh-agent -s)\"",
			"eval \"$(pyenv init -)\"",
			"source <(kubectl completion bash)",
			"eval \"$(direnv hook bash)\"",
			"source .venv/bin/activate",
			". ~/.nvm/nvm.sh",
			"bash ./scripts/build.sh",
			"gcc -O2 main.c -o app && ./app",
			"\"$(npm bin)/eslint\" .",
			"echo 'eval $X'",
		},
	},
	{
		ID: "dynamic-risky-feed", Family: "dynamic", Severity: Hold,
		Message: "runs code made at run time by a command whose own words are a risky command (printed by jq, awk, a script or yes and piped to a shell)",
		Hint:    "run the command itself, written out, so it can be checked",
		Dynamic: riskyFeed,
		Examples: []string{
			`jq -rn '"rm -rf ~"' | sh`,
			`awk 'BEGIN{print "rm -rf /"}' | bash`,
			`python3 -c 'print("rm -rf /")' | sh`,
			`yes 'rm -rf ~' | sh`,
			`eval "$(jq -rn '"rm -rf ~"')"`,
			`jq -rn '"git push --force"' | sh`,
			`node -e 'console.log("git reset --hard")' | bash`,
			`perl -le 'print q(rm -rf ~)' | sh`,
			`perl -e 'print "rm -rf ~\n"' | bash`,
			`tclsh <<< 'puts {rm -rf ~}' | sh`,
			`perl -e "print 'terraform destroy'" | sh`,
		},
		NotExamples: []string{
			`jq -r .scripts.build package.json | sh`,
			`./gen.sh | sh`,
			`echo 'rm -rf ~' > notes.txt`,
			`printf '%s\n' a b | xargs echo`,
			`jq -rn '"git push --force-with-lease"' | sh`,
			`python3 -c 'print("git push")' | sh`,
		},
	},
	{
		ID: "dynamic-too-deep", Family: "dynamic", Severity: Hold,
		Message: "nests scripts deeper than the guard follows, so what finally runs is not checked",
		Hint:    "flatten the nesting: run the inner command directly",
		Dynamic: func(_ *Ctx, d *parse.Dynamic) bool { return d.Kind == parse.DynTooDeep },
		// Nesting by eval keeps the examples short: each level of bash -c
		// quoting triples the quotes, and twelve levels of it were 800 KB
		// built at every start of the program. Written out, not built
		// with strings.Repeat: a literal costs nothing at start-up.
		Examples: []string{"eval eval eval eval eval eval eval eval eval eval eval eval ls",
			"bash -c 'eval eval eval eval eval eval eval eval eval git status'"},
		NotExamples: []string{"bash -c 'bash -c ls'", "bash -c 'eval eval eval ls'"},
	},
	{
		ID: "env-code-unknown", Family: "dynamic", Severity: Hold,
		Message: "bash takes code from the environment that the guard cannot read or parse (an exported function, the BASH_ENV or ENV file), so what it runs is not checked",
		Hint:    "unset the variable, or define the function in the command itself so it can be checked",
		Dynamic: func(_ *Ctx, d *parse.Dynamic) bool { return d.Kind == parse.DynEnvCode },
		Examples: []string{
			"env 'BASH_FUNC_f%%=() { rm -rf / ' bash -c f",
			"env \"BASH_FUNC_ls%%=$(cat f)\" bash -c ls",
			"BASH_ENV=/no/such/startup/file bash -c 'echo hi'",
		},
		NotExamples: []string{
			"env 'BASH_FUNC_f%%=() { echo hi; }' bash -c f",
			"env 'BASH_FUNC_f%%=not code' bash -c 'echo $BASH_FUNC_f'",
			"env -u BASH_ENV bash -c 'echo hi'",
		},
	},
	{
		ID: "dynamic-unparsable-risky", Family: "dynamic", Severity: Hold,
		Message: "runs a nested script the parser rejects, and its text matches a risky pattern",
		Hint:    "fix the quoting of the nested script so it can be checked",
		Dynamic: func(x *Ctx, d *parse.Dynamic) bool {
			return d.Kind == parse.DynUnparsable && x.rawRiskHit(d.Known)
		},
		Examples:    []string{`bash -c 'rm -rf / "'`, `eval 'git push --force "'`},
		NotExamples: []string{`bash -c 'echo "'`, `bash -c 'rm -rf build'`},
	},
	{
		ID: "dynamic-unparsable", Family: "dynamic", Severity: Warn,
		Message: "runs a nested script the parser rejects; the shell will likely reject it too",
		Hint:    "fix the quoting of the nested script",
		Dynamic: func(x *Ctx, d *parse.Dynamic) bool {
			return d.Kind == parse.DynUnparsable && !x.rawRiskHit(d.Known)
		},
		Examples:    []string{`bash -c 'echo "'`, `eval 'ls "'`},
		NotExamples: []string{`bash -c 'echo ok'`, `bash -c 'rm -rf / "'`},
	},
}

// hypotheticalHold runs the rules indexed under every program the unknown
// name of c could be, on c's arguments, and reports whether a rule that
// holds would fire. When the name's known parts do not pin the program
// down, the danger must come from the options: a rule that still fires
// with the options removed is judging paths or words any program could
// take ("$(which cat) /etc/hosts" is not a shred), and does not count.
func hypotheticalHold(x *Ctx, c *parse.Command) bool {
	e := x.e
	if e == nil || !strings.Contains(c.Name, parse.Unknown) {
		return false
	}
	parts := strings.Split(c.Name, parse.Unknown)
	pinned := strings.Trim(strings.Join(parts, ""), "/.") != ""
	plain, options := parse.WithoutOptions(c)
	if !pinned && !options {
		return false // no option words: nothing could count
	}
	try := func(prog string) bool {
		// Each candidate reads the words with its own row (flags,
		// roles), as parse would have had the name been written.
		var h, p *parse.Command
		for _, r := range e.names.lookup(prog, nil) {
			if e.SeverityOf(r) < Hold {
				continue
			}
			if h == nil {
				h, p = parse.ReadAs(c, prog), parse.ReadAs(plain, prog)
			}
			if !r.matches(x, h) {
				continue
			}
			if pinned || !r.matches(x, p) {
				return true
			}
		}
		return false
	}
	if !pinned {
		// Any program at all: the programs whose options carry the
		// danger are enough, and keep this cheap.
		for _, prog := range optionRiskPrograms {
			if try(prog) {
				return true
			}
		}
		return false
	}
	for prog := range e.names.index() {
		if matchesParts(prog, parts) && try(prog) {
			return true
		}
	}
	return false
}

// optionRiskPrograms are the programs whose rules hold on options rather
// than on the program or bare paths: the candidates for a command name
// nothing is known of.
var optionRiskPrograms = []string{"rm", "git", "kill", "pkill", "killall", "chmod", "chown", "dd", "find",
	"rsync", "psql", "mysql", "mongosh", "sqlite3", "redis-cli", "kubectl", "helm", "terraform", "tofu",
	"pulumi", "docker", "npm", "cargo", "aws", "gcloud", "gsutil", "az", "gh", "crontab", "wipefs", "curl"}

// matchesParts reports whether name could be the known parts with any
// text in the gaps between them.
func matchesParts(name string, parts []string) bool {
	if !strings.HasPrefix(name, parts[0]) {
		return false
	}
	rest := name[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return len(parts) > 1 && strings.HasSuffix(rest, last) || len(parts) == 1 && rest == ""
}

// envGenerators print shell code that sets up the environment; eval or
// source of their output is everyday shell setup. Built on first use:
// only a dynamic execution fed by a command reads it.
var envGenerators = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"ssh-agent": true, "gpg-agent": true, "keychain": true, "dbus-launch": true, "resize": true,
		"pyenv": true, "rbenv": true, "nodenv": true, "goenv": true, "jenv": true, "plenv": true, "phpenv": true,
		"direnv": true, "conda": true, "mamba": true, "micromamba": true, "brew": true, "zoxide": true,
		"starship": true, "fnm": true, "mise": true, "rtx": true, "asdf": true, "dircolors": true, "thefuck": true,
		"opam": true, "luarocks": true, "register-python-argcomplete": true, "minikube": true, "docker-machine": true,
		"devbox": true, "pixi": true, "atuin": true, "mcfly": true, "fzf": true, "navi": true, "kubectl": true,
		"helm": true, "gh": true, "rustup": true, "poetry": true, "pip": true, "pip3": true, "uv": true,
		"npm": true, "pnpm": true, "deno": true, "bun": true, "op": true, "aws-vault": true, "oh-my-posh": true,
		"vfox": true, "volta": true, "sdkman": true, "pdm": true, "rye": true, "just": true, "task": true,
		"kind": true, "k3d": true, "terraform": true, "packer": true, "vault": true, "nomad": true, "consul": true,
		"cargo": true, "rbw": true, "gcloud": true, "az": true, "tailscale": true, "lima": true, "colima": true,
		"aws": true, "doppler": true, "infisical": true, "chamber": true, "saml2aws": true, "granted": true,
	}
})

// dynamicUnknown reports a dynamic fact with unknown content that is not
// explained by a known-safe source and not already held by the remote
// code rules.
func dynamicUnknown(x *Ctx, d *parse.Dynamic) bool {
	if d.Placeholder && d.Sink != nil && x != nil && x.placeholderDirs(d.Sink) != nil {
		// Only the paths find or a lister prints under known
		// directories are spliced in; the commands run with them are
		// judged there.
		return false
	}
	switch d.Kind {
	case parse.DynTooDeep, parse.DynUnparsable, parse.DynEnvCode:
		return false
	case parse.DynSource:
		if d.Known != "" && !strings.Contains(d.Known, parse.Unknown) && !unknownWriter(d) {
			return false // a file on disk, named literally: like running any script
		}
	case parse.DynCommandName:
		if d.Sink != nil && !strings.Contains(d.Sink.Name, parse.Unknown) && d.Sink.Name != "" && !d.Sink.Function && !strings.ContainsAny(d.Sink.Name, "*?[") {
			return false // the program is known; only its directory is computed
		}
	}
	if anyFeeder(d, isDownloader) || anyFeeder(d, isDecoder) {
		return false // remote-code-exec or decoded-payload-exec holds it
	}
	if len(d.Feeders) > 0 {
		all := true
		for _, f := range d.Feeders {
			all = all && envGenerators()[f.Name]
		}
		if all {
			return false
		}
	}
	return true
}

// rawRiskHit reports whether any rule's raw pattern matches text: the
// fallback for code the parser rejects.
func (x *Ctx) rawRiskHit(text string) bool {
	if x.e == nil || text == "" {
		return false
	}
	lower := strings.ToLower(text)
	for _, r := range x.e.rules {
		if x.e.SeverityOf(r) >= Warn && r.rawFind(text, lower) != nil {
			return true
		}
	}
	return false
}

// groupEnds turns the brackets other languages quote strings with
// (Perl's q(…) and qq{…}, Tcl's {…}) and the escapes a string ends its
// line with (\n) into line ends: perl -le 'print q(rm -rf ~)' prints
// rm -rf ~.
var groupEnds = strings.NewReplacer(`\n`, "\n", `\t`, " ", "(", "\n", ")", "\n", "{", "\n", "}", "\n", `"`, "\n", "'", "\n")

// quoteEnds turns quotes into line ends, which the raw patterns do not
// cross.
var quoteEnds = strings.NewReplacer(`"`, "\n", "'", "\n", "`", "\n")

// riskyFeed reports code that cannot be known whose feeders carry a risky
// command in their own literal words: the text a shell runs comes from
// them, so "jq -rn '"rm -rf ~"' | sh" is judged by what jq was given to
// print, as the parser's fallback judges text it cannot parse. Downloads
// and decoders are the remote-code rules'.
func riskyFeed(x *Ctx, d *parse.Dynamic) bool {
	switch d.Kind {
	case parse.DynPipeShell, parse.DynProcSubst, parse.DynEval, parse.DynShellArg, parse.DynSource:
	default:
		return false
	}
	if !strings.Contains(d.Known, parse.Unknown) || anyFeeder(d, isDownloader) || anyFeeder(d, isDecoder) {
		return false
	}
	for _, f := range d.Feeders {
		var words []string
		for _, a := range f.Args {
			if !a.Dynamic {
				words = append(words, a.Value)
			}
		}
		if in := f.Stdin; in != nil && (in.Kind == parse.InputHereString || in.Kind == parse.InputHeredoc) && in.Known {
			words = append(words, in.Text) // tclsh <<< 'puts {rm -rf ~}' | sh
		}
		if len(words) == 0 {
			continue
		}
		// The words as given, and with the quotes of the producer's own
		// language taken as the ends of its strings: jq's '"git push
		// --force"' prints git push --force, whose end a pattern would
		// otherwise see as a quote.
		text := strings.Join(words, " ")
		if x.rawRiskHit(text) || x.rawRiskHit(quoteEnds.Replace(text)) || x.rawRiskHit(groupEnds.Replace(text)) {
			return true
		}
	}
	return false
}

// unknownWriter reports whether the line itself wrote the file a dynamic
// source runs, with contents the analysis could not know (cp "$SRC"
// run.sh; bash run.sh). A build's output is not: its sources were read
// (gcc x.c -o a && ./a; the row's "written:build").
func unknownWriter(d *parse.Dynamic) bool {
	for _, f := range d.Feeders {
		if !builds(f) {
			return true
		}
	}
	return false
}

// builds reports whether a command writes a program built from what it
// read.
func builds(c *parse.Command) bool {
	for _, ra := range c.Roles {
		if ra.Role == parse.RoleWritten && ra.Lang == "build" {
			return true
		}
	}
	return false
}
