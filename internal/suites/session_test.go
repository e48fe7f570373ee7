package suites

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// A suite's processes run in sessions of their own (Setsid), so that
// nothing they do reaches the test binary or the go command: bats' tests
// signal process groups (`kill -SIGINT -- -$PID` of a job they put in a
// group of its own with set -m, bats' timeouts `pkill -P`), and a command
// the suite starts stays in its caller's group, as under bash. Their
// session is killed whole when the run ends, so a background process a
// test leaves behind (or one a killed run leaves) does not outlive it.

// sessions are the sessions of the suite's runs in progress, by their
// leader's pid, with what runs in each.
var sessions = struct {
	sync.Mutex
	m map[int]string
}{m: map[int]string{}}

// runInSession runs cmd, which must not have been started, as the leader of
// a session of its own, killing that session when it exits or after
// timeout. what names the run in the message of watchTerm.
func runInSession(cmd *exec.Cmd, what string, timeout time.Duration) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	sid := cmd.Process.Pid
	sessions.Lock()
	sessions.m[sid] = what
	sessions.Unlock()
	stop := time.AfterFunc(timeout, func() { killSession(sid) })
	err := cmd.Wait()
	stop.Stop()
	killSession(sid)
	sessions.Lock()
	delete(sessions.m, sid)
	sessions.Unlock()
	return err
}

// killSession kills every process of session sid: its leader's group at
// once, and the groups its jobs were put in (set -m) from /proc, where
// there is one; a few rounds, for processes forked meanwhile.
func killSession(sid int) {
	_ = syscall.Kill(-sid, syscall.SIGKILL)
	for range 3 {
		pids := sessionMembers(sid)
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// sessionMembers lists the processes whose session is sid (field 6 of
// /proc/PID/stat; the command name before it is in parentheses and may
// hold spaces). Without /proc (macOS) it is empty.
func sessionMembers(sid int) []int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []int
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:]) // state ppid pgrp session …
		if len(f) < 4 || f[3] != strconv.Itoa(sid) {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p))); err == nil && pid != sid {
			out = append(out, pid)
		}
	}
	return out
}

// watchTerm says, if the test binary is sent SIGTERM (or SIGINT, SIGHUP)
// while a suite runs, what it was running and for how long, kills those
// runs' sessions, and then dies of the signal as it would have: the
// sender is outside the suite's sessions (a CI runner's time limit, a
// person), and the log says where the suite was. stop ends the watch.
func watchTerm(logf func(string, ...any)) (stop func()) {
	start := time.Now()
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			sessions.Lock()
			var running []string
			for sid, what := range sessions.m {
				running = append(running, what)
				killSession(sid)
			}
			sessions.Unlock()
			sort.Strings(running)
			msg := fmt.Sprintf("the test binary got %v after %s, from outside the suite's sessions; running: %s",
				sig, time.Since(start).Round(time.Second), strings.Join(running, "; "))
			logf("%s", msg)
			fmt.Fprintln(os.Stderr, msg) // t.Log's output may be lost with the process
			signal.Reset(sig)
			_ = syscall.Kill(os.Getpid(), sig.(syscall.Signal))
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// TestRunInSession: a run that signals its whole process group (`kill
// -TERM 0`) does not reach the test binary, and what it leaves running,
// in its group or in one of its own (set -m), is killed when it ends.
func TestRunInSession(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	pids := filepath.Join(t.TempDir(), "pids")
	script := `sleep 300 & echo $! >` + pids + `; set -m; sleep 300 & echo $! >>` + pids + `; kill -TERM 0`
	err = runInSession(exec.Command(bash, "-c", script), "test", time.Minute)
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != -1 {
		t.Fatalf("want bash killed by its own SIGTERM, got %v", err)
	}
	b, err := os.ReadFile(pids)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(string(b)) {
		pid, _ := strconv.Atoi(f)
		// Reaped by init once killed; a zombie for a moment at most.
		deadline := time.Now().Add(5 * time.Second)
		for syscall.Kill(pid, 0) == nil && !zombie(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d outlived the run", pid)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && strings.HasPrefix(s[i+1:], " Z")
}
