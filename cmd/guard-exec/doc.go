// Command guard-exec stands in for the shell of AI coding agents and CI
// jobs. Every command line reaches it first: it is parsed (never matched as
// raw text), judged by rules — risky patterns, a loop brake, a path
// boundary — run with the real bash when the verdict allows, and recorded
// in an append-only ledger.
//
// # Ways in
//
//	guard-exec -c 'CMD' [ARG0 ARGS…]   bash's own options: -c anywhere, -l, -i, -e, -u, -x, -o opt, clusters
//	bash / sh (PATH shim)             dispatch on argv[0] (also "-bash"); strictly that shell
//	guard-exec SCRIPT [ARGS…]          the whole file is judged before any line runs
//	guard-exec -- PROG [ARGS…]         one simple command, run without a shell
//	guard-exec check …                 decide, never run
//	guard-exec hook claude|gemini      an agent's pre-tool hook: decide, answer in its JSON
//	guard-exec shim install|uninstall|status [--dir DIR]
//	guard-exec doctor [--dir DIR]      check the setup; a must-hold probe through every way in
//
// Under its own name guard-exec also accepts, before the shell's options:
// --pty=auto|always|never, --mode=enforce|advise|audit, --timeout=DUR and
// --ci (never ask at a terminal; holds exit 126). GITHUB_ACTIONS=true
// implies --ci.
//
// Subcommand words (check, shim, …) are special only as the first argument
// to guard-exec under its own name and without a slash: guard-exec ./check
// runs the script named check, and under a shim name no word is special.
//
// The shim: `shim install` makes DIR/bash and DIR/sh symbolic links to the
// resolved guard-exec binary (default DIR: $XDG_DATA_HOME/guard-exec/shim,
// else ~/.local/share/guard-exec/shim) and prints the PATH and SHELL lines
// to use. An existing entry that is not guard-exec is never replaced. The
// real shell is the next one on PATH that is not guard-exec: files are
// compared, not names (symlinks, hard links, and copies, which are
// recognised by their build information), a directory on PATH twice is
// searched once, relative PATH entries are skipped, and with no PATH at all
// /usr/local/bin:/usr/bin:/bin is searched. No real shell: exit 125.
//
// Where a shell's script comes from decides how it is judged: a -c script
// and a script file whole, before anything runs; a regular file on stdin
// (bash < script.sh) whole, then the real shell reads the same descriptor;
// a pipe (… | bash, a tool that keeps one bash open and writes commands to
// it) piece by piece as it arrives — each complete piece is judged with
// everything before it, a held statement is replaced by (exit 126) and the
// rest goes on, as after any failing command; a terminal with no script is
// an interactive bash, the real one, with a DEBUG-trap guard that judges
// each typed line before it runs (an interactive sh is not guarded line by
// line: dash has no DEBUG trap, and says so).
//
// Claude Code's CLAUDE_CODE_SHELL_PREFIX contract is "PREFIX COMMAND": when
// CLAUDECODE is set and guard-exec's only operand names no file but reads
// as a command line, it is run as -c COMMAND.
//
// Large sourced files (Claude Code's shell snapshot: a capture of the
// user's functions, options and aliases) are analysed by what the command
// calls: top-level function definitions it never calls are left out, the
// rest is analysed as written. The file's index is cached under
// $XDG_CACHE_HOME/guard-exec/sourced, keyed by path, inode, size, mtime and
// ctime, and trusted as the configuration is.
//
// Hooks: `hook claude` answers Claude Code's PreToolUse JSON — nothing for
// allowed commands (Claude Code's own rules apply), "ask" for a hold (a
// person answers Claude Code's prompt), "deny" for a hold when nobody will
// be asked (bypassPermissions or dontAsk mode, --ci) and for a denial.
// `hook gemini` answers Gemini CLI's BeforeTool JSON: {} or
// {"decision":"deny","reason":…}; Gemini has no "ask". Input that is not
// the hook's JSON blocks the call with exit 2, the blocking status of both
// protocols. Every hook decision is a decision record (mode hook).
//
// CI: under GitHub Actions warnings and blocks are also printed (on stderr)
// as ::warning/::error workflow commands with the rule and, for a script,
// the file and line; with GITHUB_STEP_SUMMARY set, each command that ran or
// was held adds a row to a markdown table there (nested guards only when
// they hold).
//
// # Verdicts
//
// allow runs silently. warn runs and prints one line on stderr,
// "guard-exec: warning: RULE: message". hold does not run: at a terminal
// guard-exec asks once on /dev/tty; otherwise it exits 126 after a line
// naming the rule, a "hint:" line with a safer alternative, and the
// command a person can use to allow it once. deny never runs.
//
// # Exit codes
//
//	the command's own   what bash would have returned (128+N for a death by signal N)
//	126                 held or denied by guard-exec: the command did not run
//	125                 guard-exec itself failed: bad usage of guard-exec, no real
//	                    shell found, the ledger cannot record the command
//	2                   under a shim name, a bad shell option (as bash reports it)
//
// guard-exec check exits 0 for allow and warn, 126 for hold and deny, 125 for
// errors. guard-exec hook claude|gemini exits 0 with its answer on stdout,
// or 2 (the hook protocols' "block") when its input is not valid.
// guard-exec doctor and shim status exit 1 when something needs attention.
//
// # Limitations
//
// guard-exec sees only command lines that reach it. Programs that run
// /bin/sh or /bin/bash by absolute path (Python's subprocess with
// shell=True), programs that exec other programs directly, and an agent's
// own file tools (edit, write) never pass through a shell and are not
// checked; guard-exec doctor says so. Code the analysis cannot know — eval
// of a variable, a downloaded script — is reported as dynamic and held or
// warned about rather than followed. A login shell (-l) reads
// /etc/profile and ~/.bash_profile, which are not analysed. A script file
// is read twice, by the guard and then by bash; a file changed in between
// runs as changed. The runner removes BASH_ENV, ENV and exported functions
// from the command's environment, since no parse can see the code they
// carry, and adds GUARD_EXEC_PARENT so nested guards can record their
// parent.
//
// A script from a pipe is judged piece by piece, not whole: the pieces
// before a held statement may have run already. The interactive guard
// judges what the person typed, not the bodies of shell functions defined
// in their startup files, nor PROMPT_COMMAND; it runs a line with a
// warning when guard-exec itself cannot be started, so nobody is locked out
// of their shell; and `trap - DEBUG` turns it off. It is a guard for
// people at a terminal, not a boundary.
//
// When the ledger cannot record a command, the command does not run (exit
// 125): evidence is part of the contract, so the guard fails closed.
//
// # Privacy
//
// The ledger lives in the project (.guard-exec/, ignored by git) or under
// $XDG_STATE_HOME/guard-exec. It keeps the command line, the working
// directory, the verdict and rules, the exit status, the duration, sizes
// and SHA-256 hashes of the output streams, and a digest of the first and
// last 2 KiB of output. Command text and digests are redacted before they
// are written: tokens, keys, passwords in URLs and flags, and the values of
// environment variables whose names say they are secrets. Environment
// values are never stored; only the names of variables removed.
package main
