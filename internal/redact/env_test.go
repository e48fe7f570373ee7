package redact

import "testing"

// TestSecretEnvNameScrub covers the names environment scrubbing relies
// on besides TestSecretEnvName's.
func TestSecretEnvNameScrub(t *testing.T) {
	tests := map[string]bool{
		"SECRET_KEY_BASE": true, "GITHUB_TOKEN_WRITE": true, "NPM_CONFIG__AUTH": true, "BASIC_AUTH": true,
		"SENTRY_DSN": true, "HF_AUTHTOKEN": true, "ACTIONS_RUNTIME_TOKEN": true, "CI_JOB_TOKEN": true,
		"AWS_SESSION_TOKEN": true, "JWT_SECRET_KEY": true, "AZURE_CLIENT_SECRET": true,

		"SSH_AUTH_SOCK": false, "KEYTIMEOUT": false, "PATH": false, "PWD": false, "OLDPWD": false,
		"SECRETS_DIR": false, "TOKENIZERS_PARALLELISM": false, "AUTHOR_NAME": false, "GIT_AUTHOR_NAME": false,
		"GIT_TERMINAL_PROMPT": false, "GIT_CONFIG_COUNT": false, "LANG": false, "TERM": false,
	}
	for name, want := range tests {
		if got := SecretEnvName(name); got != want {
			t.Errorf("SecretEnvName(%q) = %v, want %v", name, got, want)
		}
	}
}
