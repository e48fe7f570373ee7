package sandbox

import (
	"errors"
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

// StartCmd starts c under sandbox-exec with s's profile: c's program
// becomes sandbox-exec's command, so the profile bounds it and all it
// starts, and guard-exec stays unbounded.
func StartCmd(c *exec.Cmd, s *Spec) (Coverage, error) {
	path, argv, cov, err := Wrap(c.Path, c.Args, c.Env, s)
	if err != nil {
		return cov, err
	}
	c.Path, c.Args = path, argv
	if err := c.Start(); err != nil {
		return Coverage{}, err
	}
	return cov, nil
}

// Start cannot bound a command another function forks: Seatbelt is
// applied by sandbox-exec to itself before it execs the command, so the
// command's path and arguments must go through Wrap.
func Start(fork func() (int, error), s *Spec) (Coverage, error) {
	return Coverage{}, errors.New("sandbox: Seatbelt bounds a command through sandbox-exec (Wrap), not a fork")
}

// Wrap is what to exec instead of path and argv so that the command runs
// under Seatbelt with s's profile: sandbox-exec with the profile and the
// command. sandbox-exec names the command by its path: argv[0] is not
// passed on. env is the command's environment (for HOME; nil: the
// guard's).
func Wrap(path string, argv, env []string, s *Spec) (string, []string, Coverage, error) {
	args, err := seatbeltArgv(path, argv, s, homeOf(env))
	if err != nil {
		return "", nil, Coverage{}, err
	}
	cov := Coverage{Seatbelt: true, TCPDenied: s.Mode == Strict}
	cov.Bound = append(cov.Bound, s.Protected...)
	return sandboxExec, args, cov, nil
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
