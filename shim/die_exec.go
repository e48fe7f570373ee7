package shim

import (
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// dieShell is the shell dieByExec becomes.
const dieShell = "/bin/sh"

// dieByExec ends the process by sig without touching the Go runtime's signal
// handlers: it execs a shell in its place, same pid, and the shell kills itself.
// exec resets every caught signal to its default action, which the runtime's
// handlers are not. Core dumps are switched off first, as the core was the
// command's to leave. If the signal does not end the shell (SIGCHLD, a stop, a
// signal the caller left blocked) the shell exits with 128+sig, as bash's caller
// would have seen. dieByExec returns only when the exec failed. It is how DieBy
// works where there is no sigaction to call (macOS, the BSDs); the Linux build
// has it for its tests.
func dieByExec(sig syscall.Signal) {
	_ = unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{})
	name := strings.TrimPrefix(unix.SignalName(sig), "SIG")
	if name == "" {
		return
	}
	script := "kill -s " + name + " $$; exit " + strconv.Itoa(128+int(sig))
	_ = syscall.Exec(dieShell, []string{"sh", "-c", script}, []string{"PATH=/usr/bin:/bin"})
}
