// Package shim stands in for a shell: it reads a command line the way bash reads its
// own options, finds the real shell further along PATH, and runs a command with it so
// that the caller cannot tell the guard was there — same bytes on stdout and stderr,
// same exit status, same behaviour at a terminal — while observing the output for
// the evidence ledger.
//
// # Invocation
//
// ParseInvocation implements bash 5.2's option grammar (shell.c): GNU long options
// first (also with one dash: -login), then groups of short options starting with '-'
// or '+', where -o and -O take the next argument after the group, then operands. With
// -c the script is the first operand, wherever -c was (`bash -c -l cmd`, `bash -lc
// cmd`). Argv rebuilds an argv for the real shell from the parsed form, so the guard
// analyses exactly the script the real shell will run.
//
// # Running
//
// Run picks pipe mode or pty mode (Spec.PTY).
//
// In pipe mode the command gets the caller's own descriptors wherever observing them
// is not needed: stdin always, and stdout and stderr when they are a regular file,
// /dev/null, a terminal or another character device, so /dev/stdout, seeks,
// truncation, terminal checks ([ -t 2 ]), write errors (>/dev/full) and background
// writers behave exactly as under bash. A regular file is digested afterwards from
// the region the command wrote (fileregion.go); the others are not observed.
//
// Only a pipe or a socket (an agent's stdout) is relayed, through a pipe of the
// guard's: one for stdout and one for stderr (one for both when they are the same
// file, so lines keep their order). A goroutine per pipe forwards to the caller's
// file with splice(2), after duplicating each chunk with tee(2) into a pipe that
// another goroutine reads for a bounded digest (length, SHA-256, first and last
// Spec.DigestBytes); so the bytes pass kernel-side and hashing runs beside the
// forwarding. A destination that refuses splice gets read and write instead.
// Hashing never holds the output back by more than 5% of the time it takes: past
// the first 16 MiB, if waiting for the hash costs more, it is given up and
// Stream.Hashed says how many bytes SHA256 covers; Bytes, Head and Tail stay exact.
// Both pipes of a stream grow to 1 MiB once it has passed 1 MiB. A reader that went
// away closes the relay, so the command's next write fails with EPIPE as it would
// have.
//
// In pty mode the command runs in a new session on a pseudo-terminal; the outer
// terminal is raw while it runs, so keys such as ^C and ^Z reach the command's line
// discipline, and is restored on every way out. Output is recorded as an asciicast v2
// transcript as well as digested. stdin that is not a terminal is handed over
// directly, never through the pty.
//
// # Process groups and signals
//
// In pipe mode the command stays in the caller's process group and session, as
// bash would be: at a terminal it is part of the caller's job (^Z, fg, bg, reads of
// the terminal), and `timeout -s KILL`, which kills its own group, reaches
// everything. Only a timeout (Spec.Timeout) gives it a group of its own, for the
// guard to stop. In pty mode it leads a new session on the pty.
//
// Every catchable signal a caller sends to bash — INT, TERM, HUP, QUIT, USR1,
// USR2, ALRM — is forwarded to bash alone, never its group, so its traps run and
// its background jobs fare as under bash. A terminal's INT, QUIT and HUP are not
// forwarded while the command shares the terminal's foreground group: the kernel
// gave bash its own copy. In pty mode SIGTSTP sent to the guard stops the
// command's job, and the guard follows it into the stop; SIGCONT resumes both.
// When the command dies by a signal, the guard's caller sees the same death
// (DieBy): default disposition restored, no core dump.
//
// The child has Pdeathsig SIGKILL, so it dies when the guard dies, even by SIGKILL
// (Linux and FreeBSD; macOS has no parent-death signal). Its descendants are the
// caller's to end (guard-exec's keeper_linux.go, which moves them into a cgroup of
// their own once the command has run a while). Background jobs meant to outlive a
// command that ended normally (`server &`) keep working.
//
// Everything the command wrote before it exited is delivered, however slowly the
// caller reads. Background processes that still hold a relayed pipe afterwards get
// Spec.OutputGrace to finish; then the rest of the stream is handed to a relay
// process that outlives the guard (relay.go), so they go on writing and the
// caller sees end of file when the last of them closes it, as under bash. In pty
// mode their process group is killed.
//
// Signals are listened to once per process (see Run), by a relay that hands them to
// the Runs in progress.
//
// # Limitations
//
// Built and tested on Linux. macOS and FreeBSD build: there the relay forwards by
// read and write instead of splice and tee (copy_rw.go), DieBy execs a shell that
// kills itself (die_exec.go), a stopped command is seen through sysctl (macOS) or
// wait6 (FreeBSD), and the guard follows it into the stop with SIGSTOP. The relay
// and DieBy paths run in the Linux tests too; the rest, and everything there, has
// not run. Signals the guard inherited as ignored reach the command still ignored
// only for the signals it does not listen to: the Go runtime installs its own handlers for the others, and a handler,
// unlike SIG_IGN, is reset by exec. A relayed stdout is a pipe the caller did not
// make: its inode differs from the caller's (readlink /proc/self/fd/1 shows another
// pipe). A `kill -INT` of the guard's pid while it shares a terminal's foreground
// group is taken for the terminal's ^C and not forwarded (Go's signal API gives no
// sender). A descriptor the guard was started with closed reaches the command as
// /dev/null: Go's runtime opens /dev/null on closed descriptors 0-2 before any of
// the guard's code runs, so `guard-exec -c 'echo hi' >&-` succeeds where bash
// reports a write error.
package shim
