package policy

import (
	"strings"

	"github.com/guard-exec/guard-exec/internal/redact"
	"github.com/guard-exec/guard-exec/parse"
)

// taint is what a command's output carries.
type taint uint8

const (
	taintCred taint = 1 << iota // the content of a credential store, or a token a tool printed
	taintEnv                    // the environment, where tokens live
)

// findingOf maps a taint to the rule it breaks when it leaves the machine.
func (t taint) findings() []finding {
	var fs []finding
	if t&taintCred != 0 {
		fs = append(fs, fCredExfil)
	}
	if t&taintEnv != 0 {
		fs = append(fs, fEnvExfil)
	}
	return fs
}

// netPath reports whether p is one of bash's network pseudo-files.
func netPath(p string) bool {
	return strings.HasPrefix(p, "/dev/tcp/") || strings.HasPrefix(p, "/dev/udp/")
}

// pathTaint says what reading the resolved path p gives.
func (x *Ctx) pathTaint(p string) taint {
	if within(p, "/proc") && strings.HasSuffix(p, "/environ") {
		return taintEnv
	}
	if cred, _ := x.credPath(p); cred {
		return taintCred
	}
	return 0
}

// sendTaint says what sending the resolved path p (a file or a whole
// directory) gives away: a directory that holds the home directory's
// stores (~, ~/.ssh) gives them all, and a file an earlier command of the
// script filled from one (zip -r /tmp/k.zip ~/.ssh) gives what it holds.
func (x *Ctx) sendTaint(b *boundaryState, p string) taint {
	t := x.pathTaint(p)
	if x.Home != "" && (x.credDir(p) || within(x.Home, p)) {
		t |= taintCred
	}
	for f, ft := range b.files {
		if within(f, p) {
			t |= ft
		}
	}
	return t
}

// upstreamTaint is what reaches a command on standard input from the
// commands before it in its pipeline (or its here-string's substitutions).
func (b *boundaryState) upstreamTaint(c *parse.Command) taint {
	var t taint
	if c.Stdin != nil {
		for _, u := range c.Stdin.Upstream() {
			t |= b.taints[u]
		}
	}
	return t
}

// taintWrites marks the files a tainted command writes: what it wrote
// carries what it read.
func (x *Ctx) taintWrites(b *boundaryState, ws []write, t taint) {
	for _, w := range ws {
		switch w.kind {
		case wWrite, wAppend, wModify, wInto, wCreate:
		default:
			continue
		}
		if !w.t.Known {
			continue
		}
		p, _ := x.locate(w.t, true)
		if b.files == nil {
			b.files = map[string]taint{}
		}
		if len(b.files) < 64 {
			b.files[p] |= t
		}
	}
}

// readTaint is what a command prints or copies from the files it reads:
// credential stores and process environments among its read operands or
// its input redirection.
func (x *Ctx) readTaint(c *parse.Command) taint {
	var t taint
	if c.Stdin != nil && c.Stdin.Kind == parse.InputFile && c.Stdin.Path != "" {
		t |= x.pathTaint(x.resolve(c.Stdin.Path))
	}
	for _, tg := range x.readTargets(c) {
		switch {
		case tg.Glob:
			if x.credGlob(tg) {
				t |= taintCred
			}
		case tg.Known:
			t |= x.pathTaint(x.resolve(tg.raw))
		}
	}
	return t
}

// outTaint is what a command's output carries: what it read, what its
// inline code reads, the environment it dumps, or a token a credential
// tool prints.
func (x *Ctx) outTaint(c *parse.Command, read, code taint) taint {
	t := read | code
	if envDump(c) {
		t |= taintEnv
	}
	if secretPrinter(c) {
		t |= taintCred
	}
	if (c.Name == "echo" || c.Name == "printf" || c.Name == "cat") && refsSecretVar(c.Span) {
		t |= taintEnv
	}
	return t
}

// refsSecretVar reports whether shell text expands a variable whose name
// says it is a secret ($AWS_SECRET_ACCESS_KEY, ${GITHUB_TOKEN}). The
// analysis gives words their values, not their sources, so the command's
// own text is read for this.
func refsSecretVar(s string) bool {
	for {
		i := strings.IndexByte(s, '$')
		if i < 0 {
			return false
		}
		s = s[i+1:]
		s = strings.TrimPrefix(s, "{")
		n := 0
		for n < len(s) && (s[n] == '_' || s[n] >= 'A' && s[n] <= 'Z' || s[n] >= 'a' && s[n] <= 'z' || n > 0 && s[n] >= '0' && s[n] <= '9') {
			n++
		}
		if n > 0 && redact.SecretEnvName(s[:n]) {
			return true
		}
	}
}

// envDump reports whether a command prints environment variables: env or
// printenv on their own, set without arguments, export -p, declare -p or
// -x without names, compgen -e.
func envDump(c *parse.Command) bool {
	switch c.Name {
	case "env":
		// With a command, env is a wrapper and the analysis peeled it.
		for _, a := range c.Args {
			if a.Value == "--help" || a.Value == "--version" {
				return false
			}
		}
		return true
	case "printenv":
		return true
	case "set":
		return len(c.Args) == 0
	case "export":
		return len(c.Args) == 0 || len(c.Args) == 1 && c.Args[0].Value == "-p"
	case "declare", "typeset":
		a := ParseArgs(c.Args, OptSpec{})
		for _, op := range a.Operands {
			if strings.Contains(op.Value, "=") {
				return false
			}
		}
		return a.Short("p") || a.Short("x") && len(a.Operands) == 0
	case "compgen":
		return ParseArgs(c.Args, OptSpec{}).Short("ev")
	}
	return false
}

// secretPrinters are tool commands that print a stored token.
var secretPrinters = map[string][][]string{
	"gh":       {{"auth", "token"}, {"auth", "status", "--show-token"}, {"auth", "status", "-t"}},
	"git":      {{"credential", "fill"}},
	"aws":      {{"configure", "get"}, {"configure", "export-credentials"}, {"sts", "get-session-token"}},
	"gcloud":   {{"auth", "print-access-token"}, {"auth", "print-identity-token"}, {"auth", "application-default", "print-access-token"}},
	"az":       {{"account", "get-access-token"}},
	"kubectl":  {{"config", "view", "--raw"}},
	"op":       {{"read"}, {"item", "get"}},
	"heroku":   {{"auth:token"}},
	"security": {{"find-generic-password"}, {"find-internet-password"}},
	"vault":    {{"read"}, {"kv", "get"}, {"print", "token"}},
}

// secretPrinter reports whether a command prints a stored token.
func secretPrinter(c *parse.Command) bool {
	for _, seq := range secretPrinters[c.Name] {
		if hasWords(c.Args, seq) {
			return true
		}
	}
	return false
}

// hasWords reports whether the literal words of seq appear in args in
// order (options may sit between them).
func hasWords(args []parse.Word, seq []string) bool {
	i := 0
	for _, a := range args {
		if i < len(seq) && a.Value == seq[i] {
			i++
		}
	}
	return i == len(seq)
}

// A sendTo is how a command sends data off the machine.
type sendTo struct {
	net   bool     // the command talks to the network
	stdin bool     // it sends what it reads on standard input
	own   bool     // it sends its own output or what its own code reads (a /dev/tcp redirect, python -c)
	files []Target // local files it uploads
	tcp   bool     // it opens a /dev/tcp or /dev/udp connection
}

var (
	sshSpec = OptSpec{Short: "BbcDEeFIiJLlmOoPpQRSWw"}
	scpSpec = OptSpec{Short: "cFiJlOoPSX"}
)

// sendOf says how a command sends data off the machine, if it does.
func (x *Ctx) sendOf(b *boundaryState, c *parse.Command) sendTo {
	var s sendTo
	for i := range c.Redirs {
		r := &c.Redirs[i]
		if (r.Write || r.Read) && netPath(r.Path) {
			s.net, s.own, s.stdin, s.tcp = true, true, true, true
		}
	}
	if b.netWriters[c] {
		s.net, s.own, s.stdin, s.tcp = true, true, true, true
	}
	if c.NameDynamic || c.Function {
		return s
	}
	switch c.Name {
	case "curl":
		x.curlSends(c, &s)
	case "wget":
		s.net = true
		a := ParseArgs(c.Args, wgetSpec)
		for _, v := range append(a.LongValues("post-file"), a.LongValues("body-file")...) {
			x.sendFile(c, v, &s)
		}
	case "nc", "ncat", "netcat", "socat", "telnet", "ftp", "tftp", "sftp", "mail", "mailx", "sendmail", "mutt":
		s.net, s.stdin = true, true
		if c.Name == "socat" {
			for _, w := range c.Args {
				for _, pre := range []string{"FILE:", "OPEN:", "GOPEN:", "file:", "open:", "gopen:"} {
					if v, ok := strings.CutPrefix(w.Value, pre); ok {
						v, _, _ = strings.Cut(v, ",")
						x.sendFile(c, v, &s)
					}
				}
			}
		}
	case "openssl":
		if len(c.Args) > 0 && c.Args[0].Value == "s_client" {
			s.net, s.stdin = true, true
		}
	case "ssh":
		a := ParseArgs(c.Args, sshSpec)
		s.net, s.stdin = true, !a.Short("nf")
	case "scp", "rsync":
		spec := scpSpec
		if c.Name == "rsync" {
			spec = rsyncSpec
		}
		a := ParseArgs(c.Args, spec)
		n := len(a.Operands)
		if n > 1 && remoteOperand(a.Operands[n-1].Value) {
			s.net = true
			for _, op := range a.Operands[:n-1] {
				if !remoteOperand(op.Value) {
					s.files = append(s.files, x.target(c, op))
				}
			}
		}
	case "aws":
		x.awsSends(c, &s)
	case "gh":
		if hasWords(c.Args, []string{"gist", "create"}) {
			s.net = true
			for _, w := range c.Args[2:] {
				if w.Value == "-" {
					s.stdin = true
				} else if !strings.HasPrefix(w.Value, "-") {
					s.files = append(s.files, x.target(c, w))
				}
			}
		}
	default:
		if code := interpCode(c); code != "" && codeNetwork(code) {
			s.net, s.stdin, s.own = true, true, true
		}
	}
	return s
}

// curlSends finds what curl uploads: @file of the data options, the files
// of -F, -T; "-" (or @-) is standard input.
func (x *Ctx) curlSends(c *parse.Command, s *sendTo) {
	s.net = true
	a := ParseArgs(c.Args, curlSpec)
	for _, long := range []string{"data", "data-ascii", "data-binary", "data-urlencode", "json"} {
		for _, v := range a.LongValues(long) {
			x.curlData(c, long, v, s)
		}
	}
	for _, v := range a.ShortValues('d') {
		x.curlData(c, "data", v, s)
	}
	for _, v := range append(a.ShortValues('F'), a.LongValues("form")...) {
		_, f, ok := strings.Cut(v, "=")
		if ok && (strings.HasPrefix(f, "@") || strings.HasPrefix(f, "<")) {
			f, _, _ = strings.Cut(f[1:], ";")
			x.sendFile(c, f, s)
		}
	}
	for _, v := range append(a.ShortValues('T'), a.LongValues("upload-file")...) {
		if v == "." {
			v = "-"
		}
		x.sendFile(c, v, s)
	}
}

// curlData reads a data option's value: "@file" (and "name@file" for
// --data-urlencode) names a file to send.
func (x *Ctx) curlData(c *parse.Command, long, v string, s *sendTo) {
	at := strings.IndexByte(v, '@')
	if at < 0 {
		return
	}
	if at > 0 && (long != "data-urlencode" || strings.Contains(v[:at], "=")) {
		return
	}
	x.sendFile(c, v[at+1:], s)
}

// sendFile records a file a sink uploads; "-" and /dev/stdin are standard
// input.
func (x *Ctx) sendFile(c *parse.Command, v string, s *sendTo) {
	switch v {
	case "":
		return
	case "-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		s.stdin = true
		return
	}
	s.files = append(s.files, x.target(c, valueWord(v)))
}

// awsSends: aws s3 cp|mv|sync SRC s3://… uploads SRC.
func (x *Ctx) awsSends(c *parse.Command, s *sendTo) {
	if len(c.Args) < 2 || c.Args[0].Value != "s3" {
		return
	}
	switch c.Args[1].Value {
	case "cp", "mv", "sync":
	default:
		return
	}
	a := ParseArgs(c.Args[2:], OptSpec{Long: []string{"exclude", "include", "acl", "storage-class", "profile", "region",
		"sse", "content-type", "cache-control", "expires", "metadata", "grants", "endpoint-url"}})
	n := len(a.Operands)
	if n < 2 || !strings.HasPrefix(a.Operands[n-1].Value, "s3://") {
		return
	}
	s.net = true
	for _, op := range a.Operands[:n-1] {
		if !strings.HasPrefix(op.Value, "s3://") {
			x.sendFile(c, op.Value, s)
		}
	}
}

// exfil finds credentials and environment dumps leaving the machine: a
// sink uploading a credential file, a sink fed from one on its standard
// input (directly, through a pipeline of filters, or through a here-string
// of a command substitution), a tainted command writing into a /dev/tcp
// connection, and a tainted command substitution in a script that talks
// to the network (curl -d "$(cat ~/.aws/credentials)", k=$(…); curl -d
// "$k").
func (x *Ctx) exfil(a *parse.Analysis, b *boundaryState) {
	var first *parse.Command
	tcp := false
	for _, c := range a.Commands {
		if c.Remote != "" {
			continue
		}
		s := x.sendOf(b, c)
		if !s.net {
			continue
		}
		if first == nil {
			first = c
		}
		tcp = tcp || s.tcp
		var t taint
		for _, f := range s.files {
			if f.Known {
				t |= x.sendTaint(b, x.resolve(f.raw))
			}
		}
		if s.own {
			t |= b.taints[c]
		}
		if s.stdin && c.Stdin != nil {
			if c.Stdin.Kind == parse.InputFile && c.Stdin.Path != "" {
				t |= x.sendTaint(b, x.resolve(c.Stdin.Path))
			}
			t |= b.upstreamTaint(c)
		}
		for _, f := range t.findings() {
			b.add(f, c)
		}
	}
	if first == nil || len(b.taints) == 0 {
		return
	}
	for _, c := range a.Commands {
		t := b.taints[c]
		if t == 0 || c.Remote != "" {
			continue
		}
		// Captured output (a command substitution, a process
		// substitution) goes wherever the script sends it; an open
		// /dev/tcp descriptor takes anything written to it.
		if tcp || c.Context&(parse.InCmdSubst|parse.InProcSubst) != 0 {
			for _, f := range t.findings() {
				b.add(f, first)
			}
		}
	}
}

// interpreters run inline code given with these options.
var interpreters = map[string][]string{
	"python": {"-c"}, "pypy": {"-c"}, "pypy3": {"-c"},
	"node": {"-e", "--eval", "-p", "--print"}, "nodejs": {"-e", "--eval", "-p", "--print"},
	"deno": {"eval"}, "bun": {"-e", "--eval"},
	"perl": {"-e", "-E"}, "ruby": {"-e"}, "php": {"-r"},
}

// interpCode returns the inline code an interpreter runs: the value of -c
// (python), -e (node, perl, ruby), -r (php), or a heredoc it executes.
func interpCode(c *parse.Command) string {
	name := c.Name
	if strings.HasPrefix(name, "python") {
		name = "python"
	}
	flags, ok := interpreters[name]
	if !ok {
		return ""
	}
	var code strings.Builder
	for i := 0; i+1 < len(c.Args); i++ {
		if contains(flags, c.Args[i].Value) {
			code.WriteString(c.Args[i+1].Value)
			code.WriteByte('\n')
			i++
		}
	}
	if in := c.Stdin; in != nil && in.Executed && (in.Kind == parse.InputHeredoc || in.Kind == parse.InputHereString) {
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

// codePersists reports whether inline code writes a persistence point.
func codePersists(code string) bool {
	lower := strings.ToLower(code)
	return containsAny(lower, codePersistMarks) && containsAny(lower, codeWriteMarks)
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
