package redact

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

var markerRE = regexp.MustCompile(`\[REDACTED(:[a-z0-9-]+)?\]`)

// Secrets in these tests are made at run time from a fixed pseudo-random
// sequence, so the source holds nothing a secret scanner would flag and every
// value is shaped like a real one (no repeated units, no stand-in words).
const (
	alnumChars   = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upperNumbers = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	b64Chars     = alnumChars + "+/"
	urlChars     = alnumChars + "-_"
)

// gen returns n characters of alphabet from a generator seeded by seed.
func gen(alphabet string, n int, seed uint32) string {
	var b strings.Builder
	x := seed*2654435761 + 12345
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b.WriteByte(alphabet[x%uint32(len(alphabet))])
	}
	return b.String()
}

var (
	awsID      = "AK" + "IA" + gen(upperNumbers, 16, 1)
	awsTempID  = "AS" + "IA" + gen(upperNumbers, 16, 2)
	awsSecret  = gen(b64Chars, 40, 3)
	ghClassic  = "gh" + "p_" + gen(alnumChars, 36, 4)
	ghOAuth    = "gh" + "o_" + gen(alnumChars, 36, 5)
	ghServer   = "gh" + "s_" + gen(alnumChars, 36, 6)
	ghFine     = "github" + "_pat_" + gen(alnumChars, 22, 7) + "_" + gen(alnumChars, 59, 8)
	glToken    = "gl" + "pat-" + gen(urlChars, 20, 9)
	slackBot   = "xo" + "xb-" + gen("0123456789", 12, 10) + "-" + gen("0123456789", 13, 11) + "-" + gen(alnumChars, 24, 12)
	slackHook  = "T" + gen(upperNumbers, 8, 13) + "/B" + gen(upperNumbers, 8, 14) + "/" + gen(alnumChars, 24, 15)
	openai     = "sk-" + gen(alnumChars, 48, 16)
	openaiProj = "sk-" + "proj-" + gen(urlChars, 64, 17)
	anthropic  = "sk-" + "ant-api03-" + gen(urlChars, 80, 18)
	stripeLive = "sk" + "_live_" + gen(alnumChars, 24, 19)
	stripeRK   = "rk" + "_live_" + gen(alnumChars, 24, 20)
	stripeTest = "sk" + "_test_" + gen(alnumChars, 24, 21)
	jwt        = "eyJhbGciOiJIUzI1NiJ9" + "." + "eyJ" + gen(urlChars, 30, 22) + "." + gen(urlChars, 43, 23)
	password   = "P" + gen(alnumChars+"!^", 14, 24)
	bearer     = gen(alnumChars, 20, 25) + "." + gen(alnumChars, 12, 26)
	basicCred  = gen(b64Chars, 28, 27) + "=="
	pemBody    = gen(b64Chars, 64, 28) + "\n" + gen(b64Chars, 64, 29) + "\n"
)

func TestString(t *testing.T) {
	pemRSA := "-----BEGIN RSA PRIVATE KEY-----\n" + pemBody + "-----END RSA PRIVATE KEY-----"
	pemOpen := "-----BEGIN OPENSSH PRIVATE KEY-----\n" + pemBody + "-----END OPENSSH PRIVATE KEY-----"
	tests := []struct {
		name, in, want string
	}{
		// AWS
		{"aws key id", "export AWS_ACCESS_KEY_ID=" + awsID, "export AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key-id]"},
		{"aws temporary key id", "id " + awsTempID + " used", "id [REDACTED:aws-access-key-id] used"},
		{"aws key id inside a word is no key", "X" + awsID, "X" + awsID},
		{"aws secret env", "AWS_SECRET_ACCESS_KEY=" + awsSecret + " aws s3 ls", "AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret-key] aws s3 ls"},
		{"aws secret ini", "aws_secret_access_key = " + awsSecret + "\n", "aws_secret_access_key = [REDACTED:aws-secret-key]\n"},
		{"aws secret json", `{"SecretAccessKey": "` + awsSecret + `"}`, `{"SecretAccessKey": "[REDACTED:aws-secret-key]"}`},
		{"aws configure set", "aws configure set aws_secret_access_key " + awsSecret, "aws configure set aws_secret_access_key [REDACTED:aws-secret-key]"},
		{"aws secret named in prose", "the aws_secret_access_key is not set", "the aws_secret_access_key is not set"},

		// GitHub, GitLab
		{"github classic", "git clone https://" + ghClassic + "@github.com/o/r", "git clone https://[REDACTED:github-token]@github.com/o/r"},
		{"github oauth", "token " + ghOAuth, "token [REDACTED:github-token]"},
		{"github server", ghServer, "[REDACTED:github-token]"},
		{"github fine-grained", "GH=" + ghFine + ";", "GH=[REDACTED:github-token];"},
		{"github too short", "ghp_abc123", "ghp_abc123"},
		{"gitlab", "glab auth login --token " + glToken, "glab auth login --token [REDACTED:gitlab-token]"},

		// Slack
		{"slack bot token", "SLACK=" + slackBot, "SLACK=[REDACTED:slack-token]"},
		{"slack webhook", "curl -X POST https://hooks.slack.com/services/" + slackHook + " -d @m.json",
			"curl -X POST https://hooks.slack.com/services/[REDACTED:slack-webhook] -d @m.json"},

		// OpenAI, Anthropic, Stripe
		{"openai legacy", "OPENAI_API_KEY=" + openai, "OPENAI_API_KEY=[REDACTED:openai-key]"},
		{"openai project", "key: " + openaiProj, "key: [REDACTED:openai-key]"},
		{"anthropic", "x-api-key: " + anthropic, "x-api-key: [REDACTED:anthropic-key]"},
		{"stripe live", "stripe " + stripeLive, "stripe [REDACTED:stripe-key]"},
		{"stripe restricted", stripeRK, "[REDACTED:stripe-key]"},
		{"stripe test kept", "stripe " + stripeTest, "stripe " + stripeTest},

		// package registries and APIs
		{"npm token", "//registry.npmjs.org/:_authToken=" + "npm_" + gen(alnumChars, 36, 42), "//registry.npmjs.org/:_authToken=[REDACTED:npm-token]"},
		{"pypi token", "twine upload -p " + "pypi-" + gen(urlChars, 80, 43), "twine upload -p [REDACTED:pypi-token]"},
		{"google api key", "?key=" + "AIza" + gen(urlChars, 35, 44), "?key=[REDACTED:google-api-key]"},
		{"hugging face token", "HF_TOKEN=" + "hf_" + gen(alnumChars, 34, 45), "HF_TOKEN=[REDACTED:huggingface-token]"},

		// JWT, private keys
		{"jwt", "cookie=" + jwt + "; path=/", "cookie=[REDACTED:jwt]; path=/"},
		{"private key rsa", "before\n" + pemRSA + "\nafter", "before\n[REDACTED:private-key]\nafter"},
		{"private key openssh", pemOpen, "[REDACTED:private-key]"},
		{"private key cut short", "x\n-----BEGIN EC PRIVATE KEY-----\n" + pemBody, "x\n[REDACTED:private-key]"},
		{"public key kept", "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----", "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----"},

		// Authorization
		{"bearer header", `curl -H "Authorization: Bearer ` + bearer + `" https://api.x`, `curl -H "Authorization: Bearer [REDACTED:authorization]" https://api.x`},
		{"basic header", "Authorization: Basic " + basicCred, "Authorization: Basic [REDACTED:authorization]"},
		{"token header lowercase", "authorization: token " + ghClassic[4:], "authorization: token [REDACTED:authorization]"},
		{"proxy authorization", "Proxy-Authorization: Basic " + basicCred, "Proxy-Authorization: Basic [REDACTED:authorization]"},
		{"header json", `{"Authorization":"Bearer ` + bearer + `"}`, `{"Authorization":"Bearer [REDACTED:authorization]"}`},
		{"bearer flag", "curl --oauth2-bearer " + bearer + " https://x", "curl --oauth2-bearer [REDACTED:bearer] https://x"},
		{"bearer word", "Bearer " + bearer, "Bearer [REDACTED:bearer]"},
		{"bearer prose", "Bearer authentication is required", "Bearer authentication is required"},
		{"bearer variable", `-H "Authorization: Bearer $TOKEN"`, `-H "Authorization: Bearer $TOKEN"`},

		// name=value
		{"password env", "PGPASSWORD=" + password + " psql", "PGPASSWORD=[REDACTED:password] psql"},
		{"password query", "https://x.io/login?user=bob&password=" + password + "&next=/", "https://x.io/login?user=bob&password=[REDACTED:password]&next=/"},
		{"pwd query", "?pwd=" + password, "?pwd=[REDACTED:password]"},
		{"passwd flag", "--passwd " + password, "--passwd [REDACTED:password]"},
		{"password flag equals", "mysql --password=" + password + " db", "mysql --password=[REDACTED:password] db"},
		{"password flag quoted", "app --password '" + password + " x' run", "app --password '[REDACTED:password]' run"},
		{"password json", `{"user":"bob","password": "` + password + `"}`, `{"user":"bob","password": "[REDACTED:password]"}`},
		{"password yaml", "  password: " + password + "\n", "  password: [REDACTED:password]\n"},
		{"db_pass", "DB_PASS=" + password, "DB_PASS=[REDACTED:password]"},
		{"camel pass", "dbPass=" + password, "dbPass=[REDACTED:password]"},
		{"token env", "GITHUB_TOKEN=" + gen(alnumChars, 20, 30) + " gh pr list", "GITHUB_TOKEN=[REDACTED:token] gh pr list"},
		{"token query", "/cb?access_token=" + gen(alnumChars, 30, 31), "/cb?access_token=[REDACTED:token]"},
		{"token flag", "vault login -token " + gen(alnumChars, 26, 32), "vault login -token [REDACTED:token]"},
		{"secret", "client_secret=" + gen(alnumChars, 32, 33), "client_secret=[REDACTED:secret]"},
		{"secret go", `secret := "` + password + `"`, `secret := "[REDACTED:secret]"`},
		{"django secret key", "SECRET_KEY='" + password + "'", "SECRET_KEY='[REDACTED:secret]'"},
		{"api key", "api_key=" + gen(alnumChars, 32, 34), "api_key=[REDACTED:api-key]"},
		{"api key camel json", `"apiKey":"` + gen(alnumChars, 32, 35) + `"`, `"apiKey":"[REDACTED:api-key]"`},
		{"x-api-key header", "-H 'X-Api-Key: " + gen(alnumChars, 32, 36) + "'", "-H 'X-Api-Key: [REDACTED:api-key]'"},

		// CLI flags that are unambiguous in their tool
		{"mysql -p attached", "mysql -u root -p" + password + " shop", "mysql -u root -p[REDACTED:password] shop"},
		{"mysql -p quoted", "mysqldump -uroot -p'" + password + "' shop", "mysqldump -uroot -p'[REDACTED:password]' shop"},
		{"mysql -p prompts", "mysql -u root -p shop", "mysql -u root -p shop"},
		{"sshpass", "sshpass -p " + password + " ssh host", "sshpass -p [REDACTED:password] ssh host"},
		{"curl -u", "curl -u bob:" + password + " https://x", "curl -u bob:[REDACTED:password] https://x"},
		{"curl --user=", "curl --user=bob:" + password + " https://x", "curl --user=bob:[REDACTED:password] https://x"},
		{"mkdir -p is no password", "mkdir -p build/out && ssh -p 2222 host", "mkdir -p build/out && ssh -p 2222 host"},
		{"docker login -p", "docker login -u bob -p " + password + " ghcr.io", "docker login -u bob -p [REDACTED:password] ghcr.io"},
		{"docker login --password", "podman login --password " + password + " quay.io", "podman login --password [REDACTED:password] quay.io"},
		{"docker run -p is a port", "docker run -p 8080:80 nginx", "docker run -p 8080:80 nginx"},

		// URLs
		{"url credentials", "git remote add o https://bob:" + password + "@git.x.io/r.git", "git remote add o https://bob:[REDACTED]@git.x.io/r.git"},
		{"postgres url", "DATABASE_URL=postgres://app:" + password + "@db:5432/app", "DATABASE_URL=postgres://app:[REDACTED]@db:5432/app"},
		{"url at in password", "redis://u:p@ss" + password + "@h:6379", "redis://u:[REDACTED]@h:6379"},
		{"url after a refused one", "see x://a@proxy://u:" + password + "@h", "see x://a@proxy://u:[REDACTED]@h"},
		{"url after a hostless one", "x://h:p://u:" + password + "@h", "x://h:p://u:[REDACTED]@h"},
		{"url user only", "ssh://git@github.com/o/r", "ssh://git@github.com/o/r"},
		{"url no credentials", "see https://example.com/a:b@c", "see https://example.com/a:b@c"},

		// stand-ins stay
		{"aws doc example", "AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"},
		{"aws doc secret", "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
		{"sk-test", "sk-test-" + gen(alnumChars, 30, 40), "sk-test-" + gen(alnumChars, 30, 40)},
		{"xxxx token", "ghp_" + strings.Repeat("x", 36), "ghp_" + strings.Repeat("x", 36)},
		{"placeholder password", "password=<your-password>", "password=<your-password>"},
		{"variable password", `PGPASSWORD="$DB_PASSWORD" psql`, `PGPASSWORD="$DB_PASSWORD" psql`},
		{"dummy secret", "secret=dummy-secret-value", "secret=dummy-secret-value"},
		{"fake token", "token=fake_token_for_ci_runs", "token=fake_token_for_ci_runs"},
		{"stars", "password: ********", "password: ********"},
		{"url placeholder", "https://user:${PASS}@host", "https://user:${PASS}@host"},
		{"pwd is a directory", "PWD=/home/bob/src OLDPWD=/home/bob", "PWD=/home/bob/src OLDPWD=/home/bob"},
		{"boolean", `"password": null, "secret": true`, `"password": null, "secret": true`},

		// false friends
		{"bypass", "bypass=on compass=north", "bypass=on compass=north"},
		{"test status", "--- PASS: TestAppend (0.01s)\nPASS: 3 FAIL: 0", "--- PASS: TestAppend (0.01s)\nPASS: 3 FAIL: 0"},
		{"bash error", "bash: pwd: too many arguments", "bash: pwd: too many arguments"},
		{"pass env", "PASS=" + password + " ./deploy", "PASS=[REDACTED:password] ./deploy"},
		{"tokens count", "tokens: 1234, max_tokens=256", "tokens: 1234, max_tokens=256"},
		{"password prompt", `read -s -p "Password: " pw`, `read -s -p "Password: " pw`},
		{"comparison", `if [ "$token" == "" ]; then`, `if [ "$token" == "" ]; then`},
		{"password file flag", "--password-file /run/secrets/db", "--password-file /run/secrets/db"},
		{"task id", "task-" + gen(alnumChars, 30, 41), "task-" + gen(alnumChars, 30, 41)},
		{"plain", "go test ./... -run TestAppend -count=1", "go test ./... -run TestAppend -count=1"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := String(tt.in, nil)
			if got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if again := String(got, nil); again != got {
				t.Errorf("not idempotent: %q -> %q", got, again)
			}
		})
	}
}

func TestStringExtra(t *testing.T) {
	v := gen(alnumChars, 16, 50)
	in := "echo " + v + " and again " + v + "; echo short"
	got := String(in, []string{v, "short", ""})
	want := "echo [REDACTED:env] and again [REDACTED:env]; echo short"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestStream(t *testing.T) {
	var st Stream
	chunks := []string{
		"$ cat id_rsa\r\n-----BEGIN OPENSSH PRIVATE KEY-----\r\n" + gen(b64Chars, 40, 60),
		gen(b64Chars, 70, 61) + "\r\n",
		gen(b64Chars, 20, 62) + "\r\n-----END OPENSSH PRIVATE KEY-----\r\n$ ",
		"echo done\r\n",
	}
	var got []string
	for _, c := range chunks {
		got = append(got, st.String(c))
	}
	want := []string{"$ cat id_rsa\r\n[REDACTED:private-key]", "", "\r\n$ ", "echo done\r\n"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("chunk %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

func TestSecretEnvName(t *testing.T) {
	tests := map[string]bool{
		"GITHUB_TOKEN": true, "GH_TOKEN": true, "NPM_TOKEN": true, "AWS_SESSION_TOKEN": true,
		"AWS_SECRET_ACCESS_KEY": true, "AWS_ACCESS_KEY_ID": true, "OPENAI_API_KEY": true,
		"ANTHROPIC_API_KEY": true, "STRIPE_SECRET": true, "CLIENT_SECRET": true, "PGPASSWORD": true,
		"DB_PASSWORD": true, "MYSQL_PWD": true, "REDIS_PASS": true, "SMTP_PASSWD": true,
		"GOOGLE_APPLICATION_CREDENTIALS": true, "DOCKER_CREDS": true, "GPG_PASSPHRASE": true,
		"AZURE_DEVOPS_PAT": true, "SIGNING_KEY": true, "github_token": true, "TOKEN": true,
		"SECRET": true, "PASSWORD": true, "MY_APIKEY": true,

		"PATH": false, "PWD": false, "OLDPWD": false, "HOME": false, "SSH_AUTH_SOCK": false,
		"KEYTIMEOUT": false, "MONKEY": false, "TERM_PROGRAM": false, "XKB_KEYBOARD": false,
		"GPG_KEY_ID": false, "SSH_PUBLIC_KEY": false, "KEY": false, "PASS": false,
		"SUDO_ASKPASS": false, "GIT_ASKPASS": false, "TOKENIZERS_PARALLELISM": false,
		"SECRETS_DIR": false, "LESSKEY": false, "HISTFILE": false, "": false,
	}
	for name, want := range tests {
		if got := SecretEnvName(name); got != want {
			t.Errorf("SecretEnvName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestStripANSI(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text\n", "plain text\n"},
		{"\x1b[31mred\x1b[0m", "red"},
		{"\x1b[1;38;5;208mbold\x1b[m end", "bold end"},
		{"\x1b[2K\x1b[1Gprogress 50%\r", "progress 50%\r"},
		{"\x1b[?25lhidden cursor\x1b[?25h", "hidden cursor"},
		{"\x1b]0;window title\x07after", "after"},
		{"\x1b]8;;https://x.io\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"\x1bPq#0;2;0;0;0\x1b\\sixel gone", "sixel gone"},
		{"\x1b(Bascii\x1b)0", "ascii"},
		{"\x1b=keypad\x1b>", "keypad"},
		{"\x1b7saved\x1b8", "saved"},
		{"cut \x1b[3", "cut "},
		{"open osc \x1b]0;never closed", "open osc "},
		{"trailing esc \x1b", "trailing esc "},
		{"utf-8 \xe2\x9c\x93 \x1b[32mok\x1b[0m", "utf-8 \xe2\x9c\x93 ok"},
	}
	for _, tt := range tests {
		if got := string(StripANSI([]byte(tt.in))); got != tt.want {
			t.Errorf("StripANSI(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzString(f *testing.F) {
	f.Add("PGPASSWORD="+password+" psql", "")
	f.Add("curl -H 'Authorization: Bearer "+bearer+"' https://user:pw@x", gen(alnumChars, 9, 70))
	f.Add("-----BEGIN RSA PRIVATE KEY-----\n"+pemBody, "")
	f.Add(ghClassic+" "+jwt+" "+awsID+" mysql -p'x y'", "")
	f.Fuzz(func(t *testing.T, s, extra string) {
		// Idempotence is checked without extra values: an extra value
		// glued to a word can, once replaced, leave that word standing
		// alone, and a second pass may then find more. That is harmless.
		if out, again := String(s, nil), String(String(s, nil), nil); again != out {
			t.Fatalf("not idempotent:\n in %q\nout %q\n2nd %q", s, out, again)
		}
		out := String(s, []string{extra})
		// An extra value may only reappear inside a marker's own text.
		if len(extra) >= minExtra && !strings.Contains(extra, "\x00") &&
			strings.Contains(markerRE.ReplaceAllString(out, "\x00"), extra) {
			t.Fatalf("extra value %q survived in %q", extra, out)
		}
	})
}

// adversarial are inputs full of anchors, each of which a naive matcher
// would answer by reading to the end of the text: quadratic, so a megabyte
// of one would stall the guard for minutes.
var adversarial = []string{
	"pass", "password=$", "password=example_", "token:", "secret=", "api_key=*", "PASS: ",
	"curl ", "curl;", "curl -u ", "mysql -p", "docker ", "sshpass -p $", "-p'",
	"xoxb-", "xoxb-example-", "ghp_", "sk-", "sk-example", "eyJ", "eyJaaaaaaaaaaaa.",
	"authorization:$", "authorization: digest ", "bearer ", "bearer $aaaaaaaa1",
	"://", "a://b:$x@", "-----BEGIN A-----", "AKIA", "npm_", "hooks.slack.com/services/",
}

// TestRedactAdversarial checks that such input is read in linear time: a
// megabyte of each finishes within a bound a quadratic scan could not meet
// (it would take minutes), so the test catches a regression without timing
// ordinary speed.
func TestRedactAdversarial(t *testing.T) {
	for _, unit := range adversarial {
		s := strings.Repeat(unit, (1<<20)/len(unit))
		done := make(chan struct{})
		go func() { String(s, nil); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("a megabyte of %q took over 20 s: some matcher is quadratic", unit)
		}
	}
}
