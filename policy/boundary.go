package policy

import (
	"path/filepath"
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// finding is one outcome of the boundary pass; each is one rule.
type finding uint8

const (
	fNone finding = iota
	fOverwrite
	fDelete
	fCreate
	fPerm
	fSystem
	fPersist
	fGitConfig
	fCredRead
	fCredWrite
	fCredExfil
	fEnvExfil
	fSelfConfig
	fSelfLedger
	fSelfShim
	fSelfAgent
	fSelfProject
	fSelfEnv
	fSelfCommand
	nFindings
)

// boundaryState is the boundary pass over one analysis: every command's
// writes, reads and sends are judged once, and each rule of the boundary,
// credential and self-defence families reads its own list of spans.
type boundaryState struct {
	a      *parse.Analysis
	spans  [nFindings][]Span
	taints map[*parse.Command]taint // what each command's output carries, when anything
	files  map[string]taint         // files a tainted command wrote (cp key /tmp/k), resolved
	// netWriters are commands with a /dev/tcp or /dev/udp operand.
	netWriters map[*parse.Command]bool

	dirs      *PathCache // resolved directories when Ctx.Paths is nil (paths.go)
	rootsDone bool
	roots     []string // write roots with symlinks resolved, when they differ
	self      *selfSet
}

func (x *Ctx) state() *boundaryState {
	if x.bnd == nil {
		x.bnd = &boundaryState{}
	}
	return x.bnd
}

// boundary runs the pass over a once and returns its findings.
func (x *Ctx) boundary(a *parse.Analysis) *boundaryState {
	b := x.state()
	if b.a == a {
		return b
	}
	b.a, b.spans, b.taints, b.files, b.netWriters = a, [nFindings][]Span{}, nil, nil, nil
	for _, c := range a.Commands {
		if c.Remote != "" {
			continue // its paths are another machine's
		}
		ws := x.writes(c)
		for _, w := range ws {
			b.add(x.judgeWrite(w), c)
			if netPath(w.t.Path) {
				if b.netWriters == nil {
					b.netWriters = map[*parse.Command]bool{}
				}
				b.netWriters[c] = true // tee /dev/tcp/h/p sends what it reads
			}
		}
		if c.Name == "git" && gitConfigCode(c) {
			b.add(fGitConfig, c)
		}
		read, code := x.readTaint(c), taint(0)
		if src := interpCode(c); src != "" {
			code = codeTaint(src)
			if codePersists(src) {
				b.add(fPersist, c)
			}
		}
		if read != 0 || code&taintCred != 0 {
			b.add(fCredRead, c)
		}
		if t := x.outTaint(c, read, code) | b.upstreamTaint(c); t != 0 {
			if b.taints == nil {
				b.taints = map[*parse.Command]taint{}
			}
			b.taints[c] = t
			x.taintWrites(b, ws, t)
		}
		if selfCommand(c) {
			b.add(fSelfCommand, c)
		}
		if selfEnvCommand(c) {
			b.add(fSelfEnv, c)
		}
	}
	for _, as := range a.Assignments {
		// Prefixes (VAR=x cmd) are found on their command, with env's.
		if !as.Prefix && isSelfVar(as.Name) {
			b.spans[fSelfEnv] = append(b.spans[fSelfEnv], Span{Text: as.Name + "=…", Pos: as.Pos})
		}
	}
	x.exfil(a, b)
	return b
}

// add records a finding for a command, once per command.
func (b *boundaryState) add(f finding, c *parse.Command) {
	if f == fNone {
		return
	}
	s := b.spans[f]
	if n := len(s); n > 0 && s[n-1].Pos == c.Pos && s[n-1].Text == c.Span {
		return
	}
	b.spans[f] = append(s, Span{Text: c.Span, Pos: c.Pos})
}

// spansOf makes a Script rule of one finding.
func spansOf(f finding) func(*Ctx, *parse.Analysis) []Span {
	return func(x *Ctx, a *parse.Analysis) []Span { return x.boundary(a).spans[f] }
}

// judgeWrite gives a write its one finding, the most specific first:
// guard-exec's own files, credential stores, persistence points, then the
// allowed roots, system directories, and outside the roots what the write
// does to what is there.
func (x *Ctx) judgeWrite(w write) finding {
	if w.persist {
		return fPersist
	}
	t := w.t
	if t.Known && skipDevice(t.Path) {
		return fNone // before resolving: /dev/stderr leads to /proc/self/fd/2 and on to a pipe
	}
	var p string
	exists := false
	switch {
	case t.Known:
		p, exists = x.locate(t, w.follow)
		if t.Glob {
			exists = true // a pattern names files that are there
		}
	case t.Under != "":
		// Somewhere below a known directory: judge it as files landing
		// there.
		p = x.resolve(t.Under)
		w.kind = wInto
	default:
		return fNone
	}
	if skipDevice(p) {
		return fNone
	}
	if f := x.selfWrite(p, w); f != fNone {
		return f
	}
	if x.credWrite(p, w) {
		return fCredWrite
	}
	if x.persistWrite(p, w) {
		return fPersist
	}
	if x.inWriteRoots(p) || x.routineFile(p) {
		return fNone
	}
	if x.systemPath(p) {
		if w.recursive {
			return fNone // rm -r and find -delete there are the filesystem rules' to judge
		}
		return fSystem
	}
	return outside(w, exists)
}

// ciFiles are the environment variables naming files a CI runner reads
// back after a step (GitHub Actions); steps append to them routinely.
var ciFiles = []string{"GITHUB_ENV", "GITHUB_OUTPUT", "GITHUB_PATH", "GITHUB_STEP_SUMMARY", "GITHUB_STATE"}

// routineFile reports whether p is a file outside the roots that ordinary
// work writes: ~/.ssh/known_hosts (ssh-keyscan >> it in every CI job that
// clones over ssh) and the CI runner's step files.
func (x *Ctx) routineFile(p string) bool {
	if x.Home != "" && p == x.Home+"/.ssh/known_hosts" {
		return true
	}
	for _, v := range ciFiles {
		if f := x.Env[v]; filepath.IsAbs(f) && (p == filepath.Clean(f) || p == x.resolve(f)) {
			return true
		}
	}
	return false
}

// outside judges a write outside the allowed roots by what it does to
// what is there: destroying or changing an existing file is held,
// creating one only warned about.
func outside(w write, exists bool) finding {
	switch w.kind {
	case wDelete:
		if exists && !w.recursive {
			return fDelete
		}
	case wWrite, wAppend, wModify:
		if exists {
			return fOverwrite
		}
		if w.kind != wModify {
			return fCreate
		}
	case wMeta:
		if exists {
			return fPerm
		}
	case wTouch, wMkdir:
		if !exists {
			return fCreate
		}
	case wInto, wCreate:
		return fCreate
	}
	return fNone
}

// skipDevice reports whether a write goes to a device or descriptor the
// boundary leaves alone: /dev/null, /dev/stderr, /dev/fd/N, /dev/tty.
// Network pseudo-files (/dev/tcp, /dev/udp) are judged as sends.
func skipDevice(p string) bool {
	return within(p, "/dev") || within(p, "/proc") && procFd(p)
}

// persistWrite reports whether a write plants something that runs later.
// Deleting a hook or a profile is not planting; creating an empty file or
// directory is not either.
func (x *Ctx) persistWrite(p string, w write) bool {
	switch w.kind {
	case wDelete, wTouch, wMkdir:
		return false
	}
	if x.persistencePoint(p) {
		return true
	}
	// Unknown files landing in a directory that holds persistence points
	// (tar -x -C ~, cp -r dotfiles/. ~/). A system directory is held as
	// one anyway.
	return (w.kind == wInto || w.kind == wWrite) && x.holdsPersistence(p) && !x.systemPath(p)
}

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
	sub, rest := gitSub(c)
	if sub != "config" {
		return false
	}
	a := ParseArgs(rest, OptSpec{Short: "f", Long: []string{"file", "blob", "type", "default", "comment", "value"}})
	if a.Has("l", "get", "get-all", "get-regexp", "get-urlmatch", "unset", "unset-all", "list",
		"remove-section", "rename-section", "edit", "get-color", "get-colorbool", "show-origin", "show-scope") {
		return false
	}
	ops := a.Operands
	if len(ops) > 0 {
		switch ops[0].Value {
		case "set":
			ops = ops[1:]
		case "get", "unset", "list", "edit", "rename-section", "remove-section":
			return false
		}
	}
	if len(ops) < 2 {
		return false
	}
	key, val := ops[0].Value, ops[1].Value
	if ops[0].Dynamic {
		return true // a setting the analysis cannot name
	}
	return gitCodeKey(key, val)
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

var boundaryRules = []*Rule{
	{
		ID: "boundary-overwrite-outside", Family: "boundary", Severity: Hold,
		Message: "overwrites or changes an existing file outside the project and the temp and cache directories",
		Hint:    "write the result inside the project or a temp dir, or ask the user to change that file",
		Script:  spansOf(fOverwrite),
		Examples: []string{
			"echo x > ~/notes.txt",
			"echo x >> ~/notes.txt",
			"cp README.md ~/notes.txt",
			"sed -i s/a/b/ ~/notes.txt",
			"tee ~/notes.txt < README.md",
			"truncate -s 0 ~/notes.txt",
			"curl -o ~/notes.txt https://example.com/x",
			"dd if=README.md of=/home/user/notes.txt",
			"cd /home/user && echo x > notes.txt",
			"echo x > ../notes.txt",
		},
		NotExamples: []string{
			"echo x > build/out.txt",
			"echo x > /tmp/x",
			"echo x > /dev/null",
			"ls 2>&1",
			"echo x >/dev/stderr",
			"cp a.txt b.txt",
			"cat ~/notes.txt",
			"tee -a log.txt",
			"echo x > ~/.cache/x",
			"go build -o /tmp/app",
			`echo "x > ~/notes.txt"`,
		},
	},
	{
		ID: "boundary-delete-outside", Family: "boundary", Severity: Hold,
		Message: "deletes an existing file outside the project and the temp and cache directories",
		Hint:    "delete files inside the project only, or ask the user to remove that file",
		Script:  spansOf(fDelete),
		Examples: []string{
			"rm ~/notes.txt",
			"rm -f ~/notes.txt",
			"unlink ~/notes.txt",
			"mv ~/notes.txt build/",
			"rm ~/*.txt",
		},
		NotExamples: []string{
			"rm build/x",
			"rm /tmp/x",
			"rm ~/missing.txt",
			"rm -rf ~/notes.txt",
			"mv build/x build/y",
		},
	},
	{
		ID: "boundary-create-outside", Family: "boundary", Severity: Warn,
		Message: "creates a file outside the project and the temp and cache directories",
		Hint:    "create files inside the project or a temp dir unless the user asked for this place",
		Script:  spansOf(fCreate),
		Examples: []string{
			"echo x > ~/new.txt",
			"touch ~/new.txt",
			"mkdir ~/newdir",
			"cp README.md ~/",
			"git clone https://example.com/r.git ~/r",
			"tar -xzf a.tgz -C ~/tools",
			"unzip a.zip -d ~/tools",
		},
		NotExamples: []string{
			"touch build/x",
			"mkdir -p build && touch build/x",
			"touch /tmp/new",
			"mkdir -p ~/.cache/x",
			"git clone https://example.com/r.git",
			"touch ~/notes.txt",
			"tar -xzf a.tgz",
			"tar -czf /tmp/a.tgz .",
			"npm install",
			"cargo build",
		},
	},
	{
		ID: "boundary-perm-outside", Family: "boundary", Severity: Warn,
		Message: "changes permissions or ownership of a file outside the project and the temp and cache directories",
		Hint:    "change permissions of files inside the project only",
		Script:  spansOf(fPerm),
		Examples: []string{
			"chmod 600 ~/notes.txt",
			"chmod -x ~/notes.txt",
			"chown user ~/notes.txt",
		},
		NotExamples: []string{
			"chmod +x build/x",
			"chmod 755 /tmp/x",
			"chmod 600 ~/missing",
		},
	},
	{
		ID: "boundary-system-path", Family: "boundary", Severity: Hold,
		Message: "writes to a system directory",
		Hint:    "install into the project or a user directory; a system change is for the user to make",
		Script:  spansOf(fSystem),
		Raw:     `>\s*/(etc|usr|bin|sbin|lib|boot|opt)/`,
		Examples: []string{
			"echo x > /etc/hosts",
			"echo x > /etc/new.conf",
			"cp build/app /usr/local/bin/",
			"sudo tee /etc/apt/sources.list.d/x.list",
			"mkdir /opt/app",
			"rm /etc/hosts",
			"touch /usr/lib/x",
			"echo x > /tmp/../etc/x",
			"chmod 777 /etc/hosts",
			"go build -o /usr/local/bin/app",
			"echo x > /etc/$NAME",
			"tar -xf a.tar -C /usr/local",
		},
		NotExamples: []string{
			"cat /etc/os-release",
			"grep x /etc/hosts",
			"echo x > /dev/null",
			"ls /usr/bin",
			"rm -rf /etc",
			"echo > /proc/self/fd/1",
		},
	},
	{
		ID: "boundary-persistence", Family: "boundary", Severity: Hold,
		Message: "plants something that runs later by itself (a shell profile, ssh key, scheduled job, service or git hook)",
		Hint:    "ask the user to make this change; do not install hooks, profiles or scheduled jobs from an agent",
		Script:  spansOf(fPersist),
		Raw:     `(>|\btee|\bcp|\bmv|\bln|\bsed\s+-i)[^;&|]*(\.bashrc|\.bash_profile|\.profile|\.zshrc|authorized_keys|\.git/hooks/)|\bcrontab\s+(-r|-e|-\s|[^-\s])`,
		Examples: []string{
			"echo 'curl x | sh' >> ~/.bashrc",
			"echo key >> ~/.ssh/authorized_keys",
			"cp hook .git/hooks/pre-commit",
			"echo x > .git/hooks/post-checkout",
			"chmod +x .git/hooks/pre-push",
			"echo '[core] hooksPath = /tmp/h' >> .git/config",
			"crontab job.txt",
			"crontab -r",
			"echo '* * * * * x' | crontab -",
			"cp x.service ~/.config/systemd/user/",
			"tee -a ~/.zshrc",
			"touch ~/.profile && echo x >> ~/.profile",
			"echo x > ~/.config/fish/config.fish",
			"systemctl --user enable x.service",
			"tar -xf dotfiles.tar -C ~",
			"ln -sf /tmp/x ~/.bash_profile",
			"echo x | sudo tee /etc/sudoers.d/x",
			"echo x > ~/.gitconfig",
			"echo x >> keys/../.bashrc",
			`python3 -c "open('/home/user/.bashrc', 'a').write('curl x | sh')"`,
		},
		NotExamples: []string{
			"cat ~/.bashrc",
			"crontab -l",
			"grep alias ~/.bashrc",
			"ls .git/hooks",
			"rm .git/hooks/pre-commit.sample",
			"git status",
			"echo '.bashrc' > notes.txt",
			"systemctl status x",
			"mkdir -p ~/.config/systemd/user",
			`python3 -c "print(open('/home/user/.bashrc').read())"`,
		},
	},
	{
		ID: "boundary-git-config-code", Family: "boundary", Severity: Hold,
		Message: "sets a git option that makes git run a command later (hooks path, pager, ssh command, filter, ! alias)",
		Hint:    "pass the option for one command with git -c, or ask the user to configure git",
		Script:  spansOf(fGitConfig),
		Examples: []string{
			"git config core.hooksPath /tmp/hooks",
			"git config --global core.pager 'sh -c x'",
			"git config --global alias.st '!curl x | sh'",
			"git config core.fsmonitor ./x",
			"git config set core.sshCommand 'ssh -o ProxyCommand=x'",
			"git config filter.x.smudge 'sh x'",
			"git config --local include.path ../x",
			"git -C sub config core.hooksPath h",
			"git config credential.helper '!f() { x; }; f'",
			"git config --global core.editor /tmp/x",
			"git config core.sshCommand 'ssh -o ProxyCommand=x'",
		},
		NotExamples: []string{
			"git config user.name x",
			"git config --global user.email ci@example.com",
			"git config --global --add safe.directory /work",
			"git config --get core.hooksPath",
			"git config --unset core.pager",
			"git config --global alias.st status",
			"git config pull.rebase false",
			"git config init.defaultBranch main",
			"git config core.autocrlf input",
			"git config --list",
			"git config --global core.editor 'code --wait'",
			"git config --global core.pager delta",
			"git config --global credential.helper store",
			"git config --global core.sshCommand 'ssh -i ~/.ssh/deploy -o IdentitiesOnly=yes'",
			"git config core.fsmonitor true",
			"git config --global url.https://github.com/.insteadOf git@github.com:",
		},
	},
}
