package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// world is the scratch place every run happens in: a home of its own (no
// configuration of the person running the bench leaks in), a throwaway git
// repository as the working directory, and the programs' paths.
type world struct {
	c    *config
	tmp  string
	home string
	repo string // a git repository with a few hundred files, some changed
	bash string
	env  []string
}

func newWorld(c *config) (*world, error) {
	tmp, err := os.MkdirTemp("", "guard-exec-bench-")
	if err != nil {
		return nil, err
	}
	w := &world{c: c, tmp: tmp, home: filepath.Join(tmp, "home"), repo: filepath.Join(tmp, "repo")}
	if w.bash, err = exec.LookPath("bash"); err != nil {
		return nil, err
	}
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, err
	}
	path := "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	if d := filepath.Dir(git); !strings.Contains(":"+path+":", ":"+d+":") {
		path = d + ":" + path
	}
	w.env = []string{
		"PATH=" + path, "HOME=" + w.home, "USER=bench", "LANG=C.UTF-8", "TERM=xterm-256color",
		"XDG_CONFIG_HOME=" + filepath.Join(w.home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(w.home, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(w.home, ".cache"),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.invalid",
		"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.invalid",
	}
	if err := os.MkdirAll(w.home, 0o755); err != nil {
		return nil, err
	}
	if err := w.makeRepo(); err != nil {
		return nil, fmt.Errorf("making the scratch repository: %w", err)
	}
	return w, nil
}

// makeRepo creates 300 files in 20 directories, commits them, then changes
// 10 and adds 5 untracked: what `git status` usually has to look at.
func (w *world) makeRepo() error {
	for d := 0; d < 20; d++ {
		dir := filepath.Join(w.repo, fmt.Sprintf("pkg%02d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for f := 0; f < 15; f++ {
			body := strings.Repeat(fmt.Sprintf("package pkg%02d // line of file %d\n", d, f), 40)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.go", f)), []byte(body), 0o644); err != nil {
				return err
			}
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "initial"}} {
		if err := w.git(args...); err != nil {
			return err
		}
	}
	for i := 0; i < 10; i++ {
		p := filepath.Join(w.repo, fmt.Sprintf("pkg%02d", i), "f00.go")
		if err := os.WriteFile(p, []byte("package changed\n"), 0o644); err != nil {
			return err
		}
	}
	for i := 0; i < 5; i++ {
		if err := os.WriteFile(filepath.Join(w.repo, fmt.Sprintf("new%d.txt", i)), []byte("new\n"), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func (w *world) git(args ...string) error {
	c := exec.Command("git", args...)
	c.Dir, c.Env = w.repo, w.env
	out, err := c.CombinedOutput()
	if err != nil {
		return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

// v builds a variant that runs in the repository with the world's
// environment plus extra.
func (w *world) v(name string, argv []string, extra ...string) *variant {
	env := append(append([]string(nil), w.env...), extra...)
	return &variant{name: name, argv: argv, dir: w.repo, env: env}
}

func (w *world) bashV(script string) *variant {
	return w.v("bash -c "+quoteArgv([]string{"x", script})[2:], []string{w.bash, "-c", script})
}

func (w *world) floorV(script string) *variant {
	return w.v("floor -c "+quoteArgv([]string{"x", script})[2:], []string{w.c.floor, "-c", script})
}

func (w *world) guardV(args ...string) *variant {
	return w.v("guard-exec "+quoteArgv(append([]string{"x"}, args...))[2:], append([]string{w.c.guard}, args...))
}
