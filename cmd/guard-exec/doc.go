// Command guard-exec stands in for the shell of AI coding agents and CI
// jobs. Every command line reaches it first: it is parsed (never matched as
// raw text), judged by rules — risky patterns, a loop brake, a path
// boundary — run with the real bash when the verdict allows, and recorded
// in an append-only ledger.
//
// # Ways in
//
//	guard-exec -c 'CMD' [ARG0 ARGS…]   bash's own options: -c anywhere, -l, -i, -e, -u, -x, -o opt, clusters
//	bash / sh (PATH shim)             dispatch on argv[0]; strictly that shell
//	guard-exec SCRIPT [ARGS…]          the whole file is judged before any line runs
//	guard-exec -- PROG [ARGS…]         one simple command, run without a shell
//	guard-exec check …                 decide, never run
//
// Under its own name guard-exec also accepts, before the shell's options:
// --pty=auto|always|never, --mode=enforce|advise|audit, --timeout=DUR and
// --ci (never ask at a terminal; holds exit 126).
//
// # Verdicts
//
// allow runs silently. warn runs and prints one line on stderr,
// "guard-exec: warning: RULE: message". hold does not run: at a terminal
// guard-exec asks once on /dev/tty; otherwise it exits 126 after a line
// naming the rule, a "hint:" line with a safer alternative, and the
// command a person can use to allow it once. deny never runs.
//
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
//	the command's own   what bash would have returned (128+N for a death by signal N)
//	126                 held or denied by guard-exec: the command did not run
//	125                 guard-exec itself failed: bad usage of guard-exec, no real
//	                    shell found, the ledger cannot record the command
//	2                   under a shim name, a bad shell option (as bash reports it)
//
// guard-exec check exits 0 for allow and warn, 126 for hold and deny, 125 for
// errors. guard-exec log --verify exits 1 when it finds a problem; the
// commands that read the ledger exit 125 on errors (an unknown id, an
// unreadable ledger).
//
// # Limitations
//
// guard-exec sees only command lines that reach it. Programs that run
// /bin/sh by absolute path, programs that exec other programs directly,
// and an agent's own file tools (edit, write) never pass through a shell
// and are not checked. Interactive use (bash at a terminal with no script)
// runs the real shell without checking each line. Code the analysis cannot
// know — eval of a variable, a downloaded script — is reported as dynamic
// and held or warned about rather than followed. The runner removes
// BASH_ENV, ENV and exported functions from the command's environment,
// since no parse can see the code they carry, and adds GUARD_EXEC_PARENT so
// nested guards can record their parent.
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
