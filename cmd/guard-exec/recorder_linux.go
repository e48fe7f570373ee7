package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// canSupervise reports whether the interactive shell of sandbox sb can
// run as this guard's child with the recorder outside: Landlock, which
// restricts only the thread that starts the shell.
func canSupervise(sb *sandboxRun) bool {
	return sb != nil && !sb.inherited && sb.spec != nil && sb.mech == "landlock"
}

// peerIsHook reports whether the process at the other end of c is a
// guard-exec hook of this shell: this user, this executable, below the
// shell.
func peerIsHook(c *net.UnixConn, shell int) bool {
	if shell <= 0 {
		return false
	}
	raw, err := c.SyscallConn()
	if err != nil {
		return false
	}
	var cred *unix.Ucred
	if raw.Control(func(fd uintptr) {
		cred, err = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}) != nil || err != nil {
		return false
	}
	if int(cred.Uid) != os.Getuid() || !sameExecutable(int(cred.Pid)) {
		return false
	}
	pid := int(cred.Pid)
	for range 64 {
		next, ok := parentProcess(pid)
		if !ok || next <= 1 {
			return false
		}
		if next == shell {
			return true
		}
		pid = next
	}
	return false
}

// superviseShell runs the interactive shell in the sandbox as this
// guard's child, records for its hook while it runs, and ends as it
// ended. The shell has the terminal: it puts itself in a process group of
// its own and takes the foreground, as a job-control shell does, and gives
// the terminal back as it exits. The guard only waits: ^C, ^\ and ^Z reach
// it only when sent to it by name, and do nothing to it; a hangup or
// SIGTERM is passed on to the shell, which passes a hangup on to its jobs.
// If the guard is killed the shell gets a hangup (Pdeathsig), as when its
// terminal closes. The rcfile reaches the shell as descriptor 3.
func (g *guard) superviseShell(sb *sandboxRun, rec *shellRecorder, real string, argv []string, rc *os.File) error {
	defer rec.close()
	c := &exec.Cmd{Path: real, Args: argv, Env: g.childEnv(),
		Stdin: g.st.in, Stdout: g.st.out, Stderr: g.st.err, ExtraFiles: []*os.File{rc},
		SysProcAttr: &syscall.SysProcAttr{Pdeathsig: syscall.SIGHUP}}
	sigs := make(chan os.Signal, 8)
	for _, s := range []os.Signal{syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTSTP, syscall.SIGTTIN,
		syscall.SIGTTOU, syscall.SIGHUP, syscall.SIGTERM} {
		if !signal.Ignored(s) { // an ignored one stays ignored, for the shell too
			signal.Notify(sigs, s)
		}
	}
	defer signal.Stop(sigs)
	err := sb.starter()(func() (int, error) {
		if err := c.Start(); err != nil {
			return 0, err
		}
		return c.Process.Pid, nil
	})
	rc.Close()
	if err != nil {
		return fmt.Errorf("starting %s in the sandbox: %w", real, err)
	}
	rec.mu.Lock()
	rec.shell = c.Process.Pid
	rec.mu.Unlock()
	go rec.serve()
	done := make(chan struct{})
	go func() {
		_ = c.Wait()
		close(done)
	}()
	for {
		select {
		case s := <-sigs:
			if s == syscall.SIGHUP || s == syscall.SIGTERM {
				_ = c.Process.Signal(s)
			}
		case <-done:
			g.sandboxAfter(sb, nil)
			return exitOf(c.ProcessState)
		}
	}
}

// exitOf is how a process ended, as the guard passes it on.
func exitOf(ps *os.ProcessState) error {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return statusError{code: 128 + int(ws.Signal()), signal: ws.Signal()}
	}
	return status(ps.ExitCode())
}
