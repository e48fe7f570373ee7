package policy

import (
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// Git rules. Hold or warn by blast radius: what cannot be recovered, or
// is lost for other people, holds (a force push, every uncommitted change
// in the worktree, untracked files, history rewrites, objects made
// unreachable for good); what loses one named thing that the reflog or
// the remote still has, or switches a safety check off, warns.

var gitRules = []*Rule{
	{
		ID: "git-force-push", Family: "git", Severity: Hold,
		Message:  "force push rewrites the remote branch and can destroy other people's commits",
		Hint:     "use git push --force-with-lease, or push to a new branch",
		Programs: []string{"git"},
		row:      "git push",
		Command:  forcePush,
		Raw:      `\bgit\b[^|;&\n]*\bpush\b[^|;&\n]*(\s--force(=|\s|$)|\s-[a-zA-Z]*f|\s\+\S|\s--mirror\b)`,
		Examples: []string{
			"git push --force origin main",
			"git push -f",
			"git push origin +main",
			"git push origin +HEAD:refs/heads/main",
			"git -C repo -c core.x=y --no-pager push -uf origin main",
			"git --git-dir=.git --work-tree=. push --force",
			"git -P push --for origin main",
			`git push --for"ce"`,
			"git push origin main --force",
			"git push --mirror",
			"git push --mirror --force",
			"g''it push -f",
			"git push -o ci.skip -f origin main",
			"cd sub && git push --force-with-lease --force",
			"git push -f origin main -$(cat opts)", // the unknown word is not taken for -n
		},
		NotExamples: []string{
			"git push --force-with-lease origin main",
			"git push --force-if-includes --force-with-lease",
			"git push origin main",
			"git push -u origin feature",
			"git push -f --dry-run",
			"git push -fn origin main",
			"git push --dry -f",
			`git commit -m "git push --force"`,
			"echo git push -f",
		},
	},
	{
		ID: "git-push-delete-main", Family: "git", Severity: Hold,
		Message:  "deletes the remote's main branch or a release branch (or branches chosen at run time, which may include them), which everyone else builds on",
		Hint:     "delete only your own feature branches, and ask the owner about shared ones",
		Programs: []string{"git"},
		row:      "git push",
		Command: func(_ *Ctx, c *parse.Command) bool {
			for _, b := range pushDeletes(c) {
				if mayBeProtected(b) {
					return true
				}
			}
			return false
		},
		Raw: `\bgit\b[^|;&\n]*\bpush\b[^|;&\n]*(--delete|\s-d)\s[^|;&\n]*\b(main|master|trunk|production)\b`,
		Examples: []string{"git push origin --delete main", "git push origin :master", "git push -d origin release/1.2",
			"git push origin --delete $(git branch -r | sed 's/origin\\///')", "git push origin \":$(cat branch.txt)\""},
		NotExamples: []string{"git push origin --delete feature/x", "git push origin main", "git push origin :old-topic",
			"git push origin --delete \"feature/$(cat name)\""},
	},
	{
		ID: "git-push-delete", Family: "git", Severity: Warn,
		Message:  "deletes a branch or tag on the remote (other clones may still have it)",
		Hint:     "check the branch is merged (git branch -r --merged) before deleting it on the remote",
		Programs: []string{"git"},
		row:      "git push",
		Command: func(_ *Ctx, c *parse.Command) bool {
			bs := pushDeletes(c)
			for _, b := range bs {
				if mayBeProtected(b) {
					return false // git-push-delete-main holds it
				}
			}
			return len(bs) > 0 || c.Flag("prune")
		},
		Examples:    []string{"git push origin --delete feature/x", "git push origin :old-topic", "git push --prune origin"},
		NotExamples: []string{"git push origin feature/x", "git push origin main:main", "git push origin --delete main"},
	},
	{
		ID: "git-reset-hard", Family: "git", Severity: Hold,
		Message:  "git reset --hard (or --merge) throws away uncommitted changes, which cannot be recovered",
		Hint:     "run git stash first (git stash push -u), or use git reset --keep, which refuses to lose changes",
		Programs: []string{"git"},
		row:      "git reset",
		Command:  func(_ *Ctx, c *parse.Command) bool { return c.Flag("discard") },
		Raw:      `\bgit\b[^|;&\n]*\breset\b[^|;&\n]*--(hard|merge)\b`,
		Examples: []string{
			"git reset --hard",
			"git reset --hard HEAD~3",
			"git reset origin/main --hard",
			"git -C ../other reset --hard",
			"git reset --merge ORIG_HEAD",
			"sh -c 'git reset --hard'",
		},
		NotExamples: []string{"git reset --soft HEAD~1", "git reset --mixed", "git reset HEAD file.txt", "git reset --keep HEAD~1", "git log --hard"},
	},
	{
		ID: "git-clean-force", Family: "git", Severity: Hold,
		Message:     "git clean -f deletes untracked files (and with -x ignored ones such as .env): new work that was never committed",
		Hint:        "preview with git clean -n, then delete the specific files or use git stash -u to keep them",
		Programs:    []string{"git"},
		Command:     func(x *Ctx, c *parse.Command) bool { return gitCleanScope(x, c) == discardAll },
		Raw:         `\bgit\b[^|;&\n]*\bclean\b[^|;&\n]*(\s-[a-zA-Z]*f|--force)`,
		Examples:    []string{"git clean -fd", "git clean -fdx", "git clean -f -X", "git clean --force", "git clean -e .env -ffd", "git clean -fd .", "git clean -fd -$(cat opts)"},
		NotExamples: []string{"git clean -n", "git clean -fdn", "git clean --dry-run -fd", "git clean -fi", "git clean -f --interactive", "git clean -fdX -- node_modules"},
	},
	{
		ID: "git-clean-paths", Family: "git", Severity: Warn,
		Message:     "git clean -f deletes the untracked files under the named paths",
		Hint:        "preview with git clean -n -- PATH first",
		Programs:    []string{"git"},
		Command:     func(x *Ctx, c *parse.Command) bool { return gitCleanScope(x, c) == discardPaths },
		Examples:    []string{"git clean -fdX -- node_modules", "git clean -fd build/ dist/"},
		NotExamples: []string{"git clean -fd", "git clean -n build/"},
	},
	{
		ID: "git-discard-all", Family: "git", Severity: Hold,
		Message:  "discards every uncommitted change in the worktree; edits that were never committed cannot be recovered",
		Hint:     "run git stash push -u first, or restore only the files you mean (git restore -- FILE)",
		Programs: []string{"git"},
		Command:  func(x *Ctx, c *parse.Command) bool { return gitDiscard(x, c) == discardAll },
		Raw:      `\bgit\b[^|;&\n]*\b(checkout|restore)\b[^|;&\n]*\s(\.|:/|-f|--force)(\s|$)|\bgit\b[^|;&\n]*\bswitch\b[^|;&\n]*(\s-f|--force|--discard-changes)`,
		Examples: []string{
			"git checkout .",
			"git checkout -- .",
			"git checkout HEAD -- .",
			"git checkout -f",
			"git checkout -f main",
			"git checkout --force other",
			"git restore .",
			"git restore --worktree --staged :/",
			"git switch -f main",
			"git switch --discard-changes main",
			"git -C /home/user/project checkout -- .",
			"git checkout -$(cat opts) -- .", // the unknown word is not taken for -p
		},
		NotExamples: []string{
			"git checkout main",
			"git checkout -b feature",
			"git checkout -- src/app.ts",
			"git checkout -p -- .",
			"git restore --patch .",
			"git restore --staged .",
			"git switch main",
			"git checkout --theirs -- .",
		},
	},
	{
		ID: "git-discard-tree", Family: "git", Severity: Hold,
		Message:  "discards every uncommitted change under a directory; edits that were never committed cannot be recovered",
		Hint:     "run git stash push -u -- DIR first, or restore only the files you mean (git restore -- FILE)",
		Programs: []string{"git"},
		Command:  func(x *Ctx, c *parse.Command) bool { return gitDiscard(x, c) == discardTree },
		Raw:      `\bgit\b[^|;&\n]*\b(checkout|restore)\b[^|;&\n]*\s\S+/(\s|$)`,
		Examples: []string{
			"git restore --worktree src/",
			"git restore --source=HEAD~2 lib/",
			"git checkout -- lib/",
			"git checkout HEAD -- 'src/*.go'",
		},
		NotExamples: []string{
			"git restore src/app.ts",
			"git restore --staged src/",
			"git checkout -- README.md",
		},
	},
	{
		ID: "git-discard-paths", Family: "git", Severity: Warn,
		Message:  "discards the uncommitted changes in the named files",
		Hint:     "make sure the changes are not needed (git diff -- FILE), or stash them first",
		Programs: []string{"git"},
		Command:  func(x *Ctx, c *parse.Command) bool { return gitDiscard(x, c) == discardPaths },
		Examples: []string{
			"git checkout -- src/app.ts",
			"git checkout HEAD~1 -- README.md",
			"git checkout main src/app.ts",
			"git restore src/app.ts",
			"git restore --source=HEAD~2 lib/app.go",
		},
		NotExamples: []string{
			"git checkout main",
			"git checkout -b feature origin/feature",
			"git restore --staged src/app.ts",
			"git checkout --ours -- conflicted.txt",
			"git checkout .",
		},
	},
	{
		ID: "git-stash-clear", Family: "git", Severity: Hold,
		Message:     "git stash clear deletes every stash at once; the stashed work is not on any branch",
		Hint:        "drop the one stash you mean (git stash drop stash@{N}) after checking it with git stash show -p",
		Programs:    []string{"git"},
		Command:     func(_ *Ctx, c *parse.Command) bool { return c.Row == "git stash clear" },
		Raw:         `\bgit\b[^|;&\n]*\bstash\s+clear\b`,
		Examples:    []string{"git stash clear", "git -C . stash clear"},
		NotExamples: []string{"git stash", "git stash list", "git stash drop"},
	},
	{
		ID: "git-stash-drop", Family: "git", Severity: Warn,
		Message:     "drops a stash; its work is not on any branch",
		Hint:        "check it first with git stash show -p, or apply it with git stash pop instead",
		Programs:    []string{"git"},
		Command:     func(_ *Ctx, c *parse.Command) bool { return c.Row == "git stash drop" },
		Examples:    []string{"git stash drop", "git stash drop stash@{1}"},
		NotExamples: []string{"git stash pop", "git stash apply", "git stash clear"},
	},
	{
		ID: "git-branch-force-delete", Family: "git", Severity: Warn,
		Message:  "force-deletes a branch even if its commits are merged nowhere (the reflog keeps them for a while)",
		Hint:     "use git branch -d, which refuses to delete unmerged work",
		Programs: []string{"git"},
		row:      "git branch",
		Command: func(_ *Ctx, c *parse.Command) bool {
			return c.Flag("force-delete") || c.Flag("delete") && c.Flag("force")
		},
		Raw:         `\bgit\b[^|;&\n]*\bbranch\b[^|;&\n]*(\s-[a-zA-Z]*D|--delete\s+--force|--force\s+--delete)`,
		Examples:    []string{"git branch -D feature", "git branch --delete --force old", "git branch -d -f topic", "git branch -Dr origin/x"},
		NotExamples: []string{"git branch -d merged", "git branch -a", "git branch new-branch"},
	},
	{
		ID: "git-worktree-force-remove", Family: "git", Severity: Warn,
		Message:  "removes a worktree together with its uncommitted changes",
		Hint:     "commit or stash in that worktree first, then git worktree remove without --force",
		Programs: []string{"git"},
		Command: func(_ *Ctx, c *parse.Command) bool {
			return c.Row == "git worktree remove" && c.Flag("force")
		},
		Examples:    []string{"git worktree remove --force ../wt", "git worktree remove -f ../wt"},
		NotExamples: []string{"git worktree remove ../wt", "git worktree add ../wt", "git worktree prune"},
	},
	{
		ID: "git-no-verify", Family: "git", Severity: Warn,
		Message:  "skips the repository's hooks (--no-verify, commit -n, hooks path or husky switched off): checks the project relies on do not run",
		Hint:     "run the hooks and fix what they report; if a hook is broken, say so instead of skipping it",
		Programs: []string{"git"},
		Command:  gitHooksOff,
		Raw:      `\bgit\b[^|;&\n]*\s--no-verify\b`,
		Examples: []string{
			"git commit --no-verify -m wip",
			"git commit -nm wip",
			"git commit -a -n -m wip",
			"git push --no-verify",
			"git merge --no-verify topic",
			"git -c core.hooksPath=/dev/null commit -m x",
			"HUSKY=0 git commit -m x",
		},
		NotExamples: []string{
			`git commit -m "fix -n handling"`,
			"git commit -am 'add --no-verify docs'",
			"git push -n",
			"git -c core.hooksPath=.githooks commit -m x",
		},
	},
	{
		ID: "git-signing-off", Family: "git", Severity: Warn,
		Message:  "switches commit or tag signing off for this command, so the result is unsigned where the project expects signatures",
		Hint:     "sign as configured; if the signing key is unavailable, stop and say so",
		Programs: []string{"git"},
		Command:  gitSigningOff,
		Raw:      `\bgit\b[^|;&\n]*(--no-gpg-sign|gpgsign=false)`,
		Examples: []string{
			"git -c commit.gpgsign=false commit -m x",
			"git -c tag.gpgSign=false tag v1",
			"git commit --no-gpg-sign -m x",
			"git rebase --no-gpg-sign main",
		},
		NotExamples: []string{"git commit -S -m x", "git -c user.name=x commit -m y", "git log --show-signature"},
	},
	{
		ID: "git-history-rewrite", Family: "git", Severity: Hold,
		Message:  "rewrites the whole history of the repository; every clone and open branch diverges",
		Hint:     "work on a fresh clone and coordinate with the repository's owner before rewriting history",
		Programs: []string{"git", "git-filter-repo", "bfg"},
		Command: func(_ *Ctx, c *parse.Command) bool {
			if c.Name != "git" {
				return !c.Flag("info")
			}
			return c.Row == "git filter-branch" || c.Row == "git filter-repo"
		},
		Raw:         `\bgit\b[^|;&\n]*\bfilter-(branch|repo)\b|\bgit-filter-repo\b|\bbfg\b`,
		Examples:    []string{"git filter-branch --tree-filter 'rm -f x' HEAD", "git filter-repo --path secret --invert-paths", "bfg --delete-files id_rsa"},
		NotExamples: []string{"git log --filter=blob:none", "git clone --filter=blob:none url", "bfg --help"},
	},
	{
		ID: "git-update-ref-delete", Family: "git", Severity: Hold,
		Message:     "deletes a ref directly, bypassing the checks git branch and git tag make",
		Hint:        "delete branches with git branch -d and tags with git tag -d",
		Programs:    []string{"git"},
		row:         "git update-ref",
		Command:     func(_ *Ctx, c *parse.Command) bool { return c.Flag("delete") },
		Raw:         `\bgit\b[^|;&\n]*\bupdate-ref\s+(-d|--delete)\b`,
		Examples:    []string{"git update-ref -d refs/heads/main", "git update-ref --delete HEAD"},
		NotExamples: []string{"git update-ref refs/heads/x HEAD", "git show-ref"},
	},
	{
		ID: "git-prune-unreachable", Family: "git", Severity: Hold,
		Message:  "expires the reflog or prunes unreachable objects now: the safety net that recovers lost commits is destroyed",
		Hint:     "leave the reflog and gc's default expiry alone; plain git gc is safe",
		Programs: []string{"git"},
		Command: func(_ *Ctx, c *parse.Command) bool {
			return c.Row == "git reflog expire" || c.Row == "git reflog delete" || c.Row == "git gc" && c.Flag("prune-now")
		},
		Raw:         `\bgit\b[^|;&\n]*\b(reflog\s+(expire|delete)|gc\b[^|;&\n]*--prune=(now|all))`,
		Examples:    []string{"git reflog expire --expire=now --all", "git gc --prune=now --aggressive", "git reflog delete HEAD@{1}"},
		NotExamples: []string{"git gc", "git reflog", "git reflog show", "git gc --aggressive"},
	},
}

// forcePush recognises the spellings of a forced push: --force (and its
// abbreviations), -f in a cluster, a +refspec, and --mirror (which
// force-updates and deletes remote refs to match); a dry run pushes
// nothing.
func forcePush(_ *Ctx, c *parse.Command) bool {
	if c.Flag("dry-run") {
		return false
	}
	if c.Flag("force") {
		return true
	}
	for _, op := range c.Operands(parse.RoleData) {
		if strings.HasPrefix(op.Value, "+") || strings.Contains(op.Value, ":+") {
			return true
		}
	}
	return false
}

// pushDeletes returns the remote refs a push deletes: the operands after
// the remote with --delete/-d, and ":ref" refspecs.
func pushDeletes(c *parse.Command) []string {
	var out []string
	del := c.Flag("delete")
	for i, op := range c.Operands(parse.RoleData) {
		v := op.Value
		switch {
		case strings.HasPrefix(v, ":") && len(v) > 1:
			out = append(out, v[1:])
		case del && i > 0:
			out = append(out, v)
		}
	}
	return out
}

// mayBeProtected reports whether a ref is, or with its unknown parts
// could be, a branch others build on: a list of refs computed at run time
// ($(git branch -r …)) deletes main along with the rest, while
// "feature/$X" cannot be main.
func mayBeProtected(ref string) bool {
	if !strings.Contains(ref, parse.Unknown) {
		return protectedBranch(ref)
	}
	known := strings.Split(strings.TrimPrefix(ref, "refs/heads/"), parse.Unknown)
	for _, b := range append(protectedNames, "release/x", "release-x") {
		if matchesParts(b, known) {
			return true
		}
	}
	return false
}

var protectedNames = []string{"main", "master", "trunk", "develop", "development", "production", "prod", "stable", "gh-pages"}

// protectedBranch reports whether a ref names a branch others build on.
func protectedBranch(ref string) bool {
	ref = strings.TrimPrefix(ref, "refs/heads/")
	if anyString(protectedNames, ref) {
		return true
	}
	return strings.HasPrefix(ref, "release/") || strings.HasPrefix(ref, "release-")
}

type discardKind uint8

const (
	discardNone discardKind = iota
	discardPaths
	discardTree // every change under a directory
	discardAll
)

// gitDiscard classifies checkout, restore and switch by what they throw
// away from the worktree.
func gitDiscard(x *Ctx, c *parse.Command) discardKind {
	switch c.Row {
	case "git checkout":
		if c.Flag("patch") || c.Flag("conflict") {
			return discardNone // conflict resolution, or interactive
		}
		if c.Flag("force") {
			return discardAll
		}
		if len(c.OptionValues("-b")) > 0 { // -b, -B, --orphan: a new branch
			return discardNone
		}
		return pathsDiscard(x, c, checkoutPaths(c))
	case "git restore":
		if c.Flag("patch") || c.Flag("conflict") {
			return discardNone
		}
		if c.Flag("staged") && !c.Flag("worktree") {
			return discardNone
		}
		return pathsDiscard(x, c, c.Operands(parse.RoleData))
	case "git switch":
		if c.Flag("force") {
			return discardAll
		}
	}
	return discardNone
}

// checkoutPaths returns the pathspecs of a checkout: the operands after
// "--", or, without "--", the operands after the tree-ish when there are
// several. A single operand is a branch unless it can only be a path.
func checkoutPaths(c *parse.Command) []parse.Word {
	var ops, afterDashes []parse.Word
	dashes := false
	for _, ra := range c.Roles {
		if ra.Role != parse.RoleData || ra.Opt != "" {
			continue
		}
		ops = append(ops, ra.Word)
		if ra.AfterDashes {
			afterDashes = append(afterDashes, ra.Word)
			dashes = true
		}
	}
	switch {
	case dashes:
		return afterDashes
	case len(ops) >= 2:
		return ops[1:]
	case len(ops) == 1 && wholeTree(ops[0].Value):
		return ops
	}
	return nil
}

// wholeTree reports whether a pathspec takes the entire worktree.
func wholeTree(v string) bool {
	switch v {
	case ".", "./", ":/", ":/.", "*", ":(top)", ":(glob)**", "**":
		return true
	}
	return false
}

func pathsDiscard(x *Ctx, c *parse.Command, paths []parse.Word) discardKind {
	if len(paths) == 0 {
		return discardNone
	}
	kind := discardPaths
	for _, p := range paths {
		if wholeTree(p.Value) {
			return discardAll
		}
		if !p.Literal() || strings.ContainsAny(p.Value, "*?[") {
			// A pattern (git matches quoted ones itself) or an unknown
			// path can take any amount.
			kind = discardTree
			continue
		}
		d := abs(x.dirOf(c), p.Value)
		switch {
		case d != "" && d == x.Project:
			return discardAll
		case strings.HasSuffix(p.Value, "/") || d != "" && x.dirExists(d):
			kind = discardTree
		}
	}
	return kind
}

// dirExists reports whether p is an existing directory.
func (x *Ctx) dirExists(p string) bool {
	fi, err := x.fs().Lstat(p)
	return err == nil && fi.IsDir()
}

// gitGlobalConfigs returns the -c KEY=VALUE settings given before the
// subcommand (git's row gives them the data role), keys lower-cased.
func gitGlobalConfigs(c *parse.Command) map[string]string {
	if c.Row != "git" && !strings.HasPrefix(c.Row, "git ") {
		return nil
	}
	var out map[string]string
	for _, w := range c.OptionValues("-c") {
		k, val, _ := strings.Cut(w.Value, "=")
		if out == nil {
			out = map[string]string{}
		}
		out[strings.ToLower(k)] = val
	}
	return out
}

// gitHooksOff reports a git command run with its hooks switched off:
// --no-verify (commit -n), a hooks path of /dev/null, or HUSKY=0 given to
// this command (a HUSKY=0 the whole session runs with is the user's
// choice, not the agent's).
func gitHooksOff(_ *Ctx, c *parse.Command) bool {
	switch c.Row {
	case "git commit", "git push", "git merge", "git rebase", "git pull": // git merge: am, cherry-pick, revert too
	default:
		return false
	}
	if hp, ok := gitGlobalConfigs(c)["core.hookspath"]; ok && (hp == "/dev/null" || hp == "") {
		return true
	}
	for _, a := range c.Assigns {
		if a.Name == "HUSKY" && a.Value.Value == "0" || a.Name == "HUSKY_SKIP_HOOKS" && a.Value.Value == "1" {
			return true
		}
	}
	return c.Flag("hooks-off")
}

// gitSigningOff reports a git command run with signing switched off.
func gitSigningOff(_ *Ctx, c *parse.Command) bool {
	for k, v := range gitGlobalConfigs(c) {
		if (k == "commit.gpgsign" || k == "tag.gpgsign" || k == "rebase.gpgsign" || k == "push.gpgsign") && isFalse(v) {
			return true
		}
	}
	return c.Flag("signing-off")
}

func isFalse(v string) bool {
	switch strings.ToLower(v) {
	case "false", "no", "off", "0":
		return true
	}
	return false
}

// gitCleanScope classifies git clean by what it deletes: every untracked
// file (no pathspec, or one that takes the whole tree), or those under
// the named paths.
func gitCleanScope(x *Ctx, c *parse.Command) discardKind {
	if c.Row != "git clean" {
		return discardNone
	}
	if !c.Flag("force") || c.Flag("dry-run") || c.Flag("interactive") {
		return discardNone
	}
	ops := c.Operands(parse.RoleData) // its pathspecs
	if len(ops) == 0 {
		return discardAll
	}
	if k := pathsDiscard(x, c, ops); k != discardTree {
		return k
	}
	// Cleaning named directories is what clean with paths is for: it takes
	// untracked files there, not edits.
	return discardPaths
}
