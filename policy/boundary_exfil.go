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

// stagedTaint says what pushing the staged path p gives away: a
// credential file it is, or one an earlier command of the script wrote
// in it (cp ~/.ssh/id_rsa k; git add k).
func (x *Ctx) stagedTaint(b *boundaryState, p string) taint {
	t := x.pathTaint(p)
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
			p := x.resolve(tg.raw)
			t |= x.pathTaint(p)
			if recursiveReader(c) && x.holdsCredDir(p) {
				t |= taintCred // grep -r password ~/.config reads ~/.config/gh
			}
		}
	}
	return t
}

// archiveTaint is what an archive of a directory that holds a
// credential store carries (tar cz ~ | nc …): not a read the agent
// sees, so not cred-read, but a credential wherever the archive goes.
func (x *Ctx) archiveTaint(c *parse.Command) taint {
	if !recursiveArchiver(c) {
		return 0
	}
	for _, tg := range x.readTargets(c) {
		if tg.Known && x.holdsCredDir(x.resolve(tg.raw)) {
			return taintCred
		}
	}
	return 0
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
func refsSecretVar(s string) bool { return len(secretNames(s)) > 0 }

// envDump reports whether a command prints environment variables: env or
// printenv on their own, set without arguments, export -p, declare -p or
// -x without names, compgen -e.
func envDump(c *parse.Command) bool {
	switch c.Name {
	case "env":
		// With a command, env is a wrapper and the analysis peeled it.
		return !c.Flag("info")
	case "printenv":
		return true
	case "set":
		return c.Flag("prints") // set alone, as parse reads set's words
	case "export":
		// export and export -p, not export -n or -f.
		return len(c.Operands(parse.RoleData)) == 0 && !c.Flag("functions") && !c.Flag("unexports")
	case "declare", "typeset":
		ops := c.Operands(parse.RoleData) // names, NAME=VALUE
		for _, op := range ops {
			if strings.Contains(op.Value, "=") {
				return false
			}
		}
		return c.Flag("prints") || c.Flag("exports") && len(ops) == 0
	case "compgen":
		return c.Flag("variables")
	}
	return false
}

// secretPrint is a tool command that prints a stored token: words its
// subcommand path and operands hold in order (other words may sit
// between them), and the meaning of a flag it needs.
type secretPrint struct {
	words []string
	flag  string
}

// secretPrintRows are tool commands that print a stored token, as static
// data (see writerRows).
var secretPrintRows = [...]struct {
	name   string
	prints []secretPrint
}{
	{"gh", []secretPrint{{words: []string{"auth", "token"}}, {words: []string{"auth", "status"}, flag: "shows-token"}}},
	{"git", []secretPrint{{words: []string{"credential", "fill"}}}},
	{"aws", []secretPrint{{words: []string{"configure", "get"}}, {words: []string{"configure", "export-credentials"}}, {words: []string{"sts", "get-session-token"}}}},
	{"gcloud", []secretPrint{{words: []string{"auth", "print-access-token"}}, {words: []string{"auth", "print-identity-token"}}, {words: []string{"auth", "application-default", "print-access-token"}}}},
	{"az", []secretPrint{{words: []string{"account", "get-access-token"}}}},
	{"kubectl", []secretPrint{{words: []string{"config", "view"}, flag: "raw"}}},
	{"op", []secretPrint{{words: []string{"read"}}, {words: []string{"item", "get"}}}},
	{"heroku", []secretPrint{{words: []string{"auth:token"}}}},
	{"security", []secretPrint{{words: []string{"find-generic-password"}}, {words: []string{"find-internet-password"}}}},
	{"vault", []secretPrint{{words: []string{"read"}}, {words: []string{"kv", "get"}}, {words: []string{"print", "token"}}}},
}

// secretPrintsOf returns the commands of a tool that print a stored
// token, or nil.
func secretPrintsOf(name string) []secretPrint {
	for i := range secretPrintRows {
		if secretPrintRows[i].name == name {
			return secretPrintRows[i].prints
		}
	}
	return nil
}

// secretPrinter reports whether a command prints a stored token.
// `aws configure get` prints any setting; only the secret ones count.
func secretPrinter(c *parse.Command) bool {
	if c.Name == "printenv" {
		// printenv AWS_SECRET_ACCESS_KEY prints the secret itself.
		for _, a := range c.Operands(parse.RoleData) {
			if redact.SecretEnvName(a.Value) {
				return true
			}
		}
	}
	prints := secretPrintsOf(c.Name)
	if prints == nil {
		return false
	}
	// The subcommand path of its row, then its operands.
	var words []string
	if path := strings.Fields(c.Row); len(path) > 1 {
		words = path[1:]
	}
	for _, w := range c.Operands(parse.RoleData) {
		words = append(words, w.Value)
	}
	for _, sp := range prints {
		if !hasWords(words, sp.words) || sp.flag != "" && !c.Flag(sp.flag) {
			continue
		}
		if c.Name == "aws" && sp.words[1] == "get" {
			return awsGetsSecret(c)
		}
		return true
	}
	return false
}

// awsGetsSecret reports whether `aws configure get NAME` names a secret
// (aws_secret_access_key, aws_session_token), not a setting such as region.
func awsGetsSecret(c *parse.Command) bool {
	// The operand after get: aws's row takes --profile's value as its own.
	ops := c.Operands(parse.RoleData)
	for i, a := range ops {
		if a.Value == "get" && i+1 < len(ops) {
			a = ops[i+1]
			n := strings.ToLower(a.Value)
			return !a.Literal() || strings.Contains(n, "secret") || strings.Contains(n, "token") || strings.Contains(n, "password")
		}
	}
	return false
}

// hasWords reports whether the words of seq appear in words in order
// (others may sit between them).
func hasWords(words, seq []string) bool {
	i := 0
	for _, w := range words {
		if i < len(seq) && w == seq[i] {
			i++
		}
	}
	return i == len(seq)
}

// exfil finds credentials and environment dumps leaving the machine: a
// sink uploading a credential file, a sink fed from one on its standard
// input (directly, through a pipeline of filters, or through a here-string
// of a command substitution), a tainted command writing into a /dev/tcp
// connection, and a tainted command substitution in a script that talks
// to the network (curl -d "$(cat ~/.aws/credentials)", k=$(…); curl -d
// "$k"); and a token in a request's own arguments sent to a host other
// than its issuer's (boundary_secret.go).
func (x *Ctx) exfil(a *parse.Analysis, b *boundaryState) {
	var first *parse.Command
	tcp := false
	for _, c := range a.Commands {
		if c.Remote != "" {
			continue
		}
		if c.Row == "git add" {
			ops := c.Operands(parse.RoleData)
			if len(ops) == 0 && c.Flag("all") {
				ops = []parse.Word{{Value: "."}} // git add -A: the whole work tree
			}
			for _, op := range ops {
				b.staged = append(b.staged, x.target(c, op))
			}
		}
		if secretElsewhere(c) { // boundary_secret.go
			b.add(fSecretElsewhere, c)
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
		for _, f := range s.staged {
			if f.Known {
				t |= x.stagedTaint(b, x.resolve(f.raw))
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
		// Captured output (a command or process substitution, read
		// into a variable) goes wherever the script sends it; an open
		// /dev/tcp descriptor takes anything written to it.
		if tcp || c.Context&(parse.InCmdSubst|parse.InProcSubst) != 0 || captures(c) {
			for _, f := range t.findings() {
				b.add(f, first)
			}
		}
	}
}

// captures reports whether a command reads its input into shell variables
// (read, mapfile), where the rest of the script can send it.
func captures(c *parse.Command) bool {
	switch c.Name {
	case "read", "mapfile", "readarray":
		return true
	}
	return false
}
