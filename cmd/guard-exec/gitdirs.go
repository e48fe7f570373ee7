package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// gitDirs are a work tree's git directory and the common directory its
// objects, refs, hooks and config live in (they differ for a linked
// worktree: .git is then a file naming .git/worktrees/NAME).
type gitDirs struct {
	dir, common string
}

// gitDirsOf reads them without starting git; zero when proj is no work tree.
func gitDirsOf(proj string) gitDirs {
	if proj == "" {
		return gitDirs{}
	}
	dotgit := filepath.Join(proj, ".git")
	fi, err := os.Lstat(dotgit)
	switch {
	case err != nil:
		return gitDirs{}
	case fi.IsDir():
		return gitDirs{dir: dotgit, common: dotgit}
	}
	b, err := readSmall(dotgit)
	if err != nil {
		return gitDirs{}
	}
	d, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return gitDirs{}
	}
	d = strings.TrimSpace(d)
	if !filepath.IsAbs(d) {
		d = filepath.Join(proj, d)
	}
	g := gitDirs{dir: filepath.Clean(d), common: filepath.Clean(d)}
	if c, err := readSmall(filepath.Join(g.dir, "commondir")); err == nil {
		cd := strings.TrimSpace(string(c))
		if !filepath.IsAbs(cd) {
			cd = filepath.Join(g.dir, cd)
		}
		g.common = filepath.Clean(cd)
	}
	return g
}

func readSmall(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 4096)
	n, err := f.Read(buf)
	if n == 0 {
		return nil, err
	}
	return buf[:n], nil
}

// hooksPaths are the core.hooksPath directories the repository's own
// config files name (relative ones are relative to the work tree, as git
// runs hooks there). A hooks directory elsewhere is as much a way to run
// code at the next commit as .git/hooks is.
func (g gitDirs) hooksPaths(proj string) []string {
	var out []string
	for _, f := range []string{filepath.Join(g.common, "config"), filepath.Join(g.dir, "config.worktree")} {
		if g.common == "" {
			break
		}
		for _, v := range coreValues(f, "hookspath") {
			switch {
			case v == "~" || strings.HasPrefix(v, "~/"):
				if h := os.Getenv("HOME"); h != "" {
					v = filepath.Join(h, v[1:])
				}
			case !filepath.IsAbs(v):
				v = filepath.Join(proj, v)
			}
			out = append(out, filepath.Clean(v))
		}
	}
	return out
}

// coreValues scans a git config file for key (lowercase) in [core].
func coreValues(file, key string) []string {
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	inCore := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			sect, rest, _ := strings.Cut(strings.TrimPrefix(line, "["), "]")
			inCore = strings.EqualFold(strings.TrimSpace(sect), "core")
			line = strings.TrimSpace(rest) // [core] hooksPath = x on one line
		}
		if !inCore || line == "" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), key) {
			continue
		}
		v = strings.TrimSpace(v)
		v = strings.Trim(v, "\"")
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}
