package policy

import (
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/parse"
)

// interpreters are the interpreters whose input, a heredoc or a
// here-string they run, is read as their code.
var interpreters = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"python": true, "pypy": true, "pypy3": true, "node": true, "nodejs": true,
		"deno": true, "bun": true, "perl": true, "ruby": true, "php": true}
})

// codeLangs are the languages of the code roles interpCode reads.
var codeLangs = map[string]bool{"python": true, "js": true, "perl": true, "ruby": true, "php": true}

// interpCode returns the inline code an interpreter runs: its code roles
// as parse reads them (python -c, node -e, perl -e, ruby -e, php -r, and
// the like of the rows that take code), and a heredoc it executes.
func interpCode(c *parse.Command) string {
	var code strings.Builder
	for _, ra := range c.Roles {
		if ra.Role == parse.RoleCode && codeLangs[ra.Lang] {
			code.WriteString(ra.Word.Value)
			code.WriteByte('\n')
		}
	}
	name := c.Name
	if strings.HasPrefix(name, "python") {
		name = "python"
	}
	if in := c.Stdin; in != nil && in.Executed && (in.Kind == parse.InputHeredoc || in.Kind == parse.InputHereString) && interpreters()[name] {
		code.WriteString(in.Text)
	}
	return code.String()
}

// codeCredMarks are credential stores as interpreter code names them.
var codeCredMarks = []string{
	".ssh/id_", "id_rsa", "id_ed25519", "id_ecdsa", ".aws/credentials", ".aws/config", ".netrc", ".npmrc",
	".pypirc", ".git-credentials", ".kube/config", ".docker/config.json", "gh/hosts.yml", ".gnupg",
	"'.env'", `".env"`, "/.env'", `/.env"`,
}

// codeEnvMarks are ways interpreter code takes the whole environment.
var codeEnvMarks = []string{
	"os.environ)", "dict(os.environ", "os.environ.items", "os.environ.copy", "str(os.environ", "**os.environ",
	"dict(environ", "os.environb", "process.env)", "stringify(process.env", "entries(process.env",
	"%env", "env.to_h", "env.to_a", "env.each", "getenv()", "$_env", "$_server", "/proc/self/environ",
}

// codeNetMarks are network APIs of the common interpreters.
var codeNetMarks = []string{
	"requests.", "urllib", "http.client", "httplib", "socket", "ftplib", "smtplib", "aiohttp", "httpx",
	"paramiko", "pycurl", "urlopen", "fetch(", "http.request", "https.request", "http.get(", "https.get(",
	"net.connect", "createconnection", "axios", "xmlhttprequest", "websocket", "lwp::", "http::tiny",
	"io::socket", "net::http", "open-uri", "tcpsocket", "httparty", "faraday", "curl_exec", "fsockopen",
	"stream_socket_client", "file_get_contents('http", `file_get_contents("http`,
}

func codeTaint(code string) taint {
	lower := strings.ToLower(code)
	var t taint
	if containsAny(lower, codeCredMarks) {
		t |= taintCred
	}
	if containsAny(lower, codeEnvMarks) {
		t |= taintEnv
	}
	return t
}

// codePersistMarks are persistence points as interpreter code names them,
// and codeWriteMarks the ways it writes a file.
var (
	codePersistMarks = []string{".bashrc", ".bash_profile", "/.profile", ".zshrc", ".zprofile", "authorized_keys",
		".git/hooks", "/etc/cron", "/var/spool/cron", "/etc/sudoers", "systemd/user", ".config/autostart",
		"/etc/profile", "launchagents"}
	codeWriteMarks = []string{"'a'", `"a"`, "'w'", `"w"`, "'a+'", "'w+'", `"a+"`, `"w+"`, "write_text", "writefile",
		"appendfile", "file.write", "shutil.copy", "symlink", ">>", "open(f,'a')", "file.open"}
)

// codePersists reports whether inline code writes a persistence point:
// a string literal naming one, and a way of writing that is code, not
// text inside that literal. print('open("~/.bashrc","w")') is a message
// about writing one; open(p + '/.bashrc', 'w') writes it.
func codePersists(code string) bool {
	lower := strings.ToLower(code)
	if !containsAny(lower, codePersistMarks) || !containsAny(lower, codeWriteMarks) {
		return false
	}
	named, writes := false, false
	outside := codeOutsideLiterals(lower, func(lit string) {
		if containsAny(lit, codePersistMarks) {
			named = true
			if strings.HasPrefix(lit, ">") || strings.HasPrefix(lit, "+>") {
				writes = true // perl's open(F, ">>/home/dev/.bashrc")
			}
		}
		switch lit {
		case "a", "w", "a+", "w+", "ab", "wb", ">>", ">":
			writes = true // a mode of its own: open(p, 'a')
		}
	})
	if containsAny(outside, codePersistMarks) {
		named = true // a heredoc body or a bare word: judged as before
	}
	return named && (writes || containsAny(outside, codeWriteMarks))
}

// codeOutsideLiterals returns code with its quoted string literals
// blanked out, and hands each literal's contents to lit. Quotes are the
// ones python, node, perl and ruby share; a backslash escapes the next
// byte inside a literal.
func codeOutsideLiterals(code string, lit func(string)) string {
	var out strings.Builder
	for i := 0; i < len(code); i++ {
		q := code[i]
		if q != '\'' && q != '"' && q != '`' {
			out.WriteByte(q)
			continue
		}
		j := i + 1
		for j < len(code) && code[j] != q {
			if code[j] == '\\' {
				j++
			}
			j++
		}
		if j > len(code) {
			j = len(code)
		}
		lit(code[i+1 : j])
		out.WriteByte(' ')
		i = j
	}
	return out.String()
}

func codeNetwork(code string) bool { return containsAny(strings.ToLower(code), codeNetMarks) }

func containsAny(s string, marks []string) bool {
	for _, m := range marks {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}
