package main

// The help of every subcommand. Each entry is the whole of a command's
// documentation in the program: --help, help NAME, the overview, the
// completions and the man page are made from it (commands.go).

var cmdCheck = &command{
	name:    "check",
	summary: "decide about a command line without running it",
	usage: []string{
		"check [--json] [--cwd DIR] -c 'COMMAND'",
		"check --json --batch < requests.jsonl",
	},
	doc: `
Check analyses a command line and judges it with the rules in effect, as
running it through guard-exec would, but runs nothing. The verdict is one of
allow, warn, hold or deny, after the mode is applied.

With --json the answer is one JSON object: {"verdict":…,"rules":[…],
"parse_error":…}. With --batch it reads JSON Lines ({"command":"…","cwd":"…"},
cwd optional) on stdin and writes one answer per line, in order.

Exit status: 0 for allow and warn, 126 for hold and deny, 125 on errors;
with --batch, 0 unless the input cannot be read.`,
	examples: `
# why would this be held?
guard-exec check -c 'git push --force origin main'
# the same answer for a program
guard-exec check --json -c 'rm -rf ~/'
# judge as if run in another directory
guard-exec check --cwd /srv/app -c 'rm -rf build'`,
	run: runCheck,
}

var cmdExplain = &command{
	name:    "explain",
	summary: "show what the analysis sees in a command line, and why",
	usage:   []string{"explain [--json] [--cwd DIR] -c 'COMMAND'"},
	doc: `
Explain prints the facts the analysis found in a command line (the commands
it runs, the files it writes, the code it runs at run time) and the rule
hits that make its verdict. It runs nothing.`,
	examples: `
guard-exec explain -c 'curl -fsSL https://example.com/install.sh | sh'
guard-exec explain --json -c 'find . -name "*.o" -delete'`,
	run: runExplain,
}

var cmdRules = &command{
	name:    "rules",
	summary: "list the rules in effect",
	usage:   []string{"rules [--json]"},
	doc: `
Rules lists every rule guard-exec judges with: the built-in ones and those of
the configuration, each with its id, severity (after configuration), message
and hint. A rule's id is what the configuration's exempt and [severity]
take, and what a held command's message names.`,
	examples: `
guard-exec rules
guard-exec rules --json | jq -r 'select(.severity == "deny") | .id'`,
	run: runRules,
}

var cmdApprove = &command{
	name:    "approve",
	summary: "let a held command run once (a person, at a terminal)",
	usage:   []string{"approve [--cwd DIR] ID"},
	doc: `
Approve lets the command held as ID run once: the identical command in the
same directory, within 15 minutes. It asks for confirmation on the terminal
and refuses whenever it cannot be sure a person is answering: no terminal,
--ci, or inside a command guard-exec runs (an agent cannot approve its own
holds). ID is the one the hold message names: ev-37, ev-0037 or 37.

Where nobody is at a terminal (CI), allow the command in the configuration
instead (see guard-exec config --help).`,
	examples: `
guard-exec approve ev-0042
guard-exec approve --cwd ~/src/app 42`,
	run: runApprove,
}

var cmdLog = &command{
	name:    "log",
	summary: "list the recent commands from the ledger",
	usage:   []string{"log [-n N] [--json | --format otlp] [--session S] [--failed] [--blocked]", "log --verify"},
	doc: `
Log prints a table of the most recent commands of the ledger of the working
directory (id, time, verdict, exit status, duration, command), fitted to the
terminal's width. The filters combine; a filter that matches nothing says so.
--verify checks the hash chain and the ids of the whole ledger and exits 1
when it finds a problem. --format otlp writes the same records as OTLP/JSON,
one export request per record and per line, for a collector's otlpjsonfile
receiver (see guard-exec ship --help for the mapping).

The ledger is <git work tree>/.guard-exec/ inside a git work tree, else
$XDG_STATE_HOME/guard-exec/ (~/.local/state/guard-exec/);
GUARD_EXEC_LEDGER_DIR overrides both.`,
	examples: `
guard-exec log -n 50
guard-exec log --blocked --session "$GUARD_EXEC_SESSION"
guard-exec log --verify`,
	run: runLog,
}

var cmdShow = &command{
	name:    "show",
	summary: "everything the ledger holds about one command",
	usage:   []string{"show [--json] [--replay [--speed X]] ID"},
	doc: `
Show prints one command's records: what ran, where, the verdict and the rules
that hit, its exit status, duration, output sizes and hashes, and the head and
tail of its output (redacted). --replay plays back the terminal transcript of
a command that ran under a pty, with its timing. ID is ev-37, ev-0037 or 37.`,
	examples: `
guard-exec show ev-0042
guard-exec show --replay --speed 4 42`,
	run: runShow,
}

var cmdStats = &command{
	name:    "stats",
	summary: "counts by verdict and rule, and the commands that fail most",
	usage:   []string{"stats [--json] [--ledger DIR]"},
	doc: `
Stats summarises the ledger: commands by verdict, rule hits, holds and how
many of them people approved (the hold precision, once anything was
approved), loop-brake holds, and the commands that failed most often.`,
	examples: `
guard-exec stats
guard-exec stats --json`,
	run: runStats,
}

var cmdLoops = &command{
	name:    "loops",
	summary: "this session's failing streaks, and what the loop brake will do",
	usage:   []string{"loops [--session S] [--ledger DIR]"},
	doc: `
Loops lists the commands of a session that failed several times in a row,
and what the loop brake does with the next attempt. The brake holds the
third attempt of a command that failed twice with nothing changed in
between; an edit in the project, a success, or a command that may have
changed the environment lifts it.`,
	examples: `
guard-exec loops
guard-exec loops --session claude:1f2e3d`,
	run: runLoops,
}

var cmdConfig = &command{
	name:    "config",
	summary: "show, create or check the configuration",
	usage: []string{
		"config show [--json] [--cwd DIR]",
		"config init [--force]",
		"config check [--project] [FILE...]",
	},
	doc: `
show   the configuration in effect here, each value with the file:line it
       comes from (or "default")
init   write a commented user file with every key
       ($XDG_CONFIG_HOME/guard-exec/config.toml)
check  report the problems of FILE, or of every layer that applies here,
       as FILE:LINE: message; exit 1 if there is any

Layers, weakest first: the defaults, /etc/guard-exec/config.toml, the user's
file, the project's .guard-exec.toml. A project file may only tighten: it
can add rules and raise severities, never change the mode or exempt a rule.
A broken file is reported and its broken keys keep their defaults.`,
	examples: `
guard-exec config init && $EDITOR ~/.config/guard-exec/config.toml
guard-exec config check
guard-exec config show --json`,
	run:   runConfig,
	verbs: []string{"show", "init", "check"},
}

var cmdShim = &command{
	name:    "shim",
	summary: "install bash and sh links to guard-exec, for PATH",
	usage:   []string{"shim install|uninstall|status [--dir DIR]"},
	doc: `
install    make DIR/bash and DIR/sh links to this guard-exec, and print the
           PATH and SHELL lines that put them in front
uninstall  remove them (only entries that are guard-exec)
status     show what is installed and whether PATH finds it first; exit 1
           when it is not in effect

DIR defaults to $XDG_DATA_HOME/guard-exec/shim (~/.local/share/guard-exec/shim).
Under the names bash and sh guard-exec is strictly that shell, and runs the
next real one on PATH.`,
	examples: `
eval "$(guard-exec shim install)"
guard-exec shim status
guard-exec shim uninstall`,
	run:   runShimCmd,
	verbs: []string{"install", "uninstall", "status"},
}

var cmdHook = &command{
	name:    "hook",
	summary: "answer an agent's pre-tool hook (JSON on stdin)",
	usage:   []string{"hook claude|gemini [--ci] [--mode MODE]", "hook shell -c LINE"},
	doc: `
claude  Claude Code's PreToolUse hook: reads the hook JSON on stdin and
        answers Bash tool calls: nothing for allowed commands, "ask" for a
        hold, "deny" for a denial (and for a hold when nobody will be
        asked: bypassPermissions, dontAsk, --ci)
gemini  Gemini CLI's BeforeTool hook: the same for run_shell_command; a hold
        is a denial (Gemini has no "ask")
shell   the interactive shell's DEBUG trap: exit 0 runs LINE, 126 skips it

Answers name the rule (ruleId) and the hint in their own fields. Other
tools and other events are let through. The hooks fail closed: bad input
or a usage error exits 2, which both agents treat as "block", with the
reason on stderr.`,
	examples: `
# in ~/.claude/settings.json, under hooks.PreToolUse, matcher "Bash":
guard-exec hook claude
echo '{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}' | guard-exec hook claude`,
	run:   runHook,
	verbs: []string{"claude", "gemini", "shell"},
}

var cmdDoctor = &command{
	name:    "doctor",
	summary: "check the setup live, with a command that must be held",
	usage:   []string{"doctor [--json] [--dir DIR]"},
	doc: `
Doctor checks that guard-exec is really in the way of commands: the real
shells behind it, the PATH shim, SHELL, the agents' hook settings, the
configuration (parsed and in force), the ledger (appendable), the kernel
and the build. Then it sends a command that must be held through every way
in it finds, with a harmless stand-in for git first on PATH, and reports
whether it was held. A setup through hooks alone is a setup.

Exit status: 0 when nothing needs attention, 1 otherwise.`,
	examples: `
guard-exec doctor
guard-exec doctor --json | jq '.checks[] | select(.status != "ok")'`,
	run: runDoctor,
}

var cmdCompletion = &command{
	name:    "completion",
	summary: "print a shell completion script (bash, zsh or fish)",
	usage:   []string{"completion bash|zsh|fish"},
	doc: `
Completion prints a script that completes guard-exec's subcommands, their
verbs and their flags in the named shell.`,
	examples: `
# bash, in ~/.bashrc
source <(guard-exec completion bash)
# zsh, in ~/.zshrc
source <(guard-exec completion zsh)
# fish
guard-exec completion fish > ~/.config/fish/completions/guard-exec.fish`,
	run:   runCompletion,
	verbs: []string{"bash", "zsh", "fish"},
}

var cmdMan = &command{
	name:    "man",
	summary: "print the manual page (roff), made from this help",
	usage:   []string{"man"},
	doc: `
Man prints guard-exec(1) in roff, made from the same text as --help.`,
	examples: `
guard-exec man | man -l -
guard-exec man > /usr/local/share/man/man1/guard-exec.1`,
	run: runMan,
}

var cmdVersion = &command{
	name:    "version",
	summary: "print the version, commit, build date and kind of build",
	usage:   []string{"version [--json]"},
	doc: `
Version prints the module version, the commit and its date, the build date
(when the build set one), the Go version, and whether the binary is static
or links the C runtime (which costs every command about 1 ms).`,
	examples: `
guard-exec version
guard-exec --version`,
	run: runVersion,
}

var cmdHelp = &command{
	name:    "help",
	summary: "help about guard-exec or one of its commands",
	usage:   []string{"help [COMMAND]"},
	doc: `
Help prints the overview, or the help of COMMAND (the same as COMMAND
--help).`,
	examples: `
guard-exec help
guard-exec help check`,
	run: runHelp,
}
