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
// --pty=auto|always|never, --mode=enforce|advise|audit, --timeout=DUR,
// --ci (never ask at a terminal; holds exit 126) and --strict (scrub
// credentials from the command's environment, as [env] strip_credentials).
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
// The command always runs without BASH_ENV, ENV and exported functions
// (BASH_FUNC_*), since no parse of the command line can see the code they
// carry. With --strict or strip_credentials it also runs without
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
// nested guards can record their parent. The boundary judges the paths a
// command names, resolved when it is checked: what a program decides to
// write by itself, a link the same command line creates and then writes
// through, and a secret copied to a file by one command and sent by a later
// one are not followed.
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
