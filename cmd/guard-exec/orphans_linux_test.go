package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/guard-exec/guard-exec/internal/sandbox"
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
// guard-exec by TestMain) in a scratch directory with its own ledger; with
// byTree, as where no cgroup can be made (the keeper keeps the guard's
// process tree).
func orphanWorld(t *testing.T, script string, byTree bool) (*exec.Cmd, string) {
	t.Helper()
	if !byTree && !canMakeCgroup(t) {
		t.Skip("no writable cgroup v2 here: the keeper keeps the process tree (the byTree case)")
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
	if byTree {
		cmd.Env = append(cmd.Env, noCgroupEnv+"=1")
	}
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
// subshell (reparented to the guard), one in a session of its own and one
// with an empty environment. After the kill nothing of the command runs;
// before it, the command shared the caller's process group and session
// (but for the one that left it). The same where no cgroup can be made,
// where the keeper keeps the guard's process tree.
func TestKilledGuardLeavesNoOrphans(t *testing.T) {
	for _, byTree := range []bool{false, true} {
		name := map[bool]string{false: "cgroup", true: "tree"}[byTree]
		t.Run(name, func(t *testing.T) { killedGuardLeavesNoOrphans(t, byTree) })
	}
}

func killedGuardLeavesNoOrphans(t *testing.T, byTree bool) {
	script := `while :; do echo x >> f; sleep 0.05; done | tee -a g >/dev/null &
sleep 300 &
(sleep 300 &)
setsid sleep 301 &
(env -i sleep 302 &)
touch started
wait`
	cmd, work := orphanWorld(t, script, byTree)
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
	if byTree {
		// The keeper looks at the tree as it starts, then every 10 ms and
		// less often later; this waits out its first looks.
		time.Sleep(300 * time.Millisecond)
	}
	var command []procKey
	for _, p := range procs {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/cmdline")
		if strings.Contains(string(b), keeperArg) {
			continue
		}
		command = append(command, p)
		if strings.Contains(string(b), "301") {
			continue // setsid: a session of its own, on purpose
		}
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
	if len(command) < 7 {
		t.Fatalf("only %d processes of the command found: %v", len(command), command)
	}
	if !byTree {
		// The command started where the guard runs and was moved into a
		// cgroup of its own as its keeper started: all of it, the double
		// fork and the setsid included.
		want := "/guard-exec-" + strconv.Itoa(cmd.Process.Pid) + "\n"
		for _, p := range command {
			b, err := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/cgroup")
			if err == nil && !strings.HasSuffix(string(b), want) {
				c, _ := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/cmdline")
				t.Errorf("process %d (%q) is in cgroup %q, not the command's", p.pid, c, b)
			}
		}
	}
	// Bystanders in the same session, started after the guard, as the
	// caller's other jobs are: the keeper must not take them for the
	// command's.
	var bystanders []procKey
	if byTree {
		for range 2 {
			b := exec.Command("sleep", "300")
			if err := b.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = b.Process.Kill(); _ = b.Wait() })
			st, _ := startTicks(b.Process.Pid)
			bystanders = append(bystanders, procKey{b.Process.Pid, st})
		}
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
	if byTree {
		time.Sleep(100 * time.Millisecond) // the keeper's rounds are over
		if got := alive(bystanders); len(got) != len(bystanders) {
			t.Errorf("the keeper killed processes that are not the command's: %d of %d left", len(got), len(bystanders))
		}
		return
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
	cmd, work := orphanWorld(t, `(sleep 300 >/dev/null 2>&1 & echo $! > bg)`, false)
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

// TestKilledGuardTakesItsSandboxedShell: the sandboxed interactive shell
// is the guard's child (recorder.go); a guard killed outright takes its
// shell with it, as a closed terminal does.
func TestKilledGuardTakesItsSandboxedShell(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("needs a real bash")
	}
	if sandbox.ABI() == 0 {
		t.Skip("no Landlock in this kernel")
	}
	// The guard is not the terminal's session leader here (that one's
	// death would hang the terminal up anyway): a shell started it, and
	// stays.
	term := startOnTerminalEnv(t, interactiveHome(t, "write"), "/bin/sh", "sh", "-c", shellWord(installedGuard(t))+"; sleep 60")
	t.Cleanup(func() { term.cmd.Process.Kill() })
	term.typeText("echo pid-$$-$PPID-e\"\"nd\r")
	term.waitFor("-end\r\n")
	m := regexp.MustCompile(`pid-([0-9]+)-([0-9]+)-end\r\n`).FindStringSubmatch(term.text())
	if m == nil {
		t.Fatalf("no pid on the screen: %q", term.text())
	}
	pid, _ := strconv.Atoi(m[1])
	guard, _ := strconv.Atoi(m[2])
	start, ok := startTicks(pid)
	if !ok {
		t.Fatalf("no shell at pid %d", pid)
	}
	if err := syscall.Kill(guard, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	shell := []procKey{{pid: pid, start: start}}
	deadline := time.Now().Add(10 * time.Second)
	for len(alive(shell)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the shell (pid %d) outlived its guard", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
