package main

import (
	"reflect"
	"sort"
	"testing"
)

func TestScrubEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     []string
		strip   bool
		want    []string
		removed []string
	}{
		{
			name:    "code bash takes from the environment passes: the analysis judged it",
			env:     []string{"PATH=/bin", "BASH_ENV=/x", "ENV=/y", "BASH_FUNC_ls%%=() { :; }", "BASH_FUNC_cd()=() { :; }", "GITHUB_TOKEN=t"},
			want:    []string{"PATH=/bin", "BASH_ENV=/x", "ENV=/y", "BASH_FUNC_ls%%=() { :; }", "BASH_FUNC_cd()=() { :; }", "GITHUB_TOKEN=t"},
			removed: nil,
		},
		{
			name:    "guard-exec's own names pass like any other: nothing is added or taken",
			env:     []string{"GUARD_EXEC_PARENT=ev-0009", "GUARD_EXEC_SANDBOX=write", "HOME=/h"},
			want:    []string{"GUARD_EXEC_PARENT=ev-0009", "GUARD_EXEC_SANDBOX=write", "HOME=/h"},
			removed: nil,
		},
		{
			name: "strict removes secrets and login routes, keeps the rest",
			env: []string{"PATH=/bin", "PWD=/p", "OLDPWD=/o", "SSH_AUTH_SOCK=/s", "KEYTIMEOUT=1", "GITHUB_TOKEN=t",
				"AWS_SECRET_ACCESS_KEY=k", "AWS_SESSION_TOKEN=s", "DB_PASSWORD=p", "GIT_ASKPASS=/a", "SSH_ASKPASS=/a",
				"SSH_ASKPASS_REQUIRE=force", "SUDO_ASKPASS=/a", "GIT_TRACE=1", "GIT_TRACE_CURL=1", "GIT_CURL_VERBOSE=1",
				"GCM_TRACE=1", "GIT_CONFIG_PARAMETERS='credential.helper'='store'", "VSCODE_GIT_IPC_HANDLE=/x",
				"GIT_TERMINAL_PROMPT=1"},
			strip: true,
			want:  []string{"PATH=/bin", "PWD=/p", "OLDPWD=/o", "SSH_AUTH_SOCK=/s", "KEYTIMEOUT=1", "GIT_TERMINAL_PROMPT=0"},
			removed: []string{"GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "DB_PASSWORD", "GIT_ASKPASS",
				"SSH_ASKPASS", "SSH_ASKPASS_REQUIRE", "SUDO_ASKPASS", "GIT_TRACE", "GIT_TRACE_CURL", "GIT_CURL_VERBOSE",
				"GCM_TRACE", "GIT_CONFIG_PARAMETERS", "VSCODE_GIT_IPC_HANDLE"},
		},
		{
			name: "git's group is filtered by setting and renumbered from 0",
			env: []string{"GIT_CONFIG_COUNT=4",
				"GIT_CONFIG_KEY_0=credential.helper", "GIT_CONFIG_VALUE_0=store",
				"GIT_CONFIG_KEY_1=user.name", "GIT_CONFIG_VALUE_1=A Person",
				"GIT_CONFIG_KEY_2=http.https://github.com/.extraheader", "GIT_CONFIG_VALUE_2=AUTHORIZATION: basic x",
				"GIT_CONFIG_KEY_3=safe.directory", "GIT_CONFIG_VALUE_3=*"},
			strip: true,
			want: []string{"GIT_CONFIG_KEY_0=user.name", "GIT_CONFIG_VALUE_0=A Person",
				"GIT_CONFIG_KEY_1=safe.directory", "GIT_CONFIG_VALUE_1=*", "GIT_CONFIG_COUNT=2", "GIT_TERMINAL_PROMPT=0"},
			removed: []string{"GIT_CONFIG(credential.helper)", "GIT_CONFIG(http.https://github.com/.extraheader)"},
		},
		{
			name: "core settings that reach a remote are dropped; url rewrites and aliases too",
			env: []string{"GIT_CONFIG_COUNT=4",
				"GIT_CONFIG_KEY_0=core.sshCommand", "GIT_CONFIG_VALUE_0=ssh -i k",
				"GIT_CONFIG_KEY_1=core.autocrlf", "GIT_CONFIG_VALUE_1=input",
				"GIT_CONFIG_KEY_2=url.https://x-access-token:t@github.com/.insteadOf", "GIT_CONFIG_VALUE_2=https://github.com/",
				"GIT_CONFIG_KEY_3=alias.p", "GIT_CONFIG_VALUE_3=push"},
			strip: true,
			want:  []string{"GIT_CONFIG_KEY_0=core.autocrlf", "GIT_CONFIG_VALUE_0=input", "GIT_CONFIG_COUNT=1", "GIT_TERMINAL_PROMPT=0"},
			removed: []string{"GIT_CONFIG(core.sshCommand)", "GIT_CONFIG(url.https://…@github.com/.insteadOf)",
				"GIT_CONFIG(alias.p)"},
		},
		{
			name: "git stops at the first missing index; what follows is not in effect",
			env: []string{"GIT_CONFIG_COUNT=3", "GIT_CONFIG_KEY_0=user.name", "GIT_CONFIG_VALUE_0=A",
				"GIT_CONFIG_KEY_2=user.email", "GIT_CONFIG_VALUE_2=b@example.com"},
			strip:   true,
			want:    []string{"GIT_CONFIG_KEY_0=user.name", "GIT_CONFIG_VALUE_0=A", "GIT_CONFIG_COUNT=1", "GIT_TERMINAL_PROMPT=0"},
			removed: []string{"GIT_CONFIG(unused)"},
		},
		{
			name:    "a count that is no number leaves nothing",
			env:     []string{"GIT_CONFIG_COUNT=lots", "GIT_CONFIG_KEY_0=user.name", "GIT_CONFIG_VALUE_0=A"},
			strip:   true,
			want:    []string{"GIT_TERMINAL_PROMPT=0"},
			removed: []string{"GIT_CONFIG(unused)"},
		},
		{
			name:  "a huge count costs nothing",
			env:   []string{"GIT_CONFIG_COUNT=999999999", "GIT_CONFIG_KEY_0=user.name", "GIT_CONFIG_VALUE_0=A"},
			strip: true,
			want:  []string{"GIT_CONFIG_KEY_0=user.name", "GIT_CONFIG_VALUE_0=A", "GIT_CONFIG_COUNT=1", "GIT_TERMINAL_PROMPT=0"},
		},
		{
			name: "without strip the group passes untouched",
			env:  []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=credential.helper", "GIT_CONFIG_VALUE_0=store"},
			want: []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=credential.helper", "GIT_CONFIG_VALUE_0=store"},
		},
		{
			name:  "GIT_CONFIG_KEY_ look-alikes are ordinary variables",
			env:   []string{"GIT_CONFIG_KEY_X=1", "GIT_CONFIG_GLOBAL=/g"},
			strip: true,
			want:  []string{"GIT_CONFIG_KEY_X=1", "GIT_CONFIG_GLOBAL=/g", "GIT_TERMINAL_PROMPT=0"},
		},
	}
	for _, tt := range tests {
		s := scrubEnv(tt.env, tt.strip)
		if !reflect.DeepEqual(s.env, tt.want) {
			t.Errorf("%s: env\n got %q\nwant %q", tt.name, s.env, tt.want)
		}
		got, want := append([]string(nil), s.removed...), append([]string(nil), tt.removed...)
		sort.Strings(got)
		sort.Strings(want)
		if len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
			t.Errorf("%s: removed\n got %q\nwant %q", tt.name, got, want)
		}
	}
}

func TestLocalGitSetting(t *testing.T) {
	for key, want := range map[string]bool{
		"user.name": true, "User.Email": true, "core.autocrlf": true, "safe.directory": true, "init.defaultBranch": true,
		"core.askPass": false, "core.sshCommand": false, "core.gitProxy": false, "credential.helper": false,
		"credential.https://x.helper": false, "http.extraHeader": false, "url.x.insteadOf": false,
		"remote.origin.url": false, "alias.co": false, "include.path": false, "noDot": false, ".x": false,
	} {
		if got := localGitSetting(key); got != want {
			t.Errorf("localGitSetting(%q) = %v, want %v", key, got, want)
		}
	}
}
