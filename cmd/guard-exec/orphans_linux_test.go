package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// canMakeCgroup reports whether this process may make a cgroup below its
// own, which the keeper needs.
func canMakeCgroup(t *testing.T) bool {
	parent := ownCgroup()
	if parent == "" {
		return false
	}
	dir := filepath.Join(parent, "guard-exec-test-"+strconv.Itoa(os.Getpid()))
	if unix.Mkdir(dir, 0o755) != nil {
		return false
	}
	_ = unix.Rmdir(dir)
	return true
}

// orphanWorld runs guard-exec (the test binary, installed on PATH as
// guard-exec by TestMain) in a scratch directory with its own ledger.
func orphanWorld(t *testing.T, script string) (*exec.Cmd, string) {
	t.Helper()
	if !canMakeCgroup(t) {
		t.Skip("no writable cgroup v2 here: the keeper is not used (README)")
	}
	exe, err := exec.LookPath("guard-exec")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	cmd := exec.Command(exe, "-c", script)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "HOME="+work, "XDG_STATE_HOME="+filepath.Join(work, "state"),
		"XDG_CONFIG_HOME="+filepath.Join(work, "config"), "GUARD_EXEC_LEDGER_DIR="+filepath.Join(work, "ledger"))
	return cmd, work
}

// waitFile waits for a marker the command leaves.
func waitFile(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second) // only keeps a broken build from hanging
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// alive lists which of ps still run (same pid, same start time).
func alive(ps []procKey) []procKey {
	var out []procKey
	for _, p := range ps {
		if st, ok := startTicks(p.pid); ok && st == p.start {
			if s, ok := statField(p.pid, 0); ok && s == "Z" {
				continue // dead, not yet reaped
			}
			out = append(out, p)
		}
	}
	return out
}

// TestKilledGuardLeavesNoOrphans replays `kill -9` of a guard around a
// pipeline that would run forever: a writer that appends to a file in a
// pipe with another process, a background job, and a job orphaned by a
// subshell (reparented to the guard). After the kill nothing of the
// command runs; before it, the command shared the caller's process group
// and session.
func TestKilledGuardLeavesNoOrphans(t *testing.T) {
	script := `while :; do echo x >> f; sleep 0.05; done | tee -a g >/dev/null &
sleep 300 &
(sleep 300 &)
touch started
wait`
	cmd, work := orphanWorld(t, script)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitFile(t, filepath.Join(work, "started"))
	waitFile(t, filepath.Join(work, "f"))
	// The keeper starts once the command has run for keeperDelay.
	var procs []procKey
	deadline := time.Now().Add(30 * time.Second) // only keeps a broken build from hanging
	for keeperUp := false; !keeperUp; {
		if time.Now().After(deadline) {
			t.Fatal("no keeper started")
		}
		time.Sleep(10 * time.Millisecond)
		procs = descendants(cmd.Process.Pid)
		for _, p := range procs {
			b, _ := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/cmdline")
			keeperUp = keeperUp || strings.Contains(string(b), keeperArg)
		}
	}
	var command []procKey
	for _, p := range procs {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/cmdline")
		if strings.Contains(string(b), keeperArg) {
			continue
		}
		command = append(command, p)
		pgid, err1 := syscall.Getpgid(p.pid)
		sid, err2 := unix.Getsid(p.pid)
		if err1 != nil || err2 != nil {
			continue // ended meanwhile (one of the loop's sleeps)
		}
		if mine, _ := unix.Getsid(0); pgid != syscall.Getpgrp() || sid != mine {
			t.Errorf("process %d (%s) is in group %d session %d, not the caller's %d %d",
				p.pid, b, pgid, sid, syscall.Getpgrp(), mine)
		}
	}
	if len(command) < 5 {
		t.Fatalf("only %d processes of the command found: %v", len(command), command)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	deadline = time.Now().Add(10 * time.Second) // a hang guard, not a speed limit
	for len(alive(command)) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if left := alive(command); len(left) > 0 {
		for _, p := range left {
			b, _ := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/cmdline")
			t.Errorf("process %d (%q) outlived the killed guard", p.pid, b)
			_ = unix.Kill(p.pid, unix.SIGKILL)
		}
	}
	dir := filepath.Join(ownCgroup(), "guard-exec-"+strconv.Itoa(cmd.Process.Pid))
	for time.Now().Before(deadline) {
		if _, err := os.Stat(dir); os.IsNotExist(err) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("the command's cgroup %s was not removed", dir)
	}
}

// TestGuardEndingNormallyKeepsBackgroundJobs: what a command leaves
// running on purpose outlives a guard that ended normally, as under bash,
// back in the guard's own cgroup; the command's cgroup is gone.
func TestGuardEndingNormallyKeepsBackgroundJobs(t *testing.T) {
	cmd, work := orphanWorld(t, `(sleep 300 >/dev/null 2>&1 & echo $! > bg)`)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	waitFile(t, filepath.Join(work, "bg"))
	b, _ := os.ReadFile(filepath.Join(work, "bg"))
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Kill(pid, unix.SIGKILL)
	if unix.Kill(pid, 0) != nil {
		t.Fatal("the background job died with its guard")
	}
	cg, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if strings.Contains(string(cg), "guard-exec-") {
		t.Errorf("the background job is still in the command's cgroup: %s", cg)
	}
	if _, err := os.Stat(filepath.Join(ownCgroup(), "guard-exec-"+strconv.Itoa(cmd.Process.Pid))); err == nil {
		t.Error("the command's cgroup was left behind")
	}
}
