package redact

import "strings"

// rule ties the anchors of one kind of secret to the matcher that judges an
// occurrence. Anchors are lowercase and at least three bytes long; each
// matcher checks case on the original bytes where case matters.
type rule struct {
	anchors []string
	match   matchFunc
}

// rules is the detector table, in priority order: where two detectors claim
// overlapping text, the one listed first names the marker.
var rules = [...]rule{
	{[]string{"-----begin "}, matchPrivateKey},
	{[]string{"akia", "asia"}, matchAWSKeyID},
	{[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, matchGitHub},
	{[]string{"glpat-", "gldt-", "glrt-", "glptt-"}, matchGitLab},
	{[]string{"xox", "xapp-"}, matchSlack},
	{[]string{"hooks.slack.com/services/"}, matchSlackHook},
	{[]string{"sk-"}, matchSK},
	{[]string{"_live_", "whsec_"}, matchStripe},
	{[]string{"npm_", "pypi-", "aiza", "hf_"}, matchRegistry},
	{[]string{"eyj"}, matchJWT},
	{[]string{"authorization"}, matchAuthorization},
	{[]string{"bearer"}, matchBearer},
	{[]string{"://"}, matchURL},
	{[]string{"pass", "pwd", "token", "secret", "api"}, matchNamed},
	{[]string{"mysql", "mariadb", "sshpass", "curl", "docker", "podman"}, matchToolFlag},
	{[]string{"-p'", `-p"`}, matchQuotedP},
}

// matchPrivateKey takes a PEM private key block from its BEGIN line to the end
// of its END line, or to the end of the text when the END line is not there
// (a digest cut in the middle of a key must not keep the rest of it).
func matchPrivateKey(s string, at int, _ string, out []span) ([]span, int) {
	const begin = "-----BEGIN "
	if !strings.HasPrefix(s[at:], begin) {
		return out, 0
	}
	label := at + len(begin)
	n := strings.Index(s[label:min(len(s), label+80)], "-----")
	if n < 0 {
		return out, 0
	}
	if l := s[label : label+n]; !strings.HasSuffix(l, "PRIVATE KEY") && !strings.HasSuffix(l, "PRIVATE KEY BLOCK") {
		return out, 0
	}
	body := label + n + len("-----")
	e := strings.Index(s[body:], "-----END ")
	if e < 0 {
		return append(out, span{start: at, end: len(s), repl: mark("private-key"), open: true}), 0
	}
	e += body + len("-----END ")
	if c := strings.Index(s[e:min(len(s), e+80)], "-----"); c >= 0 {
		e += c + len("-----")
	} else {
		e = lineEnd(s, e)
	}
	return append(out, span{start: at, end: e, repl: mark("private-key")}), 0
}

// matchAWSKeyID takes an access key id: AKIA (long-term) or ASIA (temporary)
// and 16 capitals or digits.
func matchAWSKeyID(s string, at int, _ string, out []span) ([]span, int) {
	end := at + 20
	if end > len(s) || (s[at:at+4] != "AKIA" && s[at:at+4] != "ASIA") || !boundary(s, at, alnum) || !after(s, end, alnum) {
		return out, 0
	}
	if run(s, at+4, upperNum) < end || standIn(s[at+4:end]) {
		return out, 0
	}
	return append(out, span{start: at, end: end, repl: mark("aws-access-key-id")}), 0
}

// matchGitHub takes classic tokens (ghp_ and friends, 36 characters after
// the prefix; a few less are accepted) and fine-grained github_pat_ tokens.
func matchGitHub(s string, at int, a string, out []span) ([]span, int) {
	if !strings.HasPrefix(s[at:], a) || !boundary(s, at, word) {
		return out, 0
	}
	body := at + len(a)
	var end int
	if a == "github_pat_" {
		end = run(s, body, word)
		if end-body < 22 {
			return out, end
		}
	} else if end = run(s, body, alnum); end-body < 30 {
		return out, end
	}
	if standIn(s[body:end]) {
		return out, end
	}
	return append(out, span{start: at, end: end, repl: mark("github-token")}), 0
}

func matchGitLab(s string, at int, a string, out []span) ([]span, int) {
	if !strings.HasPrefix(s[at:], a) || !boundary(s, at, urlsafe) {
		return out, 0
	}
	body := at + len(a)
	end := run(s, body, gitlabCh)
	for end > body && s[end-1] == '.' { // a sentence's full stop is not part of the token
		end--
	}
	if end-body < 20 || standIn(s[body:end]) {
		return out, end
	}
	return append(out, span{start: at, end: end, repl: mark("gitlab-token")}), 0
}

// matchSlack takes bot, user, app, refresh and configuration tokens:
// xoxb-…, xoxp-…, xoxa-…, xoxr-…, xoxs-…, xoxe-…, xoxe.xoxp-…, xapp-….
func matchSlack(s string, at int, a string, out []span) ([]span, int) {
	if !strings.HasPrefix(s[at:], a) || !boundary(s, at, alnum) {
		return out, 0
	}
	body := at + len(a)
	if a == "xox" {
		if len(s) < at+5 || !strings.ContainsRune("abprse", rune(s[at+3])) {
			return out, 0
		}
		if s[at+4] != '-' && (s[at+3] != 'e' || s[at+4] != '.') {
			return out, 0
		}
		body = at + 5
	}
	end := run(s, body, slackCh)
	for end > body && (s[end-1] == '.' || s[end-1] == '-') {
		end--
	}
	if end-body < 10 || standIn(s[body:end]) {
		return out, end
	}
	return append(out, span{start: at, end: end, repl: mark("slack-token")}), 0
}

// matchSlackHook keeps the webhook's host and redacts its path, which is the
// whole credential.
func matchSlackHook(s string, at int, a string, out []span) ([]span, int) {
	body := at + len(a)
	end := run(s, body, hookCh)
	if end-body < 8 {
		return out, end
	}
	path := s[body:end]
	if standIn(path[strings.LastIndexByte(path, '/')+1:]) {
		return out, end
	}
	return append(out, span{start: body, end: end, repl: mark("slack-webhook")}), 0
}

// matchSK takes OpenAI keys (sk-…, sk-proj-…, sk-svcacct-…) and Anthropic
// keys (sk-ant-…).
func matchSK(s string, at int, _ string, out []span) ([]span, int) {
	if !strings.HasPrefix(s[at:], "sk-") || !boundary(s, at, urlsafe) {
		return out, 0
	}
	kind, body := "openai-key", at+3
	if strings.HasPrefix(s[body:], "ant-") {
		kind, body = "anthropic-key", body+4
	}
	end := run(s, body, urlsafe)
	if end-body < 20 || standIn(s[body:end]) {
		return out, end
	}
	return append(out, span{start: at, end: end, repl: mark(kind)}), 0
}

// matchStripe takes live secret and restricted keys and webhook signing
// secrets. Test-mode keys (sk_test_) are kept: they move no money.
func matchStripe(s string, at int, a string, out []span) ([]span, int) {
	start, minBody, kind := at, 24, "stripe-webhook-secret"
	if a == "_live_" {
		if at < 2 || (s[at-2:at] != "sk" && s[at-2:at] != "rk") {
			return out, 0
		}
		start, minBody, kind = at-2, 16, "stripe-key"
	}
	if !strings.HasPrefix(s[at:], a) || !boundary(s, start, alnum) {
		return out, 0
	}
	body := at + len(a)
	end := run(s, body, alnum)
	if end-body < minBody || standIn(s[body:end]) {
		return out, end
	}
	return append(out, span{start: start, end: end, repl: mark(kind)}), 0
}

// matchJWT takes header.payload.signature where both header and payload are
// base64url JSON objects (so they start with "eyJ").
func matchJWT(s string, at int, _ string, out []span) ([]span, int) {
	if !strings.HasPrefix(s[at:], "eyJ") || !boundary(s, at, urlsafe) {
		return out, 0
	}
	e1 := run(s, at, urlsafe)
	if e1-at < 10 || e1 >= len(s) || s[e1] != '.' || !strings.HasPrefix(s[e1+1:], "eyJ") {
		return out, e1
	}
	e2 := run(s, e1+1, urlsafe)
	if e2-e1-1 < 10 || e2 >= len(s) || s[e2] != '.' {
		return out, e1
	}
	return append(out, span{start: at, end: run(s, e2+1, urlsafe), repl: mark("jwt")}), 0
}

// registryTokens are prefixed tokens of package registries and APIs: the
// prefix (case as written), the body's alphabet, its shortest length, and
// the marker kind.
var registryTokens = map[string]struct {
	prefix string
	body   *class
	min    int
	kind   string
}{
	"npm_":  {"npm_", alnum, 36, "npm-token"},
	"pypi-": {"pypi-", urlsafe, 50, "pypi-token"},
	"aiza":  {"AIza", urlsafe, 35, "google-api-key"},
	"hf_":   {"hf_", alnum, 30, "huggingface-token"},
}

// matchRegistry takes npm, PyPI, Google API and Hugging Face tokens.
func matchRegistry(s string, at int, a string, out []span) ([]span, int) {
	t := registryTokens[a]
	if !strings.HasPrefix(s[at:], t.prefix) || !boundary(s, at, urlsafe) {
		return out, 0
	}
	body := at + len(t.prefix)
	end := run(s, body, t.body)
	if end-body < t.min || standIn(s[body:end]) {
		return out, end
	}
	return append(out, span{start: at, end: end, repl: mark(t.kind)}), 0
}
