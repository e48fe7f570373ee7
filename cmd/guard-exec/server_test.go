package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBackgroundServerKeepsServing: a server a guarded command starts in
// the background (`python3 -m http.server PORT &`) keeps serving after the
// guard has exited, with its request log still reaching the caller's pipe,
// as under bash. The server listens on 127.0.0.1 only and is stopped at the
// end of the test.
func TestBackgroundServerKeepsServing(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to serve with")
	}
	// The interpreter itself, not a version manager's wrapper script
	// (pyenv's shims are `#!/usr/bin/env bash` scripts, which would run
	// through this test's own bash stand-in and another guard).
	if out, err := exec.Command(py, "-c", "import sys; print(sys.executable)").Output(); err == nil && strings.TrimSpace(string(out)) != "" {
		py = strings.TrimSpace(string(out))
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("served\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// stdout: the server's pid, then nothing; stderr: its request log.
	// Both are pipes to this test, so the guard relays them.
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`%s -m http.server %d --bind 127.0.0.1 </dev/null & echo $!`, py, port)
	cmd := exec.Command(installedGuard(t), "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GUARD_EXEC_LEDGER_DIR="+filepath.Join(t.TempDir(), "ledger"))
	cmd.Stdout, cmd.Stderr = outW, errW
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	outW.Close()
	errW.Close()
	line, err := bufio.NewReader(outR).ReadString('\n')
	pid, perr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || perr != nil {
		t.Fatalf("no pid from the command: %q %v", line, err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGTERM) })
	if err := cmd.Wait(); err != nil {
		t.Fatalf("guard-exec: %v", err)
	}
	log := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(errR) // ends when the server, the last writer, exits
		log <- string(b)
	}()

	// The guard is gone; the server must answer, more than once.
	var body string
	for i := 0; i < 3; i++ {
		body, err = getRetrying(fmt.Sprintf("http://127.0.0.1:%d/index.html", port))
		if err != nil || body != "served\n" {
			t.Fatalf("request %d after the guard exited: %q %v", i+1, body, err)
		}
	}
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("the server is gone after serving: %v", err)
	}
	_ = syscall.Kill(pid, syscall.SIGTERM)
	select {
	case got := <-log:
		if n := strings.Count(got, `"GET /index.html HTTP/1.1" 200`); n != 3 {
			t.Errorf("the server's request log reached the caller with %d of 3 requests:\n%s", n, got)
		}
	case <-time.After(30 * time.Second):
		t.Error("the caller's stderr pipe stayed open after the server exited")
	}
}

// getRetrying fetches url, retrying while the server is still starting.
func getRetrying(url string) (string, error) {
	var last error
	for i := 0; i < 600; i++ { // 30 s: a hang guard for slow (-race) builds, not a speed limit
		resp, err := http.Get(url)
		if err == nil {
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			return string(b), err
		}
		last = err
		time.Sleep(50 * time.Millisecond)
	}
	return "", last
}
