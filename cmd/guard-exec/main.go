//go:debug updatemaxprocs=0
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"

	"github.com/guard-exec/guard-exec/internal/tzdefer"
	"github.com/guard-exec/guard-exec/shim"
)

func main() {
	// The runtime samples allocations for a heap profile nobody reads:
	// every 512 KiB it walks the stack, a few of which each command pays.
	runtime.MemProfileRate = 0
	os.Exit(mainStatus())
}

// mainStatus is the program on the process's own arguments and streams; it
// returns the exit status, or ends the process by the signal the command died by.
func mainStatus() int {
	tzdefer.Restore() // before anything reads the environment
	if len(os.Args) == 2 && os.Args[1] == shim.RelayArg {
		return shim.RelayMain() // the rest of a background job's output (shim/relay.go)
	}
	if len(os.Args) >= 3 && len(os.Args) <= 4 && os.Args[1] == keeperArg {
		return keeperMain(os.Args[2]) // ends the command if the guard dies (keeper_linux.go, keeper_darwin.go)
	}
	env := os.Environ()
	startTrace(env) // trace.go
	st := &stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}
	err := run(context.Background(), os.Args, env, st)
	flushTrace()
	var se statusError
	if errors.As(err, &se) && se.signal != 0 {
		shim.DieBy(se.signal) // as bash did; returns only if the signal did not end us
	}
	return exitCode(err, st)
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
