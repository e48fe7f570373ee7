// Command floor is the cheapest Go program that stands in for a shell: it
// finds bash on PATH, starts it with its own arguments and the caller's
// stdio, waits, and exits with its status. Nothing else. scripts/bench.sh
// measures guard-exec against it: the difference is what guard-exec's own
// work (analysis, rules, ledger) costs per command, separated from the cost
// every Go interposer pays to start a runtime and a child.
//
// With FLOOR_RELAY=1 in the environment it also stands in the output
// stream, as guard-exec must to see it: bash writes into a pipe and floor
// moves each chunk on to its own stdout with splice(2) on Linux, the
// cheapest relay there is (no copy through its memory, nothing observed),
// and with read and write elsewhere. That is the
// throughput floor of any interposer in the stream.
//
// With GUARD_EXEC_TRACE_FD naming an inherited pipe it writes, as
// guard-exec does, one line of stage timestamps when it exits (main,
// invocation = bash found, run = bash waited for, exit), for the bench's
// per-stage comparison.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

func main() {
	startTrace()
	bash, err := exec.LookPath("bash")
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(125)
	}
	mark("invocation")
	c := exec.Command(bash, os.Args[1:]...)
	c.Args[0] = "bash"
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	if os.Getenv("FLOOR_RELAY") == "1" {
		err = runRelayed(c)
	} else {
		err = c.Run()
	}
	mark("run")
	mark("exit")
	flushTrace()
	var ee *exec.ExitError
	switch {
	case err == nil:
		os.Exit(0)
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			os.Exit(128 + int(ws.Signal()))
		}
		os.Exit(ee.ExitCode())
	}
	fmt.Fprintln(os.Stderr, "floor:", err)
	os.Exit(125)
}

// The stage trace: the same line format as guard-exec's (its trace.go).
var (
	traceFD    = -1
	traceLine  = []byte("trace")
	traceUsage syscall.Rusage
)

func startTrace() {
	fd, err := strconv.Atoi(os.Getenv("GUARD_EXEC_TRACE_FD"))
	if err != nil || fd < 3 {
		return
	}
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return
	}
	traceFD = fd
	mark("main")
}

func mark(stage string) {
	if traceFD < 0 {
		return
	}
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &traceUsage)
	b := append(traceLine, ' ')
	b = append(b, stage...)
	b = append(b, '=')
	b = strconv.AppendInt(b, time.Now().UnixNano(), 10)
	b = append(b, '/')
	traceLine = strconv.AppendInt(b, traceUsage.Utime.Nano()+traceUsage.Stime.Nano(), 10)
}

func flushTrace() {
	if traceFD >= 0 {
		_, _ = syscall.Write(traceFD, append(traceLine, '\n'))
	}
}
