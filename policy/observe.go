package policy

import (
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/internal/paths"
	"github.com/guard-exec/guard-exec/parse"
)

// Observes reports whether a command line only looks: every command it
// runs reads or reports (cat, grep, ls, git status, …) and no redirection
// writes to a file. The loop brake counts such commands between two
// failures of the same command as gathering information, which does not
// make a third attempt turn out differently; anything else that ran may
// have changed what the failing command depends on — installed a package,
// started a service, freed a port — so it lifts the brake. The list is
// short on purpose: a command missing from it only costs a missed loop,
// while a command wrongly on it could hold work that was about to succeed.
func Observes(a *parse.Analysis) bool {
	if a == nil || a.Err != nil || len(a.Dynamic) > 0 {
		return false
	}
	for _, c := range a.Commands {
		if !observes(c) {
			return false
		}
	}
	return true
}

func observes(c *parse.Command) bool {
	if c.NameDynamic || c.Remote != "" || c.Synthetic {
		return false
	}
	for _, r := range c.Redirs {
		if !redirectLooks(r) {
			return false
		}
	}
	if c.Function {
		return true // its body's commands are judged on their own
	}
	for _, w := range c.Wrappers {
		if !lookWrappers()[w] {
			return false
		}
	}
	if f, ok := observers()[c.Name]; ok {
		return f == nil || f(c)
	}
	return false
}

// lookWrappers leave what the command does as it is (sudo does not: a
// privileged read of a root-only file is rare and a privileged anything
// else is not looking).
var lookWrappers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"time": true, "command": true, "builtin": true, "nice": true, "timeout": true,
		"stdbuf": true, "nohup": true, "xargs": true, "env": true}
})

// redirectLooks reports whether a redirection leaves every file as it was:
// reads, duplications of descriptors, writes to the terminal or the bin.
func redirectLooks(r parse.Redirect) bool {
	if !r.Write && !r.Append {
		return true
	}
	switch r.Op {
	case ">&", "<&":
		if v := r.Target.Value; v == "-" || v != "" && strings.Trim(v, "0123456789") == "" {
			return true
		}
	}
	switch r.Path {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty":
		return true
	}
	return false
}

// observers are the programs that only look, with a check of their
// arguments where some of them write (nil: any arguments).
var observers = sync.OnceValue(func() map[string]func(c *parse.Command) bool {
	return map[string]func(c *parse.Command) bool{
		// files and text
		"cat": nil, "tac": nil, "head": nil, "tail": nil, "less": nil, "more": nil, "bat": nil, "nl": nil,
		"wc": nil, "grep": nil, "egrep": nil, "fgrep": nil, "rg": nil, "ag": nil, "ack": nil, "cut": nil,
		"tr": nil, "uniq": nil, "column": nil, "diff": nil, "cmp": nil, "comm": nil, "jq": nil, "od": nil,
		"xxd": nil, "hexdump": nil, "strings": nil, "file": nil, "stat": nil, "md5sum": nil, "sha1sum": nil,
		"sha256sum": nil, "sha512sum": nil, "cksum": nil, "readlink": nil, "realpath": nil, "basename": nil,
		"dirname": nil, "fold": nil, "expand": nil, "rev": nil,
		"sort": func(c *parse.Command) bool {
			return len(c.OptionValues("-o")) == 0 // sort -o writes
		},
		"sed": func(c *parse.Command) bool {
			return c.Row == "sed" && !c.Flag("edits") // sed's row: -i, --in-place
		},
		"find": findLooks, "fd": nil, "ls": nil, "tree": nil, "du": nil, "df": nil,
		// the shell and the system
		"echo": nil, "printf": nil, "true": nil, "false": nil, "test": nil, "[": nil, "[[": nil, "pwd": nil,
		"cd": nil, "pushd": nil, "popd": nil, "type": nil, "which": nil, "whereis": nil, "hash": nil,
		"sleep": nil, "date": nil, "id": nil, "whoami": nil, "groups": nil, "uname": nil, "hostname": nil,
		"uptime": nil, "nproc": nil, "free": nil, "ps": nil, "pgrep": nil, "lsof": nil, "printenv": nil,
		"locale": nil, "tty": nil, "man": nil, "help": nil, "info": nil, "apropos": nil, "ldd": nil,
		"nm": nil, "objdump": nil, "readelf": nil, "seq": nil, "expr": nil,
		// env with a command is peeled as a wrapper; what is left prints
		// the environment, unless it was given NAME=VALUE operands.
		"env": func(c *parse.Command) bool { return len(c.Operands(parse.RoleData)) == 0 },
		// version control and toolchains, their reporting subcommands
		"git":        gitLooks,
		"go":         goLooks,
		"guard-exec": guardLooks,
	}
})

// guardLooks: guard-exec's own commands that read (an agent asking the
// ledger why it is held is gathering information).
func guardLooks(c *parse.Command) bool {
	ops := c.Operands(parse.RoleData)
	if c.Row != paths.Name || c.Flag("runs") || len(ops) == 0 {
		return false
	}
	switch ops[0].Value {
	case "log", "show", "stats", "loops", "rules", "explain", "check", "version", "help":
		return true
	}
	return false
}

// findLooks: find only looks unless it runs, deletes or writes (its
// actions' meanings, which parse records).
func findLooks(c *parse.Command) bool {
	return !c.Flag("runs") && !c.Flag("deletes") && !c.Flag("writes")
}

// gitReports are the rows of git subcommands that only read the
// repository.
var gitReports = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"git status": true, "git log": true, "git diff": true, "git show": true, "git blame": true, "git grep": true,
		"git ls-files": true, "git ls-tree": true, "git rev-parse": true, "git rev-list": true, "git describe": true,
		"git shortlog": true, "git cat-file": true, "git whatchanged": true, "git help": true, "git version": true,
		"git merge-base": true, "git config get": true, "git config list": true, "git stash list": true, "git stash show": true, "git worktree list": true,
	}
})

func gitLooks(c *parse.Command) bool {
	if gitReports()[c.Row] {
		return true
	}
	ops := c.Operands(parse.RoleData)
	switch c.Row {
	case "git branch", "git tag":
		// Without operands they list, unless told to change something.
		for _, m := range []string{"delete", "force-delete", "force", "rename", "copy", "upstream"} {
			if c.Flag(m) {
				return false
			}
		}
		return len(ops) == 0 && len(c.OptionValues("-u")) == 0 && len(c.OptionValues("-m")) == 0
	case "git remote":
		return len(ops) == 0 || ops[0].Value == "show" || ops[0].Value == "get-url"
	case "git config":
		return c.Flag("reads")
	}
	return false
}

// goLooks: go's reporting subcommands. go vet is a diagnostic, which the
// brake's hint recommends; like the others it writes only to the build
// cache.
func goLooks(c *parse.Command) bool {
	switch c.Row {
	case "go version", "go list", "go doc", "go vet", "go help":
		return true
	case "go env":
		return !c.Flag("writes")
	}
	return false
}
