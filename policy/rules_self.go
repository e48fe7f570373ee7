package policy

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/internal/paths"
	"github.com/guard-exec/guard-exec/parse"
)

// selfSet is guard-exec's own files for one decision, as given in
// Ctx.Self and with the defaults filled in, each path both as written and
// with its symlinks resolved.
type selfSet struct {
	config []string
	ledger []string
	shim   []string
	state  []string
	cache  []string
}

// selfPaths builds the set once per decision, or, with Ctx.Paths set,
// once for every decision made in the same world: building it resolves
// a dozen paths, a few microseconds that every command line writing
// anything paid again in check --batch.
func (x *Ctx) selfPaths() *selfSet {
	b := x.state()
	if b.self != nil {
		return b.self
	}
	if x.Paths != nil {
		if s := x.Paths.selfSet(x); s != nil {
			b.self = s
			return s
		}
	}
	var read [][2]string // the variables read, with their values
	getenv := func(k string) string {
		v := x.selfEnv(k)
		read = append(read, [2]string{k, v})
		return v
	}
	// Each path is taken as given and resolved: ~/.config is often a
	// link into a dotfiles repository.
	s := &selfSet{}
	given := func(ps ...string) []string { return x.absPaths(true, ps...) }
	dflt := given
	if len(x.Self.ConfigFiles) > 0 {
		s.config = given(x.Self.ConfigFiles...)
	} else {
		s.config = dflt(paths.UserConfigDir(getenv), paths.SystemConfigDir)
	}
	switch {
	case x.Self.LedgerDir != "":
		s.ledger = given(x.Self.LedgerDir)
	case x.Project != "":
		s.ledger = dflt(filepath.Join(x.Project, paths.LedgerDirName))
	}
	if x.Self.StateDir != "" {
		s.state = given(x.Self.StateDir)
	} else {
		s.state = dflt(paths.StateDir(getenv))
	}
	if x.Self.ShimDir != "" {
		s.shim = given(x.Self.ShimDir)
	} else {
		s.shim = dflt(paths.ShimDir(getenv))
	}
	if x.Self.CacheDir != "" {
		s.cache = given(x.Self.CacheDir)
	} else {
		s.cache = dflt(paths.CacheDir(getenv))
	}
	b.self = s
	if x.Paths != nil {
		x.Paths.putSelfSet(&selfMemo{self: cloneSelf(x.Self), project: x.Project, home: x.Home, env: read, set: s})
	}
	return s
}

// selfEnv is the environment as selfPaths reads it.
func (x *Ctx) selfEnv(k string) string {
	if v, ok := x.Env[k]; ok {
		return v
	}
	if k == "HOME" {
		return x.Home
	}
	return ""
}

// selfMemo is a self set with everything it was built from; the paths it
// resolved are directories, which a PathCache takes as fixed.
type selfMemo struct {
	self          SelfPaths
	project, home string
	env           [][2]string
	set           *selfSet
}

func (m *selfMemo) builtFor(x *Ctx) bool {
	if m.project != x.Project || m.home != x.Home || !sameSelf(m.self, x.Self) {
		return false
	}
	for _, kv := range m.env {
		if x.selfEnv(kv[0]) != kv[1] {
			return false
		}
	}
	return true
}

func sameSelf(a, b SelfPaths) bool {
	return slices.Equal(a.ConfigFiles, b.ConfigFiles) && a.LedgerDir == b.LedgerDir && a.StateDir == b.StateDir &&
		a.ShimDir == b.ShimDir && a.CacheDir == b.CacheDir
}

func cloneSelf(s SelfPaths) SelfPaths {
	s.ConfigFiles = slices.Clone(s.ConfigFiles)
	return s
}

// absPaths returns the non-empty absolute paths, cleaned, and with
// resolve their resolved forms where those differ.
func (x *Ctx) absPaths(resolve bool, ps ...string) []string {
	var out []string
	for _, p := range ps {
		if p == "" || !filepath.IsAbs(p) {
			continue
		}
		p = filepath.Clean(p)
		out = append(out, p)
		if resolve {
			// Resolved as a directory, so Ctx.Paths remembers it.
			if r, _ := x.lookupDir(p, 0); r != p {
				out = append(out, r)
			}
		}
	}
	return out
}

func anyWithin(p string, roots []string) bool {
	for _, r := range roots {
		if within(p, r) {
			return true
		}
	}
	return false
}

// anyBelow reports whether one of the roots is inside p: deleting p
// deletes it.
func anyBelow(p string, roots []string) bool {
	for _, r := range roots {
		if within(r, p) {
			return true
		}
	}
	return false
}

// hasComponent reports whether p has a path component equal to name.
func hasComponent(p, name string) bool {
	for i := strings.IndexByte(p, '/'); i >= 0; {
		rest := p[i+1:]
		if strings.HasPrefix(rest, name) && (len(rest) == len(name) || rest[len(name)] == '/') {
			return true
		}
		j := strings.IndexByte(rest, '/')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// selfWrite judges a write against guard-exec's own files. Creating an
// empty file or a directory changes nothing the guard reads.
func (x *Ctx) selfWrite(p string, w write, exists bool) finding {
	if w.kind == wTouch || w.kind == wMkdir {
		return fNone
	}
	s := x.selfPaths()
	switch {
	case anyWithin(p, s.config):
		return fSelfConfig
	case anyWithin(p, s.ledger), anyWithin(p, s.state), hasComponent(p, paths.LedgerDirName):
		return fSelfLedger
	case anyWithin(p, s.shim):
		return fSelfShim
	case w.kind != wDelete && anyWithin(p, s.cache):
		// The cache holds what the guard has already checked (user rules
		// whose examples passed, the index of a large sourced file) and is
		// trusted like the configuration: a forged entry could hide code.
		return fSelfConfig
	case anyWithin(p, s.cache) && namesTake(w, cacheNames):
		// Deleting it only makes the guard check again, yet it is the
		// guard's own state, like the ledger: a command that clears it
		// asks first (self-cache).
		return fSelfCache
	}
	if w.kind == wDelete && w.tree && x.Home != "" && within(p, x.Home) && p != x.Home {
		// Deleting a directory above them inside the home directory
		// deletes them too (rm -rf ~/.config). The home directory itself,
		// the places above it and the project root are left to the
		// filesystem rules, which hold them.
		switch {
		case anyBelow(p, s.config):
			return fSelfConfig
		case anyBelow(p, s.state), p != x.Project && anyBelow(p, s.ledger):
			return fSelfLedger
		case anyBelow(p, s.shim):
			return fSelfShim
		case anyBelow(p, s.cache) && namesTake(w, cacheNames):
			return fSelfCache
		}
	}
	if x.reachesSelf(p, w) {
		return fSelfLedgerReach
	}
	if filepath.Base(p) == paths.Name && !x.inWriteRoots(p) {
		// The installed program (/usr/local/bin/guard-exec, ~/go/bin/…):
		// replaced, removed or made not executable, the shims and hooks
		// that run it stop guarding. A build in the project or a temp
		// directory is not it.
		return fSelfBinary
	}
	if x.agentSettings(p) || w.kind == wDelete && agentSettingsDir(p) {
		return fSelfAgent
	}
	if filepath.Base(p) == paths.ProjectConfigName {
		// The project layer only adds protection, so a new file cannot
		// weaken anything; deleting or changing one that is there can
		// drop the rules it adds (and a file that is no longer valid TOML
		// is ignored whole).
		if w.kind == wDelete || w.kind == wModify || exists && w.kind != wTouch {
			return fSelfProjectDrop
		}
		return fSelfProject
	}
	return fNone
}

// ledgerNames are the names inside a ledger directory that a delete
// matching names could take.
var ledgerNames = []string{paths.LedgerDirName, "ledger.jsonl", "ledger.1.jsonl", "ledger.2.jsonl", "ledger.3.jsonl", "ledger.lock", ".gitignore", "casts"}

// reachesSelf reports whether a delete or move of the tree at p takes the
// ledger, its anchors or the key with it, whatever the program: p is the
// directory holding them or one above it (rm -rf ../proj, find . -delete,
// rsync --delete empty/ ./, git stash --all, mv . /elsewhere), or a pattern
// there that matches the ledger's directory (rm -rf .[!.]*). The home
// directory itself and the places above it are the filesystem rules' to
// hold. A find whose -name tests match none of the ledger's names, or
// that deletes only empty files or directories, leaves it alone.
func (x *Ctx) reachesSelf(p string, w write) bool {
	if w.kind != wDelete || (!w.tree && !w.t.Glob) {
		return false
	}
	s := x.selfPaths()
	if x.Home != "" && within(x.Home, p) || p == "/" {
		return false // the home directory or above: the filesystem rules hold it
	}
	if w.t.Glob {
		// The pattern's first component with a pattern character is
		// matched against the names in p.
		comp := ""
		for _, part := range strings.Split(w.t.Word.Value, "/") {
			if strings.ContainsAny(part, "*?[") {
				comp = part
				break
			}
		}
		for _, set := range [...][]string{s.ledger, s.state, s.config} {
			for _, l := range set {
				if filepath.Dir(l) == p && dotMatch(comp, filepath.Base(l)) {
					return true
				}
			}
		}
		return false
	}
	return (anyBelow(p, s.ledger) || anyBelow(p, s.state) || anyBelow(p, s.config)) && namesTake(w, ledgerNames)
}

// cacheNames are the names in guard-exec's cache directory, and the
// directory's own: the checked user rules and the sourced files' index,
// whose entries are named by a hex digest.
var cacheNames = []string{paths.Name, "checked-rules", "sourced", "0123456789abcdef0123456789abcdef"}

// namesTake reports whether a delete that matches names (find -name …
// -delete) can take one of the entries called these: one without names
// takes all.
func namesTake(w write, entries []string) bool {
	if len(w.names) == 0 {
		return true
	}
	for _, pat := range w.names {
		for _, n := range entries {
			if ok, _ := filepath.Match(pat, n); ok {
				return true
			}
		}
	}
	return false
}

// keyName is the user's key inside the user configuration directory
// (paths.KeyFile).
const keyName = "ledger.key"

// readsKey reports whether a command reads the user's key, by name or by
// a pattern that matches it: with it, a command could forge ledger
// records, cached verdicts and approvals.
func (x *Ctx) readsKey(c *parse.Command) bool {
	stdin := c.Stdin != nil && c.Stdin.Kind == parse.InputFile && c.Stdin.Path != ""
	targets := x.readTargets(c)
	if !stdin && len(targets) == 0 {
		// Nothing read by name: the guard's own paths, a dozen resolved
		// (0.1 ms of a fresh `-c true`), are not needed.
		return false
	}
	s := x.selfPaths()
	isKey := func(p string) bool {
		for _, d := range s.config {
			if p == filepath.Join(d, keyName) {
				return true
			}
		}
		return false
	}
	if stdin && isKey(x.resolve(c.Stdin.Path)) {
		return true
	}
	for _, tg := range targets {
		switch {
		case tg.Glob:
			for _, d := range s.config {
				if tg.Path == d && dotMatch(filepath.Base(tg.Word.Value), keyName) {
					return true
				}
			}
		case tg.Known:
			if isKey(x.resolve(tg.raw)) {
				return true
			}
		}
	}
	return false
}

// dotMatch is a shell pattern match of one name, where a leading dot must
// be matched by a dot in the pattern (bash without dotglob).
func dotMatch(pat, name string) bool {
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(pat, ".") {
		return false
	}
	ok, _ := filepath.Match(strings.ReplaceAll(pat, "[!", "[^"), name)
	return ok
}

// selfLookupRE finds the guard's program looked up on PATH, as a command
// substitution gives it to a command: chmod -x "$(command -v guard-exec)".
// Compiled on first use, as selfPidRE: every process would pay for them
// at start-up (about a third of the package's initialisation), and few
// commands reach them.
var selfLookupRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(which|command\s+-[vV]|type\s+-[pPa]|whereis|readlink\s+-f)\s+(\S+/)?` + regexp.QuoteMeta(paths.Name) + `\b`)
})

// selfBinaryLookup reports whether a command writes a target the analysis
// cannot name, built from a lookup of the guard's own program.
func selfBinaryLookup(c *parse.Command, ws []write) bool {
	for _, w := range ws {
		if !w.t.Known && w.t.Under == "" && w.kind != wTouch && w.kind != wMkdir {
			return selfLookupRE().MatchString(c.Span)
		}
	}
	return false
}

// killers are the programs that signal processes by name or by pid.
var killers = []string{"kill", "pkill", "killall", "skill"}

// selfKill reports whether a command signals guard-exec's own processes:
// by name (pkill -f guard-exec, killall guard-exec), or by the pids a
// lookup of that name gives (kill $(pgrep guard-exec), kill `pidof …`).
// Killing it kills the command it guards and every later check of the
// session's shims.
func selfKill(c *parse.Command) bool {
	if !contains(killers, c.Name) {
		return false
	}
	if c.Name != "kill" {
		// The processes its row says it selects: the names and patterns
		// it is given, and the commands and users of its options.
		for _, ra := range c.Roles {
			if ra.Role == parse.RoleData && strings.Contains(ra.Word.Value, paths.Name) {
				return true
			}
		}
		return false
	}
	return selfPidRE().MatchString(c.Span)
}

// selfPidRE finds a pid lookup of the guard's processes: pgrep or pidof
// of guard-exec, and the shell's parent ($PPID, ps -o ppid=), which for
// a command the guard runs is the guard.
var selfPidRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(pgrep|pidof)\b[^)` + "`" + `]*\b` + regexp.QuoteMeta(paths.Name) + `\b|\$\{?PPID\b|\bps\b[^)` + "`" + `|;&]*\bppid\b`)
})

// agentSettings reports whether p is a coding agent's settings, where its
// hooks — guard-exec among them — are configured.
func (x *Ctx) agentSettings(p string) bool {
	dir, base := filepath.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	parent := filepath.Base(dir)
	switch {
	case parent == ".claude" && strings.HasPrefix(base, "settings") && strings.HasSuffix(base, ".json"):
		return true
	case strings.Contains(p, "/.claude/hooks/"):
		return true
	case parent == ".gemini" && base == "settings.json":
		return true
	case parent == ".cursor" && base == "hooks.json":
		return true
	case hasComponent(p, ".codex"):
		return true
	case x.Home != "" && p == x.Home+"/.claude.json":
		return true
	}
	return false
}

// agentSettingsDir reports whether p is a directory that holds a coding
// agent's settings (.claude, .claude/hooks, .gemini, .cursor): deleting
// or moving it away drops the hooks that run the guard, as editing the
// settings file does.
func agentSettingsDir(p string) bool {
	switch filepath.Base(p) {
	case ".claude", ".gemini", ".cursor":
		return true
	case "hooks":
		return filepath.Base(filepath.Dir(p)) == ".claude"
	}
	return false
}

// selfVarPrefix names guard-exec's own variables: the session, the ledger
// directory, the parent evidence id. Setting one changes what the guard
// records or which session's loop brake applies.
const selfVarPrefix = "GUARD_EXEC_"

func isSelfVar(name string) bool { return strings.HasPrefix(name, selfVarPrefix) }

// selfEnvCommand reports whether a command unsets or exports one of
// guard-exec's variables by name (assignments with a value are found in
// the analysis' assignments).
func selfEnvCommand(c *parse.Command) bool {
	for _, as := range c.Assigns {
		if isSelfVar(as.Name) {
			return true
		}
	}
	switch c.Name {
	case "unset":
		for _, a := range c.Operands(parse.RoleData) {
			if isSelfVar(a.Value) {
				return true
			}
		}
	case "export", "declare", "typeset", "readonly", "local":
		// NAME=value is among the analysis' assignments; a bare NAME
		// exports or freezes what is there.
		for _, a := range c.Operands(parse.RoleData) {
			if !strings.Contains(a.Value, "=") && isSelfVar(a.Value) {
				return true
			}
		}
	}
	if c.HasWrapper("env") && strings.Contains(c.Span, selfVarPrefix) &&
		(strings.Contains(c.Span, "-u") || strings.Contains(c.Span, "--unset")) {
		return true
	}
	return false
}

// selfCommand reports whether a command drives guard-exec itself in a way
// only a person may: approving a held command, removing the shims,
// changing the configuration, or starting a nested guard in a mode that
// blocks nothing.
func selfCommand(c *parse.Command) bool {
	// $(which guard-exec) approve: the name is not known, but its text is.
	if c.Name != paths.Name && !(c.NameDynamic && strings.Contains(c.Span, paths.Name)) {
		return false
	}
	if c.NameDynamic {
		c = parse.ReadAs(c, paths.Name)
	}
	for _, m := range c.OptionValues("--mode") {
		if v := m.Value; v == "advise" || v == "audit" || strings.Contains(v, parse.Unknown) {
			return true
		}
	}
	if c.Flag("runs") {
		return false // a shell (-c CMD) or a wrapper: what it runs is judged on its own
	}
	ops := c.Operands(parse.RoleData)
	switch c.Row {
	case paths.Name + " approve":
		return true
	case paths.Name + " shim":
		return len(ops) > 0 && contains([]string{"uninstall", "remove", "rm", "disable"}, ops[0].Value)
	case paths.Name + " config":
		for _, w := range ops {
			if contains([]string{"set", "unset", "edit", "init", "reset", "write", "exempt", "add", "remove"}, w.Value) {
				return true
			}
		}
	}
	return false
}

var selfRules = []*Rule{
	{
		ID: "self-config", Family: "self-defence", Severity: Deny,
		Message: "changes guard-exec's own configuration",
		Hint:    "ask the user to edit the guard-exec configuration; an agent must not change its own guard",
		finding: fSelfConfig,
		Raw:     `(>|\btee|\bcp|\bmv|\brm|\bsed\s+-i)[^;&|]*(\.config/guard-exec|/etc/guard-exec|\.cache/guard-exec)`,
		Examples: []string{
			"echo 'mode = \"audit\"' > ~/.config/guard-exec/config.toml",
			"rm ~/.config/guard-exec/config.toml",
			"sed -i s/enforce/audit/ /etc/guard-exec/config.toml",
			"rm -rf ~/.config",
			"cp x.toml /home/user/.config/guard-exec/config.toml",
			"echo forged > ~/.cache/guard-exec/checked-rules",
		},
		NotExamples: []string{
			"cat ~/.config/guard-exec/config.toml",
			"mkdir -p ~/.config/guard-exec",
			"echo x > ~/.config/other/x",
			"rm -rf ~/.cache/guard-exec",
			"echo x > ~/.cache/pip/x",
		},
	},
	{
		ID: "self-cache", Family: "self-defence", Severity: Hold,
		Message: "deletes guard-exec's cache of what it has checked (user rules whose examples passed, the index of large sourced files)",
		Hint:    "clear the caches you mean by name (rm -rf ~/.cache/pip), or leave ~/.cache/guard-exec out",
		finding: fSelfCache,
		Raw:     `(\brm\b|\bfind\b|\brsync\b|\bmv\b)[^;&|]*(~|\$\{?HOME\}?|/home/[^/\s]+|/root)/\.cache(/guard-exec)?/?\*?(\s|$|["'])`,
		Examples: []string{
			"rm -rf ~/.cache/guard-exec",
			"rm -rf ~/.cache",
			"rm -rf ~/.cache/*",
			"find ~/.cache -delete",
			"find ~/.cache/guard-exec -type f -delete",
			"mv ~/.cache ~/.cache.old",
			"rm -r \"$HOME/.cache\"",
		},
		NotExamples: []string{
			"rm -rf ~/.cache/pip",
			"rm -rf ~/.cache/go-build ~/.npm/_cacache",
			"ls ~/.cache/guard-exec",
			"go clean -cache",
			"rm -rf .cache",
			"find ~/.cache -name '*.tmp' -delete",
		},
	},
	{
		ID: "self-ledger-reach", Family: "self-defence", Severity: Hold,
		Message: "deletes, moves or stashes a directory that holds guard-exec's evidence ledger (or its key and anchors), taking the ledger with it",
		Hint:    "name the files you mean, or leave .guard-exec out (git clean -e .guard-exec, find … -not -path './.guard-exec/*')",
		finding: fSelfLedgerReach,
		Raw:     `(\bfind\b[^;&|]*(-delete|-exec(dir)?\s+rm)|\brsync\b[^;&|]*--del|\bgit\b[^;&|]*\b(stash\b[^;&|]*(\s-a\b|--all)|clean\b[^;&|]*\s-[a-zA-Z]*[xX]))`,
		Examples: []string{
			"find . -name '*.jsonl' -delete",
			"find . -type f -delete",
			"find . -name '*.jsonl' -exec rm -f {} +",
			"find . -name 'ledger*' -execdir rm {} ';'",
			"rsync -a --delete empty/ ./",
			"rsync -a --delete-after empty/ .",
			"git stash --all",
			"git stash push -a",
			"git -C . stash save --all",
			"rm -rf .[!.]*",
			"rm -rf .??*",
			"rm -rf .g*",
			"mv ../project /tmp/x",
			"cd .. && mv project /srv/old",
		},
		NotExamples: []string{
			"find . -name '*.pyc' -delete",
			"find . -type d -empty -delete",
			"find src -delete",
			"find . -name '*.jsonl' -print",
			"rsync -a --delete src/ /tmp/backup/",
			"rsync -a empty/ ./",
			"git stash",
			"git stash -u",
			"git stash list --all",
			"git clean -ndx",
			"git clean -fdx -e .guard-exec",
			"rm -rf src",
			"rm -rf .cache",
			"rm -rf *",
			"rm -rf */node_modules",
			"git clean -fdX -- node_modules",
		},
	},
	{
		ID: "self-key", Family: "self-defence", Severity: Deny,
		Message: "reads guard-exec's key, with which ledger records, cached verdicts and approvals could be forged",
		Hint:    "leave the key alone; guard-exec log --verify checks the ledger with it",
		finding: fSelfKey,
		Raw:     `guard-exec/ledger\.key`,
		Examples: []string{
			"cat ~/.config/guard-exec/ledger.key",
			"base64 < ~/.config/guard-exec/ledger.key",
			"cp ~/.config/guard-exec/ledger.key /tmp/k",
			"cat ~/.config/guard-exec/*.key",
		},
		NotExamples: []string{
			"cat ~/.config/guard-exec/config.toml",
			"ls ~/.config/guard-exec",
		},
	},
	{
		ID: "self-ledger", Family: "self-defence", Severity: Deny,
		Message: "changes or deletes guard-exec's evidence ledger",
		Hint:    "leave the ledger alone; read it with guard-exec log",
		finding: fSelfLedger,
		Raw:     `(>|\btee|\bcp|\bmv|\brm|\btruncate|\bsed\s+-i)[^;&|]*\.guard-exec(/|\s|$)`,
		Examples: []string{
			"rm -rf .guard-exec",
			"rm .guard-exec/ledger.jsonl",
			"echo '{}' >> .guard-exec/ledger.jsonl",
			"truncate -s 0 .guard-exec/ledger.jsonl",
			"mv .guard-exec /tmp/old",
			"sed -i /ev-0001/d .guard-exec/ledger.jsonl",
			"find .guard-exec -delete",
			"rm -rf ~/.local/state/guard-exec",
			"cd .guard-exec && rm *",
		},
		NotExamples: []string{
			"cat .guard-exec/ledger.jsonl",
			"guard-exec log",
			"rm -rf build",
			"echo x > .guard-exec.toml.bak",
		},
	},
	{
		ID: "self-shim", Family: "self-defence", Severity: Deny,
		Message: "changes guard-exec's shim directory",
		Hint:    "ask the user to manage the shims with guard-exec shim",
		finding: fSelfShim,
		Raw:     `guard-exec/shim`,
		Examples: []string{
			"rm ~/.local/share/guard-exec/shim/bash",
			"ln -sf /bin/bash ~/.local/share/guard-exec/shim/bash",
			"rm -rf ~/.local/share/guard-exec",
		},
		NotExamples: []string{
			"ls ~/.local/share/guard-exec/shim",
			"readlink ~/.local/share/guard-exec/shim/bash",
		},
	},
	{
		ID: "self-binary", Family: "self-defence", Severity: Deny,
		Message: "replaces, removes or changes the mode of the installed guard-exec program",
		Hint:    "ask the user to install or upgrade guard-exec",
		finding: fSelfBinary,
		Raw:     `(>|\btee|\bcp|\bmv|\brm|\bln|\binstall|\bchmod)[^;&|]*/bin/guard-exec\b`,
		Examples: []string{
			"chmod -x /usr/local/bin/guard-exec",
			"sudo rm /usr/local/bin/guard-exec",
			"cp /tmp/fake ~/go/bin/guard-exec",
			"ln -sf /bin/true ~/.local/bin/guard-exec",
			`chmod -x "$(command -v guard-exec)"`,
			"rm $(which guard-exec)",
		},
		NotExamples: []string{
			"go build -o build/guard-exec ./cmd/guard-exec",
			"cp build/guard-exec /tmp/guard-exec",
			"ls -l /usr/local/bin/guard-exec",
			"command -v guard-exec",
			`"$(command -v guard-exec)" check -c ls`,
			"chmod +x build/guard-exec",
		},
	},
	{
		ID: "self-kill", Family: "self-defence", Severity: Deny,
		Message: "signals guard-exec's own processes",
		Hint:    "stop the command it runs instead; ask the user to stop the guard",
		finding: fSelfKill,
		Raw:     `\b(pkill|killall|skill)\b[^;&|]*guard-exec|\bkill\b[^;&|]*\b(pgrep|pidof)\b[^;&|]*guard-exec`,
		Examples: []string{
			"pkill -f guard-exec",
			"killall guard-exec",
			"kill -9 $(pgrep guard-exec)",
			"kill -9 $PPID",
			"kill -STOP ${PPID}",
			"kill -9 $(ps -o ppid= -p $$)",
			"kill `pidof guard-exec`",
			"sudo pkill -9 -f 'guard-exec -c'",
			"skill -KILL -c guard-exec",
		},
		NotExamples: []string{
			"pgrep -a guard-exec",
			"pkill -f 'npm run dev'",
			"kill %1",
			"kill $(pgrep node)",
			"kill -9 $$",
			"echo $PPID",
			"killall node",
		},
	},
	{
		ID: "self-agent-settings", Family: "self-defence", Severity: Hold,
		Message: "edits a coding agent's settings, where its hooks and guard are configured",
		Hint:    "ask the user to change the agent's settings",
		finding: fSelfAgent,
		Raw:     `(>|\btee|\bcp|\bmv|\brm|\bln|\bsed\s+-i)[^;&|]*(\.claude/settings|\.codex/|\.gemini/settings)`,
		Examples: []string{
			"echo '{}' > .claude/settings.json",
			"echo '{}' > .claude/settings.local.json",
			"sed -i s/guard-exec// ~/.claude/settings.json",
			"rm ~/.codex/config.toml",
			"cp x.json .gemini/settings.json",
			"echo x > .codex/config.toml",
			"rm -rf .claude",
			"mv .claude /tmp/claude.bak",
			"rm -rf .claude/hooks",
		},
		NotExamples: []string{
			"cat .claude/settings.json",
			"rm -rf .claude/commands/old",
			"echo x > .claude/notes.md",
			"echo x > docs/settings.json",
		},
	},
	{
		ID: "self-project-config", Family: "self-defence", Severity: Warn,
		Message: "changes the project's guard-exec rules (which can only add protection)",
		Hint:    "say in the change why the project's guard rules change",
		finding: fSelfProject,
		Examples: []string{
			"echo x > .guard-exec.toml",
			"cp tight.toml .guard-exec.toml",
			"printf '[[rule]]\\n' >> .guard-exec.toml",
		},
		NotExamples: []string{
			"cat .guard-exec.toml",
			"grep severity .guard-exec.toml",
			"rm .guard-exec.toml",
		},
	},
	{
		ID: "self-project-config-drop", Family: "self-defence", Severity: Hold,
		Message: "deletes or changes the project's guard-exec rules, which can drop the protection they add",
		Hint:    "add rules in a new layer or ask the user to edit .guard-exec.toml",
		finding: fSelfProjectDrop,
		Raw:     `(\brm|\bsed\s+-i|\bperl\s+-[a-z]*i|\btruncate|\bmv)\s[^;&|]*\.guard-exec\.toml\b`,
		Examples: []string{
			"rm .guard-exec.toml",
			"rm -f ./.guard-exec.toml",
			"sed -i s/hold/warn/ .guard-exec.toml",
			"perl -pi -e s/hold/warn/ .guard-exec.toml",
			"mv .guard-exec.toml /tmp/",
		},
		NotExamples: []string{
			"cat .guard-exec.toml",
			"echo x > .guard-exec.toml",
			"cp .guard-exec.toml /tmp/backup.toml",
			"git diff .guard-exec.toml",
		},
	},
	{
		ID: "self-env", Family: "self-defence", Severity: Deny,
		Message: "sets or removes one of guard-exec's own variables",
		Hint:    "leave GUARD_EXEC_* variables alone; they are the guard's session and evidence settings",
		finding: fSelfEnv,
		Raw:     `(^|[\s;&|(])GUARD_EXEC_\w*=|\b(unset|export)\s+GUARD_EXEC_`,
		Examples: []string{
			"GUARD_EXEC_LEDGER_DIR=/tmp/x ls",
			"export GUARD_EXEC_SESSION=new",
			"env GUARD_EXEC_SESSION=x git push",
			"unset GUARD_EXEC_SESSION",
			"declare -x GUARD_EXEC_LEDGER_DIR=/tmp",
			"GUARD_EXEC_PARENT=; bash",
			"env -u GUARD_EXEC_SESSION bash",
			"bash -c 'export GUARD_EXEC_SESSION=x'",
			"export GUARD_EXEC_SESSION",
			"readonly GUARD_EXEC_SESSION",
		},
		NotExamples: []string{
			"echo $GUARD_EXEC_SESSION",
			`echo "GUARD_EXEC_SESSION=x"`,
			"printenv GUARD_EXEC_SESSION",
		},
	},
	{
		ID: "self-command", Family: "self-defence", Severity: Deny,
		Message: "runs a guard-exec command only a person may run (approve, shim removal, configuration, a mode that blocks nothing)",
		Hint:    "ask the user; approvals are given by a person at a terminal",
		finding: fSelfCommand,
		Raw:     `guard-exec\s+(approve|shim\s+uninstall|--mode[= ](advise|audit))`,
		Examples: []string{
			"guard-exec approve ev-0001",
			"/usr/local/bin/guard-exec approve ev-0001",
			"command guard-exec approve ev-0001",
			"bash -c 'guard-exec approve ev-0001'",
			"guard-exec shim uninstall",
			"guard-exec config set mode audit",
			"guard-exec --mode=audit -c 'rm -rf /'",
			"guard-exec --mode advise -c x",
			"$(which guard-exec) approve ev-1",
			"`command -v guard-exec` approve ev-1",
		},
		NotExamples: []string{
			"guard-exec log",
			"guard-exec check -c 'rm -rf /'",
			"guard-exec explain -c x",
			"guard-exec -c 'approve'",
			"echo guard-exec approve",
			"guard-exec shim install",
		},
	},
}
