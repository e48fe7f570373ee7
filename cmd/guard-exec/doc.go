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
// --pty=auto|always|never, --mode=enforce|advise|audit, --timeout=DUR,
// --ci (never ask at a terminal; holds exit 126; GITHUB_ACTIONS=true
// implies it) and --strict (scrub credentials from the command's
// environment, as [env] strip_credentials).
//
// Subcommand words (check, shim, …) are special only as the first argument
// to guard-exec under its own name and without a slash: guard-exec ./check
// runs the script named check, and under a shim name no word is special.
//
// The shim: `shim install` makes DIR/bash and DIR/sh symbolic links to the
// resolved guard-exec binary (default DIR: $XDG_DATA_HOME/guard-exec/shim,
// else ~/.local/share/guard-exec/shim) and prints the PATH and SHELL lines
// to use. An existing entry that is not guard-exec is never replaced. The
// real shell is bash under either name (as sh, bash is called sh and runs
// in POSIX mode), the next one on PATH that is not guard-exec: files are
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
// line: bash as sh reads no rcfile, and says so).
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
// # Boundary
//
// The project is the nearest directory above the working directory that
// holds .git, else the working directory — but a working directory that is
// no repository and is /, the home directory or above it, or a system
// directory is not a place writes are free. Writes are free in the
// project, $TMPDIR, /tmp, /var/tmp, /dev/shm, $RUNNER_TEMP, the user's
// caches (~/.cache, ~/go, GOCACHE, GOMODCACHE, ~/.npm, pnpm and yarn
// stores, ~/.cargo/registry and git, ~/.m2/repository, ~/.gradle/caches…)
// and the [boundary] allow_roots of the user and system configuration.
// The policy package's documentation says how every other write is judged.
//
// # Environment
//
// BASH_ENV, ENV and exported functions (BASH_FUNC_*) reach the command as
// they would reach bash: the analysis reads the startup file like a sourced
// file and judges an exported function where the command calls it, and a
// value bash would import that does not parse is held. With --strict or strip_credentials it also runs without
// variables whose names say they are secrets (*_TOKEN, *_SECRET, *_KEY,
// *PASSWORD*, *_CREDENTIALS, *_AUTH…; not PATH, PWD, SSH_AUTH_SOCK), without
// GIT_ASKPASS, SSH_ASKPASS*, SUDO_ASKPASS, VSCODE_GIT_*, GIT_TRACE*,
// GIT_CURL_VERBOSE, GCM_TRACE* and GIT_CONFIG_PARAMETERS, with
// GIT_TERMINAL_PROMPT=0, and with git's GIT_CONFIG_COUNT/KEY_n/VALUE_n group
// cut to its local sections (user, core without askpass/sshCommand/
// gitProxy, safe, init, color, diff, merge, pull, push…) and numbered from
// 0 again, so git still reads it: credential helpers, extra headers, url
// rewrites, remotes and aliases do not pass. The exec record lists what was
// removed, by name (a git setting as GIT_CONFIG(credential.helper)), never a
// value.
//
// # Verdicts
//
// allow runs silently. warn runs and prints one line on stderr,
// "guard-exec: warning: RULE: message". hold does not run: at a terminal
// guard-exec asks once on /dev/tty; otherwise it exits 126 after a line
// naming the rule, a "hint:" line with a safer alternative, and the
// command a person can use to allow it once. deny never runs.
//
// # Modes
//
// enforce (the default) blocks held and denied commands. advise lets them
// run with one warning line that names the rule and says "(advise mode:
// would be held)". audit prints nothing and blocks nothing, and records
// every verdict in the ledger as usual (the exec record's "enforce" field
// says audit; its rule hits keep their severities). The mode comes from
// --mode, else from the user or system configuration file — never from a
// project file, and never from an environment variable: an assignment in
// the command line (GUARD_EXEC_MODE=advise guard-exec -c …) is only part
// of the command.
//
// # Approvals
//
// "guard-exec approve ev-N" lets a held command run once. It refuses unless
// a person is there to answer: stdin and stderr must be terminals, /dev/tty
// must open, --ci must not be given, and neither it nor any process above
// it may be a command the guard runs (an ancestor is a guard announcing
// its command, nest.go, or a process a guarded command left running,
// lineage.go). It shows the held command (redacted), its directory and rule,
// asks [y/N] on /dev/tty, and records an approval that refers to the
// decision and expires after 15 minutes. When the agent retries the
// identical command (same canonical text) in the same directory, the guard
// finds the approval among the most recent records and runs the command
// once; the exec record refers to the approval, so decision → approval →
// run is one chain (and an approved hold counts as a false positive for
// hold precision). A second retry is held again. Denials cannot be
// approved. approve exits 0 when approved, 1 when the person says no, and
// 125 when it refuses.
//
// Two identical retries started at the same instant may both see the
// approval unused and both run; approvals are records in the ledger, so a
// program that writes the ledger file directly (not through the guard)
// could forge one. The ledger keeps only the first 32 KiB of a command, so
// approve refuses a longer one; it can be let through at the terminal
// prompt only.
//
// # Configuration
//
// Layers, weakest first: built-in defaults, /etc/guard-exec/config.toml,
// $XDG_CONFIG_HOME/guard-exec/config.toml (else ~/.config/…), and
// .guard-exec.toml at the project root. "guard-exec config init" writes a
// user file documenting every key; "config show [--json]" prints what is
// in effect and the file:line (or "default") each value comes from;
// "config check [FILE…]" prints each problem as FILE:LINE: message and
// exits 1 when there is one.
//
// The project file may only tighten: it may add rules, raise severities,
// lower loop.block_after, turn scrubbing on, shorten the timeout, keep more
// ledger. It cannot set mode, exempt rules, add allow roots or lower
// anything; each attempt is a warning naming the file and line, and is
// ignored. A key with a wrong type or a bad value is a warning and keeps
// the value of the layers below; a file that is not TOML, too large
// (1 MiB), not a regular file, unreadable, or (system and user layers)
// writable by every user is a warning and counts for nothing. So a broken
// file never leaves the guard weaker than its defaults. Warnings print on
// every command until the file is fixed — the person who broke it must
// notice — except in a nested guard, whose outer guard has printed them.
// A valid configuration prints nothing. The user layer is found through
// the $XDG_CONFIG_HOME and $HOME the guard is started with; a program that
// starts a nested guard with those changed chooses that guard's
// configuration (the guard around it has judged the command that did so).
//
// The guard reads its configuration on every command: three failed opens
// when there is no file, and about 15–40 µs to decode a typical one. User
// rules' examples are checked through the parser when a file is loaded;
// rules whose examples passed are remembered in
// $XDG_CACHE_HOME/guard-exec/checked-rules (keyed by the rule and the
// guard binary), so an unchanged file is not re-checked on every command.
// That cache can only skip a check: a forged entry could load a rule whose
// examples fail, which adds hits and never removes any.
// # Loop brake
//
// The Nth attempt of a command line that failed N-1 times in a row
// (loop.block_after, default 3; 0 turns it off) is held with rule
// loop-brake, like any hold: at a terminal a person is asked, otherwise it
// exits 126 and a person can approve it once. The rules, where the
// specification leaves them open:
//
//   - The fingerprint is the canonical command line (whitespace, comments
//     and quoting style do not matter, the words do) plus the working
//     directory. The session is GUARD_EXEC_SESSION, else the parent
//     process (its pid and start time).
//   - "In a row" counts the fingerprint's own attempts in the session:
//     other commands in between do not break the streak. An agent that
//     runs go test, reads a file, runs go test again is looping on go test.
//   - A success of the command resets the streak. So does anything that
//     could make the next attempt turn out differently: a change in the
//     project's files after the last failure (outside the failing runs
//     themselves, whose own writes — reports, caches, build output — do
//     not count), or another command since that ran and is not one that
//     only looks (cat, grep, ls, git status, go vet …: see policy.Observes).
//     An install, a started service, a killed process lifts the brake;
//     reading does not. A command that failed changed nothing and does not
//     lift it.
//   - An attempt with no exit record (its guard was killed, or it still
//     runs) and one stopped by SIGINT, SIGTERM, SIGHUP, SIGQUIT or SIGKILL
//     from outside counts neither way. One the guard's own --timeout
//     stopped is a failure: a command that hangs every time loops too.
//   - The change check walks the project (the git top level, or the
//     working directory) comparing inode change times, without entering
//     version control data, dependency trees and caches (node_modules,
//     vendor, target, .venv, …), the ledger or a temp dir inside it. It runs
//     only when a command is about to be held. A walk past 20,000 entries
//     asks git status about the rest of a repository; when that cannot
//     answer either, the project counts as changed: holding an agent that
//     did edit the code blocks work, while one more attempt of a loop only
//     costs that attempt.
//   - The lookup reads the session's last 24 commands from the end of the
//     ledger, at most 256 KiB, whatever the ledger holds.
//   - A nested guard (a shim inside a guarded command) is never braked: a
//     script's own retries are its business; the command that started it
//     is the one braked. guard-exec check judges a command alone and has no
//     brake.
//   - block_after = 1 acts as 2: nothing is held before it failed once.
//
// # Reading the ledger
//
//	guard-exec log [-n N] [--json] [--session S] [--failed] [--blocked]
//	guard-exec log --verify
//	guard-exec show [--json] [--replay [--speed X]] ev-N
//	guard-exec stats [--json]
//	guard-exec loops [--session S]
//
// All take --ledger DIR; by default they read the project's ledger
// (GUARD_EXEC_LEDGER_DIR overrides) and never create one. Each reads a
// bounded tail: log the last N commands (from the last 10,000 records
// when filtering), stats the last 10,000 records, loops the session's
// commands in the last 256 KiB. In stats, a hold a person approved counts
// against the guard: precision is the share of holds nobody approved.
// show --replay plays the asciicast transcript of a command run under a
// terminal, pauses capped at 2 s.
//
// # Exit codes
//
//	the command's own   what bash would have returned (128+N for a death by signal N,
//	                    also when --timeout kills it, which guard-exec then says)
//	1                   doctor, shim status, config check, log --verify: something
//	                    needs attention
//	2                   hook claude|gemini: the tool call is blocked (bad input, or a
//	                    usage error of the hook: a hook must fail closed); under a
//	                    shim name, a bad shell option (as bash reports it)
//	125                 guard-exec itself failed: bad usage of guard-exec, no real
//	                    shell found, the ledger cannot record the command
//	126                 held or denied by guard-exec: the command did not run; also a
//	                    file that may not be executed (guard-exec -- FILE), as bash
//	127                 the script or program named is not found, as bash; also a
//	                    word that looks like a misspelt subcommand (guard-exec lgo)
//
// guard-exec check exits 0 for allow and warn, 126 for hold and deny, 125 for
// errors. guard-exec log --verify exits 1 when it finds a problem; the
// commands that read the ledger exit 125 on errors (an unknown id, an
// unreadable ledger). guard-exec ship exits 0 when every record went, 1
// when the collector refused a batch or could not be reached (the rest
// stays for the next ship), 125 on its own errors (no endpoint, a header
// variable not set, an unreadable ledger). README's exit-code table is
// checked against these constants (errors.go) by a test.
//
// # Help
//
// Under its own name -h, --help and help print guard-exec's overview and
// --version its version; under the shim names they are bash's. Each
// subcommand is one entry of the command table (commands.go, help.go), from
// which NAME --help, help NAME, the overview, completion bash|zsh|fish and
// the man page (guard-exec man) are made. A misspelt subcommand, flag or own
// option gets a suggestion. guard-exec prints no colour; should it ever,
// NO_COLOR will turn it off.
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
// runs as changed; so is a BASH_ENV file. Nested guards find the guard
// around them by its announcement (nest.go), not by anything in the
// command's environment. The boundary judges the paths a command names, resolved when it
// is checked: what a program decides to write by itself, a link the same
// command line creates and then writes through, and a secret copied to a
// file by one command and sent by a later one are not followed.
//
// A script from a pipe is judged piece by piece, not whole: the pieces
// before a held statement may have run already. The interactive guard
// judges what the person typed, not the bodies of shell functions defined
// in their startup files, nor PROMPT_COMMAND; it runs a line with a
// warning when guard-exec itself cannot be started, so nobody is locked out
// of their shell; and `trap - DEBUG` turns it off. It is a guard for
// people at a terminal, not a boundary.
//
// The command sees what bash would: the caller's own stdin, and its own
// stdout and stderr unless they are a pipe or socket, which is relayed for
// the digest (a regular file is digested afterwards from the region
// written); it stays in the caller's process group; every signal sent to
// the guard reaches bash alone; and the guard dies by the signal bash died
// by. Under a name other than guard-exec (exec -a NAME) that name is bash's
// $0. One difference remains: a descriptor the guard was started with
// closed (`>&-`) reaches the command as /dev/null, because Go's runtime
// opens /dev/null on closed descriptors 0-2 before any of the guard's code
// runs. The command's environment is the caller's.
//
// A guard killed by SIGKILL takes everything its command started with it
// where it can make a cgroup v2 (keeper_linux.go, README "No orphans"): as
// root or in a delegated cgroup, on Linux, and once the command has run for
// 20 ms. Elsewhere on Linux the keeper keeps the guard's process tree and
// kills what it saw there (a process started since its last look whose
// parent died meanwhile runs on); on macOS a watchdog keeps the command's
// tree and process group the same way (keeper_darwin.go).
//
// When the ledger cannot record a command, the command does not run (exit
// 125): evidence is part of the contract, so the guard fails closed. The
// exception is a guard started inside a sandboxed command, whose ledger is
// read-only to it by design: it still judges and holds, and its commands
// run as part of the outer command's record. It knows it is inside from
// the outer guard's announcement (nest.go) with the kernel's no_new_privs
// flag; where no guard announces it (a process the command left running,
// after its guard ended) or the ledger's variables were lost with the rest
// of the environment (`env -i bash -c …`), on Linux, from the kernel's refusal of its ledger: a write the file
// system allows, refused with no_new_privs set (Landlock's EACCES, or
// EROFS on a read-only bind), unless its verdict counted on a sandbox of
// its own, which is not made then. A ledger that cannot be written for any
// other reason (modes, a file in the way, a full disk, a read-only root
// file system) still stops the command, with or without no_new_privs.
//
// The kernel sandbox ([sandbox] mode = "write" or "strict", sandbox.go and
// internal/sandbox) closes much of the above: whatever a command starts,
// and however it names its paths, it writes only inside the write roots,
// and never the ledger, guard-exec's files, git hooks and config or agent
// settings. It does not bound writes a daemon makes on the command's
// behalf, the agent's own file tools, reads, chmod/chown, or signals; hooks
// cannot sandbox at all. Sandboxed commands run with no_new_privs (sudo
// cannot elevate) and, as root, without CAP_SYS_PTRACE.
//
// When guard-exec is killed with SIGKILL, the process it started (bash, or
// the program bash replaced itself with) dies with it (a parent-death
// signal), and the ledger shows the command as interrupted: an exec record
// with no exit. Processes that command put in the background are not
// reached: when stdout is a pipe the guard relays, their next write to it
// fails, in pty mode the terminal hangs up on them (SIGHUP), and otherwise
// (output to a file, /dev/null or the caller's terminal) they live on, as
// they would had bash itself been killed. Reaching them would take a helper
// process between the guard and bash on every command, which would about
// double what the guard costs per command.
//
// # Privacy
//
// The ledger lives in the project (.guard-exec/, ignored by git) or under
// $XDG_STATE_HOME/guard-exec. It keeps the command line, the working
// directory, the verdict and rules, the exit status, the duration, sizes
// and SHA-256 hashes of the output streams (of their first bytes only, and
// labelled so, when hashing would have slowed a very fast reader), and a
// digest of the first and
// last 2 KiB of output. Command text and digests are redacted before they
// are written: tokens, keys, passwords in URLs and flags, and the values of
// environment variables whose names say they are secrets. Environment
// values are never stored; only the names of variables removed.
//
// guard-exec ship and log --format otlp send or print the records as
// stored, so what redaction removed is not in them; the output digest is
// not sent (its sizes and hashes are). Header values for the collector
// are read from the configuration or the environment when shipping and
// appear in requests only, never in a message, a cursor or a record; a
// project's .guard-exec.toml cannot set [export], so a repository cannot
// choose where its clones' evidence or their environment's secrets go.
package main
