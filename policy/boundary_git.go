package policy

import (
	"path/filepath"
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// gitPlaceSettings name a place git takes hooks, templates or more
// configuration from, or allow a transport that runs commands: written
// with git config, whatever the value, they plant code for a later git
// command. Keys are lowercase; "*" is a subsection.
var gitPlaceSettings = []string{
	"core.hookspath", "include.path", "includeif.*.path", "init.templatedir", "uploadpack.packobjectshook",
	"remote.*.uploadpack", "remote.*.receivepack", "protocol.ext.allow", "protocol.allow",
	"filter.*.clean", "filter.*.smudge", "filter.*.process",
}

// gitCommandSettings hold a command git runs. Naming an installed program
// is ordinary setup (core.editor "code --wait", core.pager delta,
// credential.helper store); a value with shell syntax, an ssh
// ProxyCommand, or a program outside the system directories plants code
// (see commandValue).
var gitCommandSettings = []string{
	"core.fsmonitor", "core.pager", "core.editor", "core.sshcommand", "core.askpass", "core.gitproxy",
	"core.alternaterefscommand", "sequence.editor", "diff.external", "diff.*.textconv", "diff.*.command",
	"difftool.*.cmd", "mergetool.*.cmd", "merge.*.driver", "credential.helper", "credential.*.helper",
	"gpg.program", "gpg.*.program", "interactive.difffilter", "web.browser", "browser.*.cmd", "man.*.cmd",
	"pager.*", "sendemail.smtpserver", "sendemail.*.smtpserver",
}

// gitConfigCode reports whether a git command writes a setting that makes
// git run a command later: `git config core.hooksPath x`, `git config
// --global alias.x '!sh …'`, `git config set core.pager …`.
func gitConfigCode(c *parse.Command) bool {
	ops, ok := gitConfigSet(c)
	if !ok {
		return false
	}
	key, val := ops[0].Value, ops[1].Value
	if ops[0].Dynamic {
		return true // a setting the analysis cannot name
	}
	elsewhere := c.Flag("global") || c.Flag("system") || len(c.OptionValues("-f")) > 0 || len(c.OptionValues("--blob")) > 0
	if !elsewhere && strings.EqualFold(key, "core.hooksPath") && workTreeDir(ops[1]) {
		// The repository's own hooks in a directory of its work tree
		// (husky's .husky, .githooks): files as visible to review as any
		// other script of the project, unlike .git/hooks.
		return false
	}
	return gitCodeKey(key, val)
}

// gitConfigSet returns the key and value operands of a git config
// command that sets a value; ok is false for every other git command and
// for the ones that read, list or remove.
func gitConfigSet(c *parse.Command) ([]parse.Word, bool) {
	if c.Row != "git config" && c.Row != "git config set" || c.Flag("reads") || c.Flag("no-set") {
		return nil, false // git config get, unset, …: their own rows
	}
	ops := c.Operands(parse.RoleData)
	if len(ops) < 2 {
		return nil, false
	}
	return ops, true
}

// gitConfigSystem reports whether a git command sets a value in the
// system-wide configuration (/etc/gitconfig), which every user's git
// reads: a system path, whatever the key.
func gitConfigSystem(c *parse.Command) bool {
	_, ok := gitConfigSet(c)
	return ok && c.Flag("system")
}

// workTreeDir reports whether a relative path stays inside the work tree
// it is resolved against, outside its .git directory.
func workTreeDir(w parse.Word) bool {
	v := w.Value
	if !w.Literal() || v == "" || filepath.IsAbs(v) || strings.HasPrefix(v, "~") {
		return false
	}
	v = filepath.Clean(v)
	return v != "." && v != ".." && !strings.HasPrefix(v, "../") && v != ".git" && !strings.HasPrefix(v, ".git/")
}

// gitCodeKey reports whether setting key to val plants code: every
// place setting, a command setting with a risky value, an alias that
// starts with ! (a shell command).
func gitCodeKey(key, val string) bool {
	sec, sub, name, ok := splitGitKey(key)
	if !ok {
		return false
	}
	if sec == "alias" {
		v := strings.TrimLeft(val, " \t")
		return strings.HasPrefix(v, "!") || strings.Contains(val, parse.Unknown)
	}
	if sec == "url" && (name == "insteadof" || name == "pushinsteadof") {
		// Where every later clone, fetch and push goes, credentials with
		// it: url.https://evil.example/.insteadOf https://github.com/
		// swaps the code fetched. The same host by another protocol
		// (ssh for https) is routine setup.
		return strings.Contains(val, parse.Unknown) || urlHost(sub) != urlHost(val)
	}
	if gitKeyIn(gitPlaceSettings, sec, sub, name) {
		return true
	}
	if !gitKeyIn(gitCommandSettings, sec, sub, name) {
		return false
	}
	if sec == "core" && name == "fsmonitor" {
		switch strings.ToLower(strings.TrimSpace(val)) {
		case "true", "false", "":
			return false // the built-in daemon
		}
	}
	return riskyCommandValue(val)
}

// urlHost returns the host of a URL or of an scp-like address
// (git@github.com:org), lowercased, without user or port.
func urlHost(u string) string {
	if _, rest, ok := strings.Cut(u, "://"); ok {
		u = rest
	}
	if i := strings.IndexAny(u, "/"); i >= 0 {
		u = u[:i]
	}
	if i := strings.LastIndex(u, "@"); i >= 0 {
		u = u[i+1:]
	}
	if i := strings.Index(u, ":"); i >= 0 {
		u = u[:i]
	}
	return strings.ToLower(u)
}

// gitKeyIn reports whether a split key matches one of the patterns.
func gitKeyIn(patterns []string, sec, sub, name string) bool {
	for _, k := range patterns {
		ps, psub, pname, _ := splitGitKey(k)
		switch {
		case ps != sec:
		case pname == "*" && psub == "": // pager.*: every name, any subsection
			return true
		case pname != name:
		case psub == "*" && sub != "", psub == "" && sub == "", psub != "*" && psub == sub:
			return true
		}
	}
	return false
}

// codeRunners are programs that run the code they are given.
var codeRunners = []string{"sh", "bash", "zsh", "dash", "ksh", "fish", "perl", "ruby", "node", "env", "eval",
	"exec", "xargs", "curl", "wget", "nc", "socat", "busybox"}

// systemProgramDirs are where installed programs live.
var systemProgramDirs = []string{"/usr/", "/bin/", "/sbin/", "/opt/homebrew/", "/snap/", "/nix/", "/Applications/"}

// riskyCommandValue reports whether a command git will run through the
// shell does more than start an installed program: shell syntax, an ssh
// option that runs a command, or a program named by a path outside the
// system directories (./hook, /tmp/x, ~/bin/x).
func riskyCommandValue(val string) bool {
	if strings.Contains(val, parse.Unknown) || strings.ContainsAny(val, "|;&$()<>`!\n") {
		return true
	}
	lower := strings.ToLower(val)
	if strings.Contains(lower, "proxycommand") || strings.Contains(lower, "localcommand") {
		return true
	}
	fields := strings.Fields(val)
	if len(fields) == 0 {
		return false
	}
	switch prog := filepath.Base(fields[0]); {
	case contains(codeRunners, prog), strings.HasPrefix(prog, "python"):
		return true // sh -c …, python -c …: a script, not a program
	case !strings.Contains(fields[0], "/"):
		return false
	}
	for _, d := range systemProgramDirs {
		if strings.HasPrefix(fields[0], d) {
			return false
		}
	}
	return true
}

// splitGitKey splits "section[.subsection].name"; section and name are
// case-insensitive, the subsection is not.
func splitGitKey(key string) (sec, sub, name string, ok bool) {
	i := strings.IndexByte(key, '.')
	j := strings.LastIndexByte(key, '.')
	if i <= 0 || j == len(key)-1 {
		return "", "", "", false
	}
	sec, name = strings.ToLower(key[:i]), strings.ToLower(key[j+1:])
	if j > i {
		sub = key[i+1 : j]
	}
	return sec, sub, name, true
}
