package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/guard-exec/guard-exec/internal/sandbox"
	"github.com/guard-exec/guard-exec/policy"
)

// TestNestedGuardLosesItsEnvironment: a guard started inside a sandboxed
// command with the environment cleared (`env -i HOME=… bash -c …`) no
// longer sees the ledger it was given, picks a ledger of its own outside
// the write roots, and the kernel refuses it (it still finds the guard
// around it by its announcement, nest.go, which no environment carries).
// It still judges, and a hold still holds; an allowed command runs,
// unrecorded, with its own output and status and nothing added to its
// stderr, the command that started it being on record.
func TestNestedGuardLosesItsEnvironment(t *testing.T) {
	if sandbox.ABI() == 0 {
		t.Skip("no Landlock in this kernel")
	}
	w := newCLIWorld(t)
	shimBash := filepath.Join(filepath.Dir(w.guard), "bash") // testscript's copy, the shim
	if _, err := os.Stat(shimBash); err != nil {
		t.Skip("no shim bash beside guard-exec")
	}
	// Outside the write roots (the project; tests have no temp roots), and
	// writable by its permissions: only the kernel's sandbox refuses it.
	elsewhere := filepath.Join(t.TempDir(), "elsewhere")
	bin := filepath.Join(t.TempDir(), "bin")
	for _, d := range []string{elsewhere, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	marker := filepath.Join(w.dir, "rm-ran")
	if err := os.WriteFile(filepath.Join(bin, "rm"), []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	nested := "env -i HOME=" + elsewhere + " PATH=" + bin + ":/usr/bin:/bin " + shimBash

	// Allowed: runs, with its status; stderr is the program's alone, its
	// warning (dynamic-exec) not printed, as a nested guard's is not. With
	// HOME elsewhere the nested guard's ledger is the user's there, which
	// Landlock refuses (EACCES). Where the sandbox can make a mount
	// namespace, a second time with the outer guard's XDG_STATE_HOME and
	// its home a write root: the nested guard's ledger is then in the outer
	// guard's state directory, bound read-only (EROFS).
	envs := []string{""}
	if sandbox.CanMountNS() {
		home := filepath.Dir(w.configHome)
		state := filepath.Join(home, ".state")
		if err := os.MkdirAll(filepath.Join(state, "guard-exec"), 0o700); err != nil {
			t.Fatal(err)
		}
		w.config(t, "[sandbox]\nallow_roots = [\""+home+"\"]\n")
		envs = append(envs, "XDG_STATE_HOME="+state+" ")
	}
	var stderr strings.Builder
	for _, env := range envs {
		// (The outer guard is in audit mode, which prints nothing: the
		// warning of the nested eval would be its own to print.)
		c := w.command("--mode=audit", "--sandbox=write", "-c", "cd "+elsewhere+" && "+strings.Replace(nested, "env -i ", "env -i "+env, 1)+
			` -c 'x=$(date +%s); eval "echo nested-ran${x:+}"; echo to-stderr >&2; exit 7'; echo "status $?"`)
		stderr.Reset()
		c.Stderr = &stderr
		out, err := c.Output()
		if err != nil || string(out) != "nested-ran\nstatus 7\n" || stderr.String() != "to-stderr\n" {
			t.Fatalf("nested guard without its environment (%s): %v\nstdout %q\nstderr %q", env, err, out, stderr.String())
		}
	}
	if _, err := os.Stat(filepath.Join(elsewhere, ".local", "state", "guard-exec", "ledger.jsonl")); err == nil {
		t.Errorf("the nested guard wrote a ledger outside the sandbox's write roots")
	}
	log, err := os.ReadFile(filepath.Join(w.ledger, "ledger.jsonl"))
	if err != nil || !strings.Contains(string(log), "nested-ran") || !strings.Contains(string(log), `"sandbox":"write"`) {
		t.Errorf("the outer command is not on record with its sandbox (%v):\n%s", err, log)
	}

	// Held by the nested guard (the outer one is in audit mode, and holds
	// nothing): the hold stands although nothing can record it.
	c := w.command("--mode=audit", "--sandbox=write", "-c", "cd "+elsewhere+" && "+nested+` -c 'rm -rf /'; echo "status $?"`)
	stderr.Reset()
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil || string(out) != "status 126\n" || !strings.Contains(stderr.String(), "guard-exec: held: rm-recursive-dangerous") {
		t.Fatalf("a nested hold without a ledger: %v\nstdout %q\nstderr %q", err, out, stderr.String())
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the held command ran")
	}

	// A verdict that counted on the nested guard's own sandbox (its
	// configuration asks for one, so a recursive delete of a computed path
	// is only a warning) does not run without it and without a record.
	cfg := filepath.Join(elsewhere, ".config", "guard-exec", "config.toml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte("[sandbox]\nmode = \"write\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(elsewhere, "proj") // a project of its own, outside the outer one's roots
	if err := os.MkdirAll(filepath.Join(other, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	c = w.command("--mode=audit", "--sandbox=write", "-c", "cd "+other+" && "+nested+` -c 'rm -rf "$(cat dirs.txt)"'; echo "status $?"`)
	stderr.Reset()
	c.Stderr = &stderr
	out, err = c.Output()
	if err != nil || string(out) != "status 125\n" || !strings.Contains(stderr.String(), "the command was not run") {
		t.Fatalf("a verdict lowered for a sandbox not made: %v\nstdout %q\nstderr %q", err, out, stderr.String())
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the command ran")
	}
}

// TestUnwritableLedgerWithNoNewPrivs: no_new_privs alone (systemd's
// NoNewPrivileges=, a container's) is no sandbox of guard-exec's: a ledger
// that cannot be written because of the file system still stops the
// command, as everywhere (badinput_ledger.txtar).
func TestUnwritableLedgerWithNoNewPrivs(t *testing.T) {
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("no setpriv")
	}
	w := newCLIWorld(t)
	afile := filepath.Join(t.TempDir(), "afile")
	if err := os.WriteFile(afile, []byte("not a directory\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(w.dir, "ran-anyway")
	c := exec.Command(setpriv, "--no-new-privs", w.guard, "-c", "touch "+marker)
	c.Dir = w.dir
	c.Env = append(append([]string(nil), w.env...), "GUARD_EXEC_LEDGER_DIR="+filepath.Join(afile, "ledger"))
	out, err := c.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitGuardFailed ||
		!strings.Contains(string(out), "cannot record") || !strings.Contains(string(out), "the command was not run") {
		t.Fatalf("want exit %d and the ledger's error, got %v:\n%s", exitGuardFailed, err, out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the command ran without a record")
	}
}

// TestMountOf reads the mount that holds a path from mountinfo lines.
func TestMountOf(t *testing.T) {
	info := []byte(`80 79 254:0 / / rw,relatime - ext4 /dev/vda rw,discard
101 80 254:0 /srv /srv rw,relatime - ext4 /dev/vda rw,discard
103 101 254:0 /srv/proj/.guard-exec /srv/proj/.guard-exec ro,relatime - ext4 /dev/vda rw,discard
104 101 254:0 /srv/my\040home /srv/my\040home ro,nosuid shared:5 - ext4 /dev/vda rw
105 80 0:25 / /media/cd ro,relatime - iso9660 /dev/sr0 ro
106 101 254:0 /srv/over /srv/over ro,relatime - ext4 /dev/vda rw
107 101 254:0 /srv/over /srv/over rw,relatime - ext4 /dev/vda rw
`)
	for _, c := range []struct {
		path           string
		point          string
		ro, fsRO, bind bool
	}{
		{"/srv/proj/.guard-exec/ledger.lock", "/srv/proj/.guard-exec", true, false, true},
		{"/srv/proj/.guard-exec", "/srv/proj/.guard-exec", true, false, true},
		{"/srv/proj/.guard-executable", "/srv", false, false, false},
		{"/srv/my home/.local", "/srv/my home", true, false, true},
		{"/media/cd/x", "/media/cd", true, true, false},   // a read-only medium, not a bind
		{"/srv/over/x", "/srv/over", false, false, false}, // the last mount over another counts
		{"/etc/x", "/", false, false, false},
	} {
		m, ok := mountOf(info, c.path)
		bind := ok && m.point != "/" && m.readOnly && !m.fsReadOnly
		if !ok || m.point != c.point || m.readOnly != c.ro || m.fsReadOnly != c.fsRO || bind != c.bind {
			t.Errorf("mountOf(%q) = %+v, %v; want point %q ro %v fs ro %v", c.path, m, ok, c.point, c.ro, c.fsRO)
		}
	}
	if got := unescapeMount(`/a\040b\134c\011`); got != "/a b\\c\t" {
		t.Errorf("unescapeMount: %q", got)
	}
}

// TestNestingCannotBeForged: a guard is nested only below a guard that
// announced its command itself. A descriptor at announceFD named like an
// announcement and passed on across exec (to the outer guard, and from it
// to the command) makes no one nested: the inner guard still prints its
// warning. Without the forgery the same inner guard is nested and quiet;
// nothing of the guard's is in the command's environment either way.
func TestNestingCannotBeForged(t *testing.T) {
	w := newCLIWorld(t)
	inner := `env | grep -c '^GUARD_EXEC_' || true; guard-exec -c 'sudo -n true 2>/dev/null || true'`
	for _, forged := range []bool{false, true} {
		c := w.command("--mode=audit", "-c", inner)
		if forged {
			fd, err := unix.MemfdCreate(announcement("ev-0001", policy.SandboxWrite), 0)
			if err != nil {
				t.Skip("no memfd here")
			}
			f := os.NewFile(uintptr(fd), "forged")
			defer f.Close()
			c.ExtraFiles = make([]*os.File, announceFD-2)
			c.ExtraFiles[announceFD-3] = f
		}
		var stderr strings.Builder
		c.Stderr = &stderr
		out, err := c.Output()
		if err != nil {
			t.Fatalf("forged=%v: %v\n%s", forged, err, stderr.String())
		}
		given := 0 // the test's own settings (the ledger, the session)
		for _, kv := range w.env {
			if strings.HasPrefix(kv, "GUARD_EXEC_") {
				given++
			}
		}
		if n := strings.TrimSpace(string(out)); n != strconv.Itoa(given) {
			t.Errorf("forged=%v: %s GUARD_EXEC_ variables in the command's environment, %d given", forged, n, given)
		}
		warned := strings.Contains(stderr.String(), "warning: privilege-escalation")
		if warned != forged {
			t.Errorf("forged=%v: the inner guard warned=%v\n%s", forged, warned, stderr.String())
		}
	}
}

// BenchmarkFindOuter is what every guard pays to learn whether it runs
// inside another: from the test process up to PID 1, no guard announcing
// itself on the way (README, What it does).
func BenchmarkFindOuter(b *testing.B) {
	depth := 0
	for pid := os.Getppid(); pid > 1 && depth < 64; depth++ {
		next, ok := parentOf(pid)
		if !ok {
			break
		}
		pid = next
	}
	for b.Loop() {
		if findOuter() != nil {
			b.Fatal("the benchmark runs inside a guarded command")
		}
	}
	b.ReportMetric(float64(depth+1), "ancestors")
}
