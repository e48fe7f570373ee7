package worktree

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Bounds on asking git, the fallback for a tree too large to walk.
const (
	gitTimeout   = 2 * time.Second
	gitMaxOutput = 4 << 20
	gitMaxPaths  = 20_000
)

var errTooMuch = errors.New("worktree: git listed more than the bound")

// gitChanged asks git which files differ from the index or HEAD, or are
// untracked, and reports the first of them (or its directory, which moves
// when a file is deleted or replaced) that changed as the walker counts.
// Edits an agent makes leave exactly such files, so a tree too large to walk
// can still be judged; a file edited back to its committed content is the
// case this misses. ok is false when git could not answer within its
// bounds.
func (w *walker) gitChanged(root string) (changed bool, path string, ok bool) {
	out, err := gitStatus(root)
	if err != nil {
		return false, "", false
	}
	paths := splitStatus(out)
	if len(paths) > gitMaxPaths {
		return false, "", false
	}
	seen := map[string]bool{}
	for _, rel := range paths {
		p := filepath.Join(root, filepath.FromSlash(rel))
		for _, q := range []string{p, filepath.Dir(p)} {
			if seen[q] {
				continue
			}
			seen[q] = true
			if t, ok := lchangeTime(q); ok && w.counts(t) {
				return true, q, true
			}
		}
	}
	return false, "", true
}

// gitStatus runs git status without taking the index lock (a refresh of
// the index would itself be a change) and bounds its output and time.
func gitStatus(root string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "--no-optional-locks", "-C", root,
		"status", "--porcelain=v1", "-z", "--untracked-files=all")
	cmd.Stdin = nil
	var out limitedBuffer
	out.max = gitMaxOutput
	cmd.Stdout = &out
	cmd.Stderr = nil
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	if err := cmd.Run(); err != nil {
		return nil, err
	}
	if out.over {
		return nil, errTooMuch
	}
	return out.b.Bytes(), nil
}

// splitStatus returns the paths of `git status --porcelain=v1 -z`: each
// entry is "XY PATH\0", and a rename or copy adds "ORIG\0" after it.
func splitStatus(out []byte) []string {
	var paths []string
	for len(out) > 0 {
		i := bytes.IndexByte(out, 0)
		if i < 0 {
			i = len(out)
		}
		entry := out[:i]
		out = out[min(i+1, len(out)):]
		if len(entry) < 4 {
			continue
		}
		paths = append(paths, string(entry[3:]))
		if x, y := entry[0], entry[1]; x == 'R' || x == 'C' || y == 'R' || y == 'C' {
			if j := bytes.IndexByte(out, 0); j >= 0 {
				paths = append(paths, string(out[:j]))
				out = out[j+1:]
			}
		}
	}
	return paths
}

// limitedBuffer keeps at most max bytes and notes that there was more.
type limitedBuffer struct {
	b    bytes.Buffer
	max  int
	over bool
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if l.b.Len()+len(p) > l.max {
		l.over = true
		return 0, errTooMuch
	}
	return l.b.Write(p)
}
