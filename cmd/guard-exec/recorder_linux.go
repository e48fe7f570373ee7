package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
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
// If the guard is killed the shell is killed too (Pdeathsig SIGKILL): with
// SIGHUP, bash outlived a killed guard now and then on a loaded machine
// (2 runs in 60 of TestKilledGuardTakesItsSandboxedShell), and none in 120
// with SIGKILL. Its background jobs are not reached then; the terminal's
// hangup reaches them when it closes. The rcfile reaches the shell as
// descriptor 3.
func (g *guard) superviseShell(sb *sandboxRun, rec *shellRecorder, real string, argv []string, rc *os.File) error {
	defer rec.close()
	c := &exec.Cmd{Path: real, Args: argv, Env: g.childEnv(),
		Stdin: g.st.in, Stdout: g.st.out, Stderr: g.st.err, ExtraFiles: []*os.File{rc},
		SysProcAttr: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}}
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
	pid := c.Process.Pid
	ended := make(chan unix.WaitStatus, 1)
	go func() { ended <- g.followShell(pid) }()
	for {
		select {
		case s := <-sigs:
			if s == syscall.SIGHUP || s == syscall.SIGTERM {
				_ = c.Process.Signal(s)
			}
		case ws := <-ended:
			g.sandboxAfter(sb, nil)
			if ws.Signaled() {
				return statusError{code: 128 + int(ws.Signal()), signal: ws.Signal()}
			}
			return status(ws.ExitStatus())
		}
	}
}

// followShell waits for the shell to end. When it stops (bash's
// suspend, or a SIGSTOP sent to it), the guard stops too, so that the
// shell that started the guard sees its job stop, as it would have seen
// bash stop; when that shell continues the guard (fg), the guard gives
// the terminal back to the shell's process group and continues it.
func (g *guard) followShell(pid int) unix.WaitStatus {
	for {
		var ws unix.WaitStatus
		if _, err := unix.Wait4(pid, &ws, unix.WUNTRACED, nil); err != nil {
			if err == unix.EINTR {
				continue
			}
			return ws
		}
		if !ws.Stopped() {
			return ws
		}
		pgid, err := unix.Getpgid(pid)
		// To this thread: its stop is taken before the call returns, and
		// stops the whole process (a process-wide kill may be taken by
		// another thread, after this one went on).
		runtime.LockOSThread()
		_ = unix.Tgkill(unix.Getpid(), unix.Gettid(), unix.SIGSTOP) // returns once continued
		runtime.UnlockOSThread()
		if err != nil {
			_ = unix.Kill(pid, unix.SIGCONT)
			continue
		}
		// Only a guard in the foreground (fg) hands the terminal on: from
		// the background (bg) the change would raise SIGTTOU, and the
		// shell stops again at its next read, as bash alone would.
		for _, f := range []*os.File{g.st.in, g.st.err} {
			fd := int(f.Fd())
			if fg, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP); err == nil {
				if fg == unix.Getpgrp() {
					_ = unix.IoctlSetPointerInt(fd, unix.TIOCSPGRP, pgid)
				}
				break
			}
		}
		_ = unix.Kill(-pgid, unix.SIGCONT)
	}
}
