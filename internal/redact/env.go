package redact

import "strings"

// SecretEnvName reports whether an environment variable's name says its value
// is a secret: *_TOKEN, *_SECRET, *_KEY, *PASSWORD*, *_PASS, *_PWD,
// *_CREDENTIALS, *_APIKEY, *_AUTH, *_AUTHTOKEN, *_DSN, AWS_ACCESS_KEY_ID,
// the words SECRET and TOKEN anywhere in the name (SECRET_KEY_BASE,
// GITHUB_TOKEN_WRITE), and the bare words TOKEN, SECRET, PASSWORD, PASSWD,
// APIKEY. The name is split into words at '_' and judged mostly by its last
// word, so SSH_AUTH_SOCK, KEYTIMEOUT, MONKEY, PWD, OLDPWD, TERM_PROGRAM,
// *_KEYBOARD and *_KEY_ID stay what they are.
func SecretEnvName(name string) bool {
	n := strings.ToUpper(name)
	if strings.Contains(n, "PASSWORD") || strings.Contains(n, "PASSWD") || strings.Contains(n, "PASSPHRASE") {
		return true
	}
	if n == "AWS_ACCESS_KEY_ID" { // half of a key pair; it names the account
		return true
	}
	i := strings.LastIndexByte(n, '_')
	last := n[i+1:]
	if i < 0 { // one word: only the unmistakable ones
		switch last {
		case "TOKEN", "SECRET", "APIKEY", "CREDENTIALS":
			return true
		}
		return false
	}
	switch last {
	case "TOKEN", "SECRET", "PASS", "PWD", "APIKEY", "CREDENTIALS", "CREDENTIAL", "CREDS", "PAT",
		"AUTH", "AUTHTOKEN", "DSN":
		return true
	case "KEY":
		// A public key is published on purpose.
		return !strings.HasSuffix(n, "PUBLIC_KEY") && !strings.HasSuffix(n, "PUB_KEY")
	}
	return hasWord(n[:i], "SECRET") || hasWord(n[:i], "TOKEN")
}

// hasWord reports whether the '_'-separated name n has the word w.
func hasWord(n, w string) bool {
	for len(n) > 0 {
		var word string
		word, n, _ = strings.Cut(n, "_")
		if word == w {
			return true
		}
	}
	return false
}
