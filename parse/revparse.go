package parse

import (
	"path"
	"path/filepath"
	"strings"
)

// git rev-parse prints places of the repository the working directory is
// in: "rm -rf "$(git rev-parse --show-toplevel)/dist"" deletes the
// project's dist. They are worked out here as git finds them, walking up
// from the directory to the first .git (a directory holding HEAD, or a
// "gitdir:" file), through Options.Files and without running git. What
// depends on configuration or on the environment (GIT_DIR, GIT_WORK_TREE,
// GIT_COMMON_DIR, GIT_CEILING_DIRECTORIES, core.hooksPath, linked
// worktrees for --git-path) is unknown.

// revParse is what git rev-parse prints for one of the modelled options.
func (fr *frame) revParse(c *Command) (string, bool) {
	if len(c.Wrappers) > 0 || c.Dir == "" || fr.r.opts.Files == nil || len(c.Args) < 2 || c.Args[0].Value != "rev-parse" {
		return "", false
	}
	for _, a := range c.Args {
		if !a.Literal() {
			return "", false
		}
	}
	for _, v := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM"} {
		if val, set := fr.lookup(v).value(); set || hasUnknown(val) {
			return "", false
		}
	}
	for _, a := range c.Assigns {
		if strings.HasPrefix(a.Name, "GIT_") {
			return "", false
		}
	}
	top, gitDir, linked, ok := fr.findRepo(c.Dir)
	if !ok {
		return "", false
	}
	// git prints the git dir relative to the working directory when it is
	// the top level's own .git, absolute otherwise.
	shown := gitDir
	if !linked && c.Dir == top {
		shown = ".git"
	}
	args := c.Args[1:]
	switch {
	case len(args) == 1 && args[0].Value == "--show-toplevel":
		return top + "\n", true
	case len(args) == 1 && args[0].Value == "--git-dir":
		return shown + "\n", true
	case len(args) == 1 && args[0].Value == "--absolute-git-dir":
		return gitDir + "\n", true
	case len(args) == 1 && args[0].Value == "--show-prefix":
		if c.Dir == top {
			return "\n", true
		}
		return strings.TrimPrefix(c.Dir, top+"/") + "/\n", true
	case len(args) == 1 && args[0].Value == "--show-cdup":
		if c.Dir == top {
			return "\n", true
		}
		return strings.Repeat("../", strings.Count(strings.TrimPrefix(c.Dir, top+"/"), "/")+1) + "\n", true
	case len(args) == 2 && args[0].Value == "--git-path":
		p := args[1].Value
		if linked || p == "" || strings.HasPrefix(p, "hooks") || strings.HasPrefix(p, "/") {
			return "", false
		}
		// Relative to the working directory (../.git/config below the
		// top): either way it names the same file.
		rel, _ := filepath.Rel(c.Dir, path.Join(gitDir, p))
		return rel + "\n", true
	}
	return "", false
}

// findRepo walks up from dir to the repository git would find.
func (fr *frame) findRepo(dir string) (top, gitDir string, linked, ok bool) {
	files := fr.r.opts.Files
	for d := dir; ; d = path.Dir(d) {
		if _, err := files.ReadFile(path.Join(d, ".git", "HEAD")); err == nil {
			return d, path.Join(d, ".git"), false, true
		}
		if b, err := files.ReadFile(path.Join(d, ".git")); err == nil {
			line, _, _ := strings.Cut(string(b), "\n")
			target, found := strings.CutPrefix(line, "gitdir: ")
			if !found || target == "" {
				return "", "", false, false
			}
			if !strings.HasPrefix(target, "/") {
				target = path.Join(d, target)
			}
			return d, path.Clean(target), true, true
		}
		if d == "/" {
			return "", "", false, false
		}
	}
}
