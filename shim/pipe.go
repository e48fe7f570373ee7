package shim

import (
	"context"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// pipeOutputs is how the command's stdout and stderr reach the caller in pipe mode.
// Only a pipe or a socket is relayed, to be digested on the way; every other
// destination — a regular file, /dev/null, a terminal or another character device,
// a closed descriptor — is the command's own, as under bash, so /dev/stdout, seeks,
// terminal checks and write errors are bash's. A regular file is digested
// afterwards from the region the command wrote (fileStream).
type pipeOutputs struct {
	out, err           *copier  // nil when that stream is not relayed (or merged into out)
	childOut, childErr *os.File // what the command gets as 1 and 2 (nil: closed or /dev/null, see Spec)
	pipeOut, pipeErr   *os.File // the write ends of the relays' pipes, closed once the child has them
	outFile, errFile   *fileRegion
	merged             bool
}

// isRelayed reports whether output to f must go through a pipe to be observed: f is
// a pipe, a FIFO or a socket.
func isRelayed(f *os.File) bool {
	fd := rawFd(f)
	var st unix.Stat_t
	if fd < 0 || unix.Fstat(fd, &st) != nil {
		return false
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFIFO, unix.S_IFSOCK:
		return true
	}
	return false
}

// newPipeOutputs makes a relay per relayed stream, or ONE for both when the
// caller's stdout and stderr are the same pipe (2>&1): two pipes would be read by
// two goroutines and the lines would interleave differently than bash wrote them.
func newPipeOutputs(s *Spec) (*pipeOutputs, error) {
	o := &pipeOutputs{childOut: s.Stdout, childErr: s.Stderr}
	same := s.Stdout != nil && s.Stderr != nil && !s.Closed[1] && !s.Closed[2] && sameFile(s.Stdout, s.Stderr)
	var err error
	if !s.Closed[1] && isRelayed(s.Stdout) {
		if o.out, o.pipeOut, err = newCopier(s.Stdout, s.DigestBytes); err != nil {
			return nil, err
		}
		o.childOut = o.pipeOut
	} else if !s.Closed[1] {
		o.outFile = newFileRegion(s.Stdout)
	}
	switch {
	case same:
		o.merged = true
		o.childErr = o.childOut
	case !s.Closed[2] && isRelayed(s.Stderr):
		if o.err, o.pipeErr, err = newCopier(s.Stderr, s.DigestBytes); err != nil {
			o.closeAll()
			return nil, err
		}
		o.childErr = o.pipeErr
	case !s.Closed[2]:
		o.errFile = newFileRegion(s.Stderr)
	}
	return o, nil
}

// closeChildEnds closes the guard's copies of the relays' write ends once the child
// has its own, so that EOF arrives when the command's last writer exits.
func (o *pipeOutputs) closeChildEnds() {
	for _, f := range []*os.File{o.pipeOut, o.pipeErr} {
		if f != nil {
			f.Close()
		}
	}
}

func (o *pipeOutputs) closeAll() {
	o.closeChildEnds()
	for _, c := range []*copier{o.out, o.err} {
		if c != nil {
			c.discard()
		}
	}
}

func (o *pipeOutputs) start() {
	for _, c := range []*copier{o.out, o.err} {
		if c != nil {
			c.start()
		}
	}
}

func (o *pipeOutputs) results(r *Result, digestBytes int) {
	r.Merged = o.merged
	switch {
	case o.out != nil:
		r.Stdout = o.out.dig.stream()
	case o.outFile != nil:
		r.Stdout = o.outFile.stream(digestBytes)
	}
	switch {
	case o.err != nil:
		r.Stderr = o.err.dig.stream()
	case o.errFile != nil:
		r.Stderr = o.errFile.stream(digestBytes)
	}
}

// runPipe runs the command with the caller's stdin handed over as it is (the child
// reads the descriptor itself: EOF, partial reads and seeks behave as under bash),
// its output the caller's own or, for a pipe, observed through a relay.
//
// The command stays in the caller's process group (and so in its job, at a
// terminal: ^Z, fg, bg and `timeout -s KILL` reach it as they would reach bash),
// unless a timeout is set, which needs a group of its own to stop everything the
// command started.
func runPipe(ctx context.Context, s *Spec) (*Result, error) {
	outs, err := newPipeOutputs(s)
	if err != nil {
		return nil, err
	}
	l, done, err := s.command(s.Stdin, outs.childOut, outs.childErr)
	if err != nil {
		outs.closeAll()
		return nil, err
	}
	own := s.Timeout > 0
	l.sys = &syscall.SysProcAttr{Setpgid: own}
	p, err := startProc(l, own, s.Started, s.Start)
	done()
	outs.closeChildEnds()
	if err != nil {
		outs.closeAll()
		return nil, err
	}
	// From here signals are forwarded; one that came earlier killed the guard as
	// usual, and the command with it (Pdeathsig).
	defer subscribe(p.forward)()
	outs.start()
	res := &Result{}
	res.TimedOut = p.wait(ctx, s.limits())
	p.status(res)
	res.Incomplete = drain(s.OutputGrace, outs.out, outs.err)
	outs.results(res, s.DigestBytes)
	return res, nil
}
