package shim

import (
	"context"
	"os"
	"syscall"
)

// pipeOutputs is how the command's stdout and stderr reach the caller in pipe mode.
type pipeOutputs struct {
	out, err           *copier  // err is nil when merged
	childOut, childErr *os.File // write ends given to the command (nil: /dev/null)
	merged             bool
}

// newPipeOutputs makes one pipe per stream, or ONE pipe for both when the caller's
// stdout and stderr are the same file (2>&1): two pipes would be read by two
// goroutines and the lines would interleave differently than bash wrote them.
func newPipeOutputs(s *Spec) (*pipeOutputs, error) {
	o := &pipeOutputs{merged: s.Stdout != nil && s.Stderr != nil && sameFile(s.Stdout, s.Stderr)}
	var err error
	if s.Stdout != nil {
		if o.out, o.childOut, err = newCopier(s.Stdout, s.DigestBytes); err != nil {
			return nil, err
		}
	}
	switch {
	case o.merged:
		o.childErr = o.childOut
	case s.Stderr != nil:
		if o.err, o.childErr, err = newCopier(s.Stderr, s.DigestBytes); err != nil {
			o.closeAll()
			return nil, err
		}
	}
	return o, nil
}

// closeChildEnds closes the guard's copies of the write ends once the child has its
// own, so that EOF arrives when the command's last writer exits.
func (o *pipeOutputs) closeChildEnds() {
	for _, f := range []*os.File{o.childOut, o.childErr} {
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

func (o *pipeOutputs) results(r *Result) {
	r.Merged = o.merged
	if o.out != nil {
		r.Stdout = o.out.dig.stream()
	}
	if o.err != nil {
		r.Stderr = o.err.dig.stream()
	}
}

// runPipe runs the command with the caller's stdin handed over as it is (the child
// reads the descriptor itself: EOF, partial reads and seeks behave as under bash)
// and its output observed through pipes.
func runPipe(ctx context.Context, s *Spec) (*Result, error) {
	outs, err := newPipeOutputs(s)
	if err != nil {
		return nil, err
	}
	c := s.command()
	c.Stdin, c.Stdout, c.Stderr = reader(s.Stdin), writer(outs.childOut), writer(outs.childErr)
	own := s.Timeout > 0 || !sharedGroup(s.Stdin, s.Stdout, s.Stderr)
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: own, Pdeathsig: syscall.SIGKILL}

	p, err := startProc(c, own, s.Started, s.Start)
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
	outs.results(res)
	return res, nil
}
