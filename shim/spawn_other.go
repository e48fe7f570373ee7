//go:build !linux

package shim

import (
	"os"
	"syscall"
	"time"
)

// child is the started command's process (spawn_linux.go says why Linux
// starts it otherwise).
type child struct {
	pid int
	p   *os.Process
}

// spawn starts path with os.StartProcess.
func spawn(path string, argv []string, attr *os.ProcAttr) (*child, error) {
	p, err := os.StartProcess(path, argv, attr)
	if err != nil {
		return nil, err
	}
	return &child{pid: p.Pid, p: p}, nil
}

// signal sends sig to the process, never once it has been reaped.
func (c *child) signal(sig syscall.Signal) error { return c.p.Signal(sig) }

// exitWithin cannot wait for the process without reaping it here: ok is
// always false.
func (c *child) exitWithin(time.Duration) (exited, ok bool) { return false, false }

// wait waits for the process to exit and reaps it.
func (c *child) wait() (syscall.WaitStatus, bool) {
	st, _ := c.p.Wait()
	if st == nil {
		return 0, false
	}
	ws, ok := st.Sys().(syscall.WaitStatus)
	return ws, ok
}
