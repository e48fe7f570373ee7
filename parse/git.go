package parse

import (
	"strings"
	"sync"
)

// git runs code given in its configuration: -c alias.NAME='!…' when NAME
// is the subcommand, and keys whose values are commands (core.pager,
// core.sshCommand, …). A non-! alias expands to git arguments. The
// environment variables git runs (GIT_SSH_COMMAND, GIT_PAGER, …) are
// followed when the command line sets them, and so are the settings it
// takes from the environment and the files it names (git_config.go).

// gitCodeKeys are configuration keys whose value git runs with the shell.
var gitCodeKeys = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"core.pager": true, "core.editor": true, "core.sshcommand": true, "core.fsmonitor": true,
		"core.askpass": true, "sequence.editor": true, "diff.external": true, "gpg.program": true,
		"uploadpack.packobjectshook": true, "credential.helper": true,
	}
})

// gitCodeSuffixes are key endings whose value is run (pager.log,
// filter.x.clean, diff.x.textconv, …).
var gitCodeSuffixes = []string{".textconv", ".clean", ".smudge", ".process", ".driver", ".cmd", ".program", ".command"}

// gitCodeKey reports whether git runs the value of a (lower-case) key.
func gitCodeKey(key string) bool {
	return gitCodeKeys()[key] || strings.HasPrefix(key, "pager.") || hasAnySuffix(key, gitCodeSuffixes)
}

func sinkGit(fr *frame, c *Command, args []arg) {
	i := 1
	var configs, configEnv []arg
	for i < len(args) {
		v := args[i].Value
		switch {
		case v == "-c" && i+1 < len(args):
			configs = append(configs, args[i+1])
			i += 2
		case v == "--config-env" && i+1 < len(args):
			configEnv = append(configEnv, args[i+1])
			i += 2
		case strings.HasPrefix(v, "--config-env="):
			configEnv = append(configEnv, valueArg(args[i], v[len("--config-env="):]))
			i++
		case v == "-C" || v == "--git-dir" || v == "--work-tree" || v == "--namespace" || v == "--exec-path" || v == "--super-prefix":
			i += 2
		case strings.HasPrefix(v, "-"):
			i++
		default:
			goto sub
		}
	}
sub:
	sub := ""
	if i < len(args) {
		sub = args[i].Value
	}
	if sub == "config" {
		fr.gitConfig(c, args[i+1:])
		return
	}
	if sub == "submodule" {
		fr.gitSubmodule(c, args[i+1:])
	}
	settings := fr.gitEnvSettings(c, configs, configEnv)
	fr.gitHooks(c, sub, settings)
	if v, ok := fr.r.gitAliases[strings.ToLower(sub)]; ok && sub != "" && !hasConfigAlias(settings, sub) {
		fr.gitAlias(c, v, v.Value, args[i+1:])
	}
	for _, set := range settings {
		cf := set.word
		key, val, ok := strings.Cut(cf.Value, "=")
		if !ok {
			continue
		}
		key = strings.ToLower(key)
		via := "git -c " + key
		if set.from != "-c" {
			via = "git " + set.from + " " + key
		}
		switch {
		case strings.HasPrefix(key, "alias."):
			if strings.EqualFold(key[len("alias."):], sub) && sub != "" {
				fr.gitAlias(c, cf, val, args[i+1:])
			}
		case hasUnknown(key) && (hasUnknown(val) || strings.TrimSpace(val) != ""):
			// A key not known with a value: it may be one git runs.
			if set.from != "-c" {
				fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: cf.Value, Pos: c.Pos})
			}
		case gitCodeKey(key):
			if key == "credential.helper" && !strings.HasPrefix(val, "!") {
				continue // a helper program name, git credential-NAME
			}
			fr.nestShellWords(c, []arg{{Word: Word{Value: strings.TrimPrefix(val, "!"), Dynamic: hasUnknown(val), Pos: cf.Pos}}}, via)
		}
	}
}

func hasAnySuffix(s string, suffixes []string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// gitAlias follows an alias given with -c. "!cmd" runs cmd with the shell,
// the remaining arguments appended as positional parameters; otherwise
// the alias words replace the subcommand.
func (fr *frame) gitAlias(c *Command, cf arg, val string, rest []arg) {
	if strings.HasPrefix(val, "!") {
		st := fr.childState(c)
		st.args = append([]string{"sh"}, values(rest)...)
		st.argsKnown = true
		text := val[1:]
		if len(rest) > 0 {
			text += ` "$@"`
		}
		fr.nest(nesting{sink: c, via: "git alias", text: text, pos: posMap{at: cf.Pos}, kind: DynShellArg, st: st, stdin: c.Stdin})
		return
	}
	words := splitEnvString(nil, arg{Word: Word{Value: val, Pos: cf.Pos}})
	argv := append([]arg{{Word: Word{Value: "git", Pos: c.Pos}}}, words...)
	argv = append(argv, rest...)
	fr.runNested(c, argv, "git alias", nil)
}

// sinkRg follows rg --pre COMMAND: ripgrep runs it on every file searched.
func sinkRg(fr *frame, c *Command, args []arg) {
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		var pre *arg
		switch {
		case v == "--pre" && i+1 < len(args):
			pre = &args[i+1]
		case strings.HasPrefix(v, "--pre="):
			pre = &arg{Word: Word{Value: v[len("--pre="):], Pos: args[i].Pos}}
		}
		if pre != nil && pre.Value != "" {
			argv := []arg{*pre, {Word: Word{Value: Unknown, Dynamic: true, Pos: pre.Pos}}}
			fr.runNested(c, argv, "rg --pre", func(f *frame) { f.placeholder = true })
			return
		}
	}
}

func hasConfigAlias(settings []gitSetting, sub string) bool {
	for _, set := range settings {
		if k, _, ok := strings.Cut(set.word.Value, "="); ok && strings.EqualFold(k, "alias."+sub) {
			return true
		}
	}
	return false
}

// gitConfig follows git config KEY VALUE: an alias is remembered for the
// git commands after it in the script ("git config alias.p 'push -f' &&
// git p"); a key whose value git runs is analysed where it is set, since
// it runs at some later git command.
func (fr *frame) gitConfig(c *Command, args []arg) {
	var ops []arg
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "--file" || v == "-f" || v == "--blob" || v == "--type":
			i++
		case strings.HasPrefix(v, "-"):
			if v == "--unset" || v == "--unset-all" || v == "--get" || v == "--get-all" || v == "--list" || v == "-l" || v == "--get-regexp" {
				return
			}
		default:
			ops = append(ops, args[i])
		}
	}
	if len(ops) != 2 {
		return
	}
	key := strings.ToLower(ops[0].Value)
	switch {
	case strings.HasPrefix(key, "alias.") && len(key) > len("alias."):
		if fr.r.gitAliases == nil {
			fr.r.gitAliases = make(map[string]arg)
		}
		fr.r.gitAliases[key[len("alias."):]] = ops[1]
	case gitCodeKey(key):
		val := ops[1]
		if key == "credential.helper" && !strings.HasPrefix(val.Value, "!") {
			return
		}
		val.Value = strings.TrimPrefix(val.Value, "!")
		fr.nestShellWords(c, []arg{val}, "git config "+key)
	}
}

// gitHookNames are the hooks each subcommand runs.
var gitHookNames = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"commit":      {"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-rewrite"},
		"merge":       {"pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-merge"},
		"pull":        {"pre-merge-commit", "post-merge", "post-rewrite", "post-checkout"},
		"push":        {"pre-push", "reference-transaction"},
		"checkout":    {"post-checkout"},
		"switch":      {"post-checkout"},
		"rebase":      {"pre-rebase", "post-rewrite", "post-checkout"},
		"am":          {"applypatch-msg", "pre-applypatch", "post-applypatch"},
		"cherry-pick": {"prepare-commit-msg", "commit-msg", "post-commit"},
		"revert":      {"prepare-commit-msg", "commit-msg", "post-commit"},
		"gc":          {"pre-auto-gc"},
		"worktree":    {"post-checkout"},
	}
})

// gitHooks follows the hooks a subcommand runs that this line wrote: in
// .git/hooks, or in the core.hooksPath a -c gives. A hook already on
// disk is the repository's own (husky's, the team's), not judged here.
func (fr *frame) gitHooks(c *Command, sub string, settings []gitSetting) {
	names := gitHookNames()[sub]
	if len(names) == 0 || len(fr.r.files) == 0 {
		return
	}
	dir := resolvePath(c.Dir, ".git/hooks")
	for _, set := range settings {
		if k, v, ok := strings.Cut(set.word.Value, "="); ok && strings.EqualFold(k, "core.hooksPath") && !hasUnknown(v) {
			dir = resolvePath(c.Dir, v)
		}
	}
	if dir == "" {
		return
	}
	for _, n := range names {
		fr.runWritten(c, dir+"/"+n, "sh", "git hook "+n)
	}
}
