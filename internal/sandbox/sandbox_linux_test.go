package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

func TestMain(m *testing.M) {
	if a := os.Getenv("SANDBOX_TEST_ATTACK"); a != "" {
		os.Exit(attack(a))
	}
	os.Exit(m.Run())
}

func needLandlock(t *testing.T) {
	t.Helper()
	if ABI() == 0 {
		t.Skip("no Landlock in this kernel")
	}
}

// run starts sh -c script under s and returns its combined output.
func run(t *testing.T, s *Spec, script string, env ...string) (string, Coverage, error) {
	t.Helper()
	c := exec.Command("/bin/sh", "-c", script)
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	c.Env = append(os.Environ(), env...)
	cov, err := StartCmd(c, s)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	err = c.Wait()
	return out.String(), cov, err
}

func TestWritesOnlyInsideRoots(t *testing.T) {
	needLandlock(t)
	base := t.TempDir()
	proj, outside := filepath.Join(base, "proj"), filepath.Join(base, "outside")
	for _, d := range []string{proj, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "keep"), []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &Spec{Mode: Write, WriteRoots: []string{proj}}
	out, cov, _ := run(t, s, `
		echo in > "$P/new" && mkdir "$P/d" && mv "$P/new" "$P/d/moved" && echo ok-inside
		echo x > "$O/new" 2>/dev/null || echo denied-create
		echo x >> "$O/keep" 2>/dev/null || echo denied-append
		rm -f "$O/keep" 2>/dev/null || echo denied-rm
		echo y > /dev/null && echo devnull-ok`, "P="+proj, "O="+outside)
	for _, want := range []string{"ok-inside", "denied-create", "denied-append", "denied-rm", "devnull-ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in output:\n%s", want, out)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "keep")); string(b) != "keep\n" {
		t.Errorf("outside file changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(outside, "new")); err == nil {
		t.Error("a file was created outside the roots")
	}
	if !cov.Landlock || cov.ABI == 0 {
		t.Errorf("coverage %+v", cov)
	}
	// The guard itself stays unrestricted.
	if err := os.WriteFile(filepath.Join(outside, "by-guard"), nil, 0o644); err != nil {
		t.Errorf("the guard was restricted too: %v", err)
	}
}

func TestProtectedInsideRootStaysReadOnly(t *testing.T) {
	needLandlock(t)
	proj := t.TempDir()
	hooks := filepath.Join(proj, ".git", "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(proj, ".git", "config")
	os.WriteFile(cfg, []byte("[core]\n"), 0o644)
	os.WriteFile(filepath.Join(proj, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	s := &Spec{Mode: Write, WriteRoots: []string{proj}, Protected: []string{hooks, cfg}}
	// The paths are computed at run time, as no analysis could know them.
	out, cov, _ := run(t, s, `
		g=$(cd "$P" && echo .g""it)
		echo evil > "$P/$g/hooks/pre-commit" 2>/dev/null || echo hook-refused
		echo '[core] hooksPath=/x' >> "$P/$g/config" 2>/dev/null || echo config-refused
		mv "$P/$g" "$P/moved" 2>/dev/null || echo rename-refused
		echo ok > "$P/$g/HEAD2" && echo git-dir-writable`, "P="+proj)
	if runtime.GOOS == "linux" && !cov.MountNS {
		t.Skipf("no mount namespace here (coverage %+v)", cov)
	}
	for _, want := range []string{"hook-refused", "config-refused", "rename-refused", "git-dir-writable"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in output:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(hooks, "pre-commit")); err == nil {
		t.Error("a hook was written")
	}
	if b, _ := os.ReadFile(cfg); string(b) != "[core]\n" {
		t.Errorf("git config changed: %q", b)
	}
	// The binds were in the command's namespace only.
	if err := os.WriteFile(filepath.Join(hooks, "by-guard"), nil, 0o644); err != nil {
		t.Errorf("the guard's own namespace got the read-only bind: %v", err)
	}
}

func TestStrictDeniesTCP(t *testing.T) {
	needLandlock(t)
	if ABI() < 4 {
		t.Skip("Landlock ABI < 4 has no network rules")
	}
	s := &Spec{Mode: Strict, WriteRoots: []string{t.TempDir()}}
	c := exec.Command(os.Args[0], "-test.run=^$")
	c.Env = append(os.Environ(), "SANDBOX_TEST_ATTACK=tcp")
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	if _, err := StartCmd(c, s); err != nil {
		t.Fatal(err)
	}
	c.Wait()
	if !strings.Contains(out.String(), "bind: permission denied") && !strings.Contains(out.String(), "bind: operation not permitted") {
		t.Errorf("TCP bind was not refused: %s", out.String())
	}
}

// secret is what the attacking child tries to overwrite in the guard.
var secret = []byte("original-secret!")

// TestChildCannotWriteGuardMemory is the attack of an exploited command:
// while the thread that forked it lives in the command's Landlock domain,
// overwrite guard-exec's memory through it, by process_vm_writev and by
// /proc/PID/mem, on every thread of the guard.
func TestChildCannotWriteGuardMemory(t *testing.T) {
	needLandlock(t)
	addr := fmt.Sprintf("%x", uintptr(unsafe.Pointer(&secret[0])))
	attackWith := func(start func(*exec.Cmd) error) string {
		c := exec.Command(os.Args[0], "-test.run=^$")
		c.Env = append(os.Environ(), "SANDBOX_TEST_ATTACK=mem:"+addr+":"+strconv.Itoa(os.Getpid()))
		var out bytes.Buffer
		c.Stdout, c.Stderr = &out, &out
		if err := start(c); err != nil {
			t.Fatal(err)
		}
		c.Wait()
		return out.String()
	}
	if os.Geteuid() == 0 {
		// Control: the same attack from an unsandboxed root child works,
		// so a refusal below is the sandbox's doing.
		out := attackWith(func(c *exec.Cmd) error { return c.Start() })
		if !strings.Contains(out, "overwrote") {
			t.Fatalf("control attack failed, the test proves nothing: %s", out)
		}
		copy(secret, "original-secret!")
	}
	s := &Spec{Mode: Write, WriteRoots: []string{t.TempDir()}}
	out := attackWith(func(c *exec.Cmd) error { _, err := StartCmd(c, s); return err })
	runtime.KeepAlive(secret)
	if string(secret) != "original-secret!" || strings.Contains(out, "overwrote") {
		t.Fatalf("the sandboxed child overwrote the guard's memory: %q\n%s", secret, out)
	}
	if !strings.Contains(out, "threads:") {
		t.Fatalf("the attack did not run: %s", out)
	}
}

// attack runs in the child.
func attack(spec string) int {
	kind, rest, _ := strings.Cut(spec, ":")
	switch kind {
	case "tcp":
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
		if err != nil {
			fmt.Println("socket:", err)
			return 1
		}
		err = unix.Bind(fd, &unix.SockaddrInet4{Port: 0, Addr: [4]byte{127, 0, 0, 1}})
		fmt.Println("bind:", err)
		return 0
	case "mem":
		a, p, _ := strings.Cut(rest, ":")
		addr, _ := strconv.ParseUint(a, 16, 64)
		tids, _ := os.ReadDir("/proc/" + p + "/task")
		fmt.Println("threads:", len(tids))
		payload := []byte("PWNED-BY-CHILD!!")
		for _, d := range tids {
			tid, _ := strconv.Atoi(d.Name())
			n, err := unix.ProcessVMWritev(tid,
				[]unix.Iovec{{Base: &payload[0], Len: uint64(len(payload))}},
				[]unix.RemoteIovec{{Base: uintptr(addr), Len: len(payload)}}, 0)
			if err == nil && n > 0 {
				fmt.Println("overwrote via process_vm_writev tid", tid)
			}
			if f, err := os.OpenFile("/proc/"+p+"/task/"+d.Name()+"/mem", os.O_RDWR, 0); err == nil {
				if _, err := f.WriteAt(payload, int64(addr)); err == nil {
					fmt.Println("overwrote via /proc/mem tid", tid)
				}
				f.Close()
			}
		}
		return 0
	}
	return 2
}

// TestGuardThreadsStayUnrestricted starts many sandboxed commands and checks
// that the main thread, which the Go runtime never ends, is never the one
// restricted (notes: a worker goroutine can land on it).
func TestGuardThreadsStayUnrestricted(t *testing.T) {
	needLandlock(t)
	s := &Spec{Mode: Write, WriteRoots: []string{t.TempDir()}}
	for i := 0; i < 50; i++ {
		c := exec.Command("/bin/true")
		if _, err := StartCmd(c, s); err != nil {
			t.Fatal(err)
		}
		c.Wait()
		b, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/status", os.Getpid()))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte("NoNewPrivs:\t0")) {
			t.Fatalf("the main thread was restricted (start %d)", i)
		}
	}
}
