package main

import (
	"os"
	"syscall"
	"time"

	"github.com/creack/pty"
)

// runTTY runs v with a fresh pseudo-terminal as its stdin, stdout, stderr
// and controlling terminal, as a person's shell would, and drains the
// master until the terminal hangs up (EIO once the last holder of the
// slave is gone).
func (v *variant) runTTY() (sample, error) {
	master, slave, err := pty.Open()
	if err != nil {
		return sample{}, err
	}
	defer master.Close()
	_ = pty.Setsize(master, &pty.Winsize{Rows: 24, Cols: 80})
	drained := make(chan int64, 1)
	go func() { drained <- drain(master) }()
	start := time.Now()
	p, err := os.StartProcess(v.argv[0], v.argv, &os.ProcAttr{
		Dir: v.dir, Env: v.env, Files: []*os.File{slave, slave, slave},
		Sys: &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0},
	})
	slave.Close()
	if err != nil {
		return sample{}, err
	}
	return finish(v, p, start, drained)
}

type exitErr struct {
	name string
	st   *os.ProcessState
}

func (e *exitErr) Error() string { return e.name + ": " + e.st.String() }
