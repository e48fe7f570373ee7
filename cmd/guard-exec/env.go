package main

import (
	"strconv"
	"strings"

	"github.com/guard-exec/guard-exec/internal/redact"
)

// loginRoute reports whether a variable leads to a stored login without
// being a secret itself: the programs git, ssh and sudo ask for a password
// (an editor's terminal points them at a helper answering from its own
// sign-in, over the channel VSCODE_GIT_* names), and git's and the
// credential manager's trace switches, which print what is sent to a
// remote, authorization headers included.
func loginRoute(name string) bool {
	switch name {
	case "GIT_ASKPASS", "SSH_ASKPASS", "SSH_ASKPASS_REQUIRE", "SUDO_ASKPASS", "GIT_CURL_VERBOSE",
		"GIT_CONFIG_PARAMETERS":
		return true
	}
	return strings.HasPrefix(name, "GIT_TRACE") || strings.HasPrefix(name, "GCM_TRACE") ||
		strings.HasPrefix(name, "VSCODE_GIT_")
}

// gitConfigVar reports whether a variable belongs to git's configuration
// group: GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n, GIT_CONFIG_VALUE_n.
func gitConfigVar(name string) bool {
	if name == "GIT_CONFIG_COUNT" {
		return true
	}
	rest, ok := strings.CutPrefix(name, "GIT_CONFIG_KEY_")
	if !ok {
		rest, ok = strings.CutPrefix(name, "GIT_CONFIG_VALUE_")
	}
	if !ok || rest == "" {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if rest[i] < '0' || rest[i] > '9' {
			return false
		}
	}
	return true
}

// localGitSection reports the sections of git's configuration that pass the
// scrub: who commits, which directories git trusts, and how a repository
// on this machine is read, shown and merged. A secret sits where git
// reaches a remote — credential.* helpers, http.*.extraHeader,
// url.*.insteadOf with a token, remote URLs — and none of these sections
// does that. A setting passes because its section is listed, never because
// it does not look like a secret. Aliases do not pass: one can carry a
// remote URL with a token, or run a command.
// (A switch, not a map: a map literal is built at package init, which
// every command pays.)
func localGitSection(sec string) bool {
	switch sec {
	case "user", "author", "committer", "safe", "core", "init", "i18n",
		"color", "diff", "log", "status", "advice", "gc", "feature",
		"index", "pack", "pull", "push", "merge", "rebase", "commit",
		"tag", "fetch", "branch", "blame", "grep", "help", "column",
		"format", "apply", "am", "checkout", "clone", "maintenance":
		return true
	}
	return false
}

// remoteCoreSetting reports the core settings that are commands for
// reaching, or signing in to, a remote.
func remoteCoreSetting(name string) bool {
	switch name {
	case "askpass", "sshcommand", "gitproxy":
		return true
	}
	return false
}

// localGitSetting reports whether a git setting named key passes the scrub.
func localGitSetting(key string) bool {
	sec, _, ok := strings.Cut(key, ".")
	if !ok || sec == "" {
		return false
	}
	sec = strings.ToLower(sec)
	name := strings.ToLower(key[strings.LastIndexByte(key, '.')+1:])
	return localGitSection(sec) && !(sec == "core" && remoteCoreSetting(name))
}

// envScrub is the environment a command runs with and the names of the
// variables taken out of it, for the ledger.
type envScrub struct {
	env     []string
	removed []string
}

// scrubbed computes the command's environment once.
func (g *guard) scrubbed() *envScrub {
	if g.scrub == nil {
		s := scrubEnv(g.env, g.strict || g.config().Env.StripCredentials)
		g.scrub = &s
	}
	return g.scrub
}

// scrubEnv removes from env, with strip, the credentials and the routes to a
// stored login: secret-named variables, git's askpass and trace variables,
// and the settings of git's configuration group outside the local sections,
// the group renumbered from 0 because git stops at the first missing index.
// GIT_TERMINAL_PROMPT=0 is set, so git with nobody to ask fails at once
// instead of waiting for a password.
func scrubEnv(env []string, strip bool) envScrub {
	s := envScrub{env: make([]string, 0, len(env)+1)}
	var group map[string]string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case !strip:
		case gitConfigVar(k):
			if group == nil {
				group = map[string]string{}
			}
			group[k] = v
			continue
		case k == "GIT_TERMINAL_PROMPT":
			continue // set below
		case loginRoute(k), redact.SecretEnvName(k):
			s.removed = append(s.removed, k)
			continue
		}
		s.env = append(s.env, kv)
	}
	if strip {
		s.env, s.removed = filterGitConfig(group, s.env, s.removed)
		s.env = append(s.env, "GIT_TERMINAL_PROMPT=0")
	}
	return s
}

// filterGitConfig keeps the local settings of git's configuration group,
// in order, numbered from 0. Like git it reads settings 0 … count-1 and
// stops at the first without its key or value; variables past that are
// not in effect and are dropped too. A dropped setting is recorded by its
// name, GIT_CONFIG(credential.helper), never its value.
func filterGitConfig(group map[string]string, env, removed []string) ([]string, []string) {
	if len(group) == 0 {
		return env, removed
	}
	count, err := strconv.Atoi(group["GIT_CONFIG_COUNT"])
	if err != nil || count < 0 {
		count = 0
	}
	kept := 0
	used := 0
	for i := 0; i < count && i < len(group); i++ {
		n := strconv.Itoa(i)
		key, okK := group["GIT_CONFIG_KEY_"+n]
		val, okV := group["GIT_CONFIG_VALUE_"+n]
		if !okK || !okV || key == "" {
			break
		}
		used += 2
		if !localGitSetting(key) {
			removed = append(removed, "GIT_CONFIG("+gitKeyName(key)+")")
			continue
		}
		m := strconv.Itoa(kept)
		env = append(env, "GIT_CONFIG_KEY_"+m+"="+key, "GIT_CONFIG_VALUE_"+m+"="+val)
		kept++
	}
	if kept > 0 {
		env = append(env, "GIT_CONFIG_COUNT="+strconv.Itoa(kept))
	}
	if _, ok := group["GIT_CONFIG_COUNT"]; ok {
		used++
	}
	if used < len(group) {
		removed = append(removed, "GIT_CONFIG(unused)")
	}
	return env, removed
}

// gitKeyName bounds a setting's name for the record; a name with a
// subsection can be a URL, whose user:password part is cut.
func gitKeyName(key string) string {
	if i := strings.IndexByte(key, '@'); i >= 0 {
		if j := strings.Index(key, "://"); j >= 0 && j < i {
			key = key[:j+3] + "…" + key[i:]
		}
	}
	if len(key) > 80 {
		key = key[:80] + "…"
	}
	return key
}

// childEnv is the environment the command runs with: the caller's, or
// the scrubbed one (--strict). Nothing of guard-exec's is added: a guard
// started inside the command finds this one by its announcement (nest.go).
func (g *guard) childEnv() []string { return g.scrubbed().env }

// envRemoved lists, for the exec record, the names of everything the
// scrub took out of the command's environment.
func (g *guard) envRemoved() []string { return g.scrubbed().removed }
