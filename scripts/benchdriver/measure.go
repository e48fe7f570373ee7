package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"syscall"
	"time"
)

// A variant is one program to time: what runs, where, with which stdio.
type variant struct {
	name  string
	argv  []string
	dir   string
	env   []string
	stdin string // a file for stdin; "" is /dev/null

	// out, when set, makes stdout (and stderr) the write end of a pipe that
	// the driver drains itself, counting bytes; otherwise they are
	// /dev/null.
	out bool
	// tty runs the program on a fresh pseudo-terminal (stdin, stdout and
	// stderr), drained by the driver.
	tty bool
	// wantExit is the exit status that counts as success.
	wantExit int
	// trace hands the program a pipe as descriptor 3, named by
	// GUARD_EXEC_TRACE_FD, and reads the stage line it writes at exit
	// (stages.go).
	trace bool
}

// sample is one run. cpu is user+system time of the process and of every
// descendant it waited for (wait4's rusage), so it counts bash too; it is
// the figure that stays stable on a loaded machine, where wall time does
// not. maxRSS is the largest resident set among them (KiB from the
// kernel, stored in bytes).
type sample struct {
	wall, cpu time.Duration
	maxRSS    int64
	bytes     int64 // output drained (out and tty variants)
	stages    []stage
}

// run starts v once and waits for it and for its output.
func (v *variant) run() (sample, error) {
	if v.tty {
		return v.runTTY()
	}
	stdin, err := openStdin(v.stdin)
	if err != nil {
		return sample{}, err
	}
	defer stdin.Close()
	out, drained, closeOut, err := v.output()
	if err != nil {
		return sample{}, err
	}
	files, env := []*os.File{stdin, out, out}, v.env
	var traceR, traceW *os.File
	if v.trace {
		if traceR, traceW, err = os.Pipe(); err != nil {
			return sample{}, err
		}
		defer traceR.Close()
		files, env = append(files, traceW), append(append([]string(nil), env...), "GUARD_EXEC_TRACE_FD=3")
	}
	start := time.Now()
	p, err := os.StartProcess(v.argv[0], v.argv, &os.ProcAttr{
		Dir: v.dir, Env: env, Files: files,
		Sys: &syscall.SysProcAttr{Setsid: true}, // no controlling terminal, wherever bench.sh runs
	})
	closeOut()
	if traceW != nil {
		traceW.Close()
	}
	if err != nil {
		return sample{}, err
	}
	s, err := finish(v, p, start, drained)
	if err == nil && traceR != nil {
		line, _ := io.ReadAll(traceR)
		if s.stages, err = parseTrace(string(line), start, s.wall); err != nil {
			err = fmt.Errorf("%s: %w", v.name, err)
		}
	}
	return s, err
}

func openStdin(name string) (*os.File, error) {
	if name == "" {
		name = os.DevNull
	}
	return os.Open(name)
}

// output returns the file for the child's stdout and stderr, a channel that
// yields the number of bytes drained once the output ended, and a function
// that closes the driver's copy of the child's end.
func (v *variant) output() (*os.File, <-chan int64, func(), error) {
	done := make(chan int64, 1)
	if !v.out {
		f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			return nil, nil, nil, err
		}
		done <- 0
		return f, done, func() { f.Close() }, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	go func() {
		done <- drain(r)
		r.Close()
	}()
	return w, done, func() { w.Close() }, nil
}

// drain reads r to its end the way cat does (128 KiB reads) and counts.
func drain(r io.Reader) int64 {
	buf := make([]byte, 128<<10)
	var n int64
	for {
		m, err := r.Read(buf)
		n += int64(m)
		if err != nil {
			return n
		}
	}
}

func fillUsage(s *sample, st *os.ProcessState) {
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		s.maxRSS = ru.Maxrss << 10
	}
}

// series are the samples of one variant.
type series struct {
	v       *variant
	samples []sample
}

// interleave runs every variant once per round, rotating the order each
// round so that none always runs first or after the same neighbour, for
// warm+rounds rounds, and keeps the last rounds. Interleaving makes slow
// drifts of the machine's load hit every variant alike.
func interleave(vs []*variant, warm, rounds int) ([]*series, error) {
	out := make([]*series, len(vs))
	for i, v := range vs {
		out[i] = &series{v: v}
	}
	for r := 0; r < warm+rounds; r++ {
		for k := range vs {
			i := (k + r) % len(vs)
			s, err := vs[i].run()
			if err != nil {
				return nil, err
			}
			if r >= warm {
				out[i].samples = append(out[i].samples, s)
			}
		}
	}
	return out, nil
}

func (s *series) walls() []time.Duration {
	return pick(s.samples, func(x sample) time.Duration { return x.wall })
}
func (s *series) cpus() []time.Duration {
	return pick(s.samples, func(x sample) time.Duration { return x.cpu })
}

func pick(ss []sample, f func(sample) time.Duration) []time.Duration {
	out := make([]time.Duration, len(ss))
	for i, s := range ss {
		out[i] = f(s)
	}
	return out
}

// diffs are the per-round differences a−b: paired, so that a round the
// machine was busy for weighs on both sides.
func diffs(a, b []time.Duration) []time.Duration {
	out := make([]time.Duration, min(len(a), len(b)))
	for i := range out {
		out[i] = a[i] - b[i]
	}
	return out
}

func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[int(q*float64(len(s)-1)+0.5)]
}

func median(ds []time.Duration) time.Duration { return quantile(ds, 0.5) }

func medianInt(xs []int64) int64 {
	s := append([]int64(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// ms formats a duration in milliseconds, with a sign when asked.
func ms(d time.Duration, sign bool) string {
	f := float64(d) / float64(time.Millisecond)
	if sign {
		return fmt.Sprintf("%+.2f ms", f)
	}
	return fmt.Sprintf("%.2f ms", f)
}

func us(d time.Duration) string { return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond)) }

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func quoteArgv(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		if i == 0 {
			a = baseName(a)
		}
		if strings.ContainsAny(a, " '\"$;|&<>") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts[i] = a
	}
	return strings.Join(parts, " ")
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// finish waits for a started run and makes its sample: wall time from
// start, the bytes the drainer counted, the rusage wait4 reported. An exit
// status other than the variant's expected one is an error.
func finish(v *variant, p *os.Process, start time.Time, drained <-chan int64) (sample, error) {
	st, err := p.Wait()
	if err != nil {
		return sample{}, err
	}
	n := <-drained
	s := sample{wall: time.Since(start), bytes: n}
	fillUsage(&s, st)
	if st.ExitCode() != v.wantExit {
		return s, &exitErr{v.name, st}
	}
	return s, nil
}
