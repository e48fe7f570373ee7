package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
)

func main() {
	// The runtime samples allocations for a heap profile nobody reads:
	// every 512 KiB it walks the stack, a few of which each command pays.
	runtime.MemProfileRate = 0
	env := os.Environ()
	startTrace(env) // trace.go
	st := &stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}
	code := exitCode(run(context.Background(), os.Args, env, st), st)
	flushTrace()
	os.Exit(code)
}

// exitCode maps run's error to the process status: a command's own status
// passes through, guard-exec's own failures are 125.
func exitCode(err error, st *stdio) int {
	if err == nil {
		return 0
	}
	var ec interface{ ExitCode() int }
	if errors.As(err, &ec) {
		return ec.ExitCode()
	}
	fmt.Fprintf(st.err, "guard-exec: error: %v\n", err)
	return exitGuardFailed
}
