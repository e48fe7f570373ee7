package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
)

// sandboxExec is macOS's front end to Seatbelt: it applies the profile
// given with -p to itself and execs the command.
const sandboxExec = "/usr/bin/sandbox-exec"

var hasSandboxExec = sync.OnceValue(func() bool {
	fi, err := os.Stat(sandboxExec)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
})

// Mechanism names the kernel boundary commands run under here:
// "seatbelt", or "" when sandbox-exec is missing.
func Mechanism() string {
	if hasSandboxExec() {
		return "seatbelt"
	}
	return ""
}

// Missing says why no sandbox can be made here.
const Missing = "/usr/bin/sandbox-exec (Seatbelt) is missing"

// Start starts c under sandbox-exec with s's profile: c's program becomes
// sandbox-exec's command, so the profile bounds it and all it starts and
// guard-exec stays unbounded. sandbox-exec names the command by its path:
// c.Args[0] is not passed on.
func Start(c *exec.Cmd, s *Spec) (Coverage, error) {
	var cov Coverage
	argv, err := seatbeltArgv(c.Path, c.Args, s, homeOf(c.Env))
	if err != nil {
		return cov, err
	}
	c.Path, c.Args = sandboxExec, argv
	if err := c.Start(); err != nil {
		return cov, err
	}
	cov.Seatbelt = true
	cov.TCPDenied = s.Mode == Strict
	cov.Bound = append(cov.Bound, s.Protected...)
	return cov, nil
}

// Exec replaces guard-exec with path under sandbox-exec with s's profile
// (the interactive shell). It returns only on failure.
func Exec(path string, argv, env []string, s *Spec) (Coverage, error) {
	cov := Coverage{Seatbelt: true, TCPDenied: s.Mode == Strict}
	args, err := seatbeltArgv(path, argv, s, homeOf(env))
	if err != nil {
		return Coverage{}, err
	}
	return cov, syscall.Exec(sandboxExec, args, env)
}

func seatbeltArgv(path string, argv []string, s *Spec, home string) ([]string, error) {
	if !hasSandboxExec() {
		return nil, fmt.Errorf("sandbox: %s", Missing)
	}
	prof, err := SeatbeltProfile(SeatbeltSpec(s), resolveExisting(home))
	if err != nil {
		return nil, err
	}
	out := []string{"sandbox-exec", "-p", prof, path}
	if len(argv) > 1 {
		out = append(out, argv[1:]...)
	}
	return out, nil
}

// homeOf is HOME in env (the command's), else guard-exec's.
func homeOf(env []string) string {
	h := os.Getenv("HOME")
	for _, kv := range env {
		if len(kv) > 5 && kv[:5] == "HOME=" {
			h = kv[5:]
		}
	}
	return h
}
