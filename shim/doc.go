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
// In pipe mode the command gets the caller's stdin descriptor itself and a pipe for
// stdout and one for stderr (one pipe for both when they are the same file, so lines
// keep their order). A goroutine per pipe forwards to the caller's file with
// splice(2), after duplicating each chunk with tee(2) into a pipe that another
// goroutine reads for a bounded digest (length, SHA-256, first and last
// Spec.DigestBytes); so the bytes pass kernel-side and hashing runs beside the
// forwarding. A destination that refuses splice (a terminal, a file opened with
// O_APPEND) gets read and write instead. Hashing never holds the output back by more
// than 5% of the time it takes: past the first 16 MiB, if waiting for the hash costs
// more, it is given up and Stream.Hashed says how many bytes SHA256 covers (the
// ledger then records sha256_prefix and hashed instead of sha256); Bytes, Head and
// Tail stay exact. A reader slower than SHA-256 runs (an agent, a terminal, a log
// being written) never makes it wait. Both pipes of a stream grow to 1 MiB once it
// has passed 1 MiB, so big outputs move in big chunks.
//
// In pty mode the command runs in a new session on a pseudo-terminal; the outer
// terminal is raw while it runs, so keys such as ^C and ^Z reach the command's line
// discipline, and is restored on every way out. Output is recorded as an asciicast v2
// transcript as well as digested. stdin that is not a terminal is handed over
// directly, never through the pty.
//
// # Process groups and signals
//
// The command leads its own process group, and SIGINT, SIGTERM, SIGHUP and SIGQUIT
// sent to the guard are forwarded to that group. One exception, in pipe mode: when
// the guard has a controlling terminal (an agent's TUI running it, or a person at a
// shell) and no timeout is set, the command stays in the guard's group, as it would
// under bash; in a group of its own it would not be part of the guard's job, and be
// stopped by SIGTTIN at its first read of the terminal (sudo's password prompt).
// The terminal then signals both directly, and only SIGTERM is forwarded, to the
// command alone.
//
// The child has Pdeathsig SIGKILL, so it dies when the guard dies, even by SIGKILL.
// Grandchildren cannot be reached that way; they are killed with the group on a
// timeout and, in pty mode, when they keep the pty open after the command exited.
// The guard does not make itself a child subreaper: orphans of the command are
// re-parented as they would be under bash, and a command whose background jobs are
// meant to outlive it (`server &`) keeps working.
//
// Everything the command wrote before it exited is delivered, however slowly the
// caller reads. Background processes that still hold its stdout afterwards get
// Spec.OutputGrace; then, in pipe mode, the guard stops reading and their next
// write fails with EPIPE (under bash alone they would have gone on writing to the
// caller's stdout), and in pty mode their process group is killed.
//
// Signals are listened to once per process (see Run), by a relay that hands them to
// the Runs in progress.
//
// # Limitations
//
// Linux only (Pdeathsig, pty and termios handling). Signals the guard inherited as
// ignored reach the command still ignored only for SIGHUP and SIGINT: the Go runtime
// installs its own handlers for the others, and a handler, unlike SIG_IGN, is reset
// by exec. In pipe mode the command's stdout and stderr are pipes even when the
// caller's are files or a terminal, which some programs notice: `grep … > out` no
// longer warns that the input file is also the output, programs that seek on stdout
// cannot, and a terminal stderr next to a redirected stdout (`git clone … > log`)
// loses progress output that only shows on a terminal.
package shim
