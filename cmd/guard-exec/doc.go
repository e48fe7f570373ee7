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
// # Exit codes
//
//	the command's own   what bash would have returned (128+N for a death by signal N)
//	126                 held or denied by guard-exec: the command did not run
//	125                 guard-exec itself failed: bad usage of guard-exec, no real
//	                    shell found, the ledger cannot record the command
//	2                   under a shim name, a bad shell option (as bash reports it)
//
// guard-exec check exits 0 for allow and warn, 126 for hold and deny, 125 for
// errors.
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
