package main

import (
	"strconv"
	"syscall"
	"time"
)

// envTraceFD names a descriptor, inherited open on a pipe, that receives
// one line of stage timestamps when guard-exec exits: what scripts/bench.sh
// reads to split the cost of a fresh process into its stages (start-up,
// invocation, analysis, config, decision, ledger, run, exit). The line is
//
//	trace main=<unix ns>/<cpu ns> invocation=… … exit=…
//
// each stage with the wall clock when it ended and the process's CPU time
// (user+system, all threads) by then. Only a pipe is accepted, checked when
// guard-exec starts and before it opens anything of its own, so the
// variable cannot make guard-exec write into a file or into one of its own
// descriptors: it adds nothing a command could not do with the same
// inherited descriptor. Unset, each stage costs one nil check.
const envTraceFD = "GUARD_EXEC_TRACE_FD"

// stageTrace is the stages marked so far.
type stageTrace struct {
	fd    int
	n     int
	names [16]string
	wall  [16]int64
	cpu   [16]int64
}

// trace is the process's stage trace, nil unless envTraceFD names a pipe.
var trace *stageTrace

// startTrace enables the trace when the environment asks for it and the
// descriptor is a pipe, and marks "main".
func startTrace(env []string) {
	var v string
	for _, kv := range env {
		if len(kv) > len(envTraceFD) && kv[len(envTraceFD)] == '=' && kv[:len(envTraceFD)] == envTraceFD {
			v = kv[len(envTraceFD)+1:]
		}
	}
	if v == "" {
		return
	}
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return
	}
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return
	}
	trace = &stageTrace{fd: fd}
	mark("main")
}

// mark records the end of a stage.
func mark(stage string) {
	t := trace
	if t == nil || t.n == len(t.names) {
		return
	}
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	t.names[t.n] = stage
	t.wall[t.n] = time.Now().UnixNano()
	t.cpu[t.n] = ru.Utime.Nano() + ru.Stime.Nano()
	t.n++
}

// flushTrace marks "exit" and writes the line; errors are ignored (the
// reader went away).
func flushTrace() {
	t := trace
	if t == nil {
		return
	}
	mark("exit")
	b := []byte("trace")
	for i := 0; i < t.n; i++ {
		b = append(b, ' ')
		b = append(b, t.names[i]...)
		b = append(b, '=')
		b = strconv.AppendInt(b, t.wall[i], 10)
		b = append(b, '/')
		b = strconv.AppendInt(b, t.cpu[i], 10)
	}
	b = append(b, '\n')
	_, _ = syscall.Write(t.fd, b)
	trace = nil
}
