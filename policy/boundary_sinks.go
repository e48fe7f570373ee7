package policy

import (
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// A sendTo is how a command sends data off the machine.
type sendTo struct {
	net   bool     // the command talks to the network
	stdin bool     // it sends what it reads on standard input
	own   bool     // it sends its own output or what its own code reads (a /dev/tcp redirect, python -c)
	files []Target // local files it uploads
	// staged are the paths git push sends because the line staged them:
	// what is in them is sent, not what a directory of them holds
	// besides (git add -A in a work tree that holds the home directory
	// stages the work tree's files, not the home's stores).
	staged []Target
	tcp    bool // it opens a /dev/tcp or /dev/udp connection
}

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
	switch name := c.Name; {
	case name == "curl":
		x.curlSends(c, &s)
	case name == "wget":
		s.net = true
		x.sentFiles(c, &s) // --post-file, --body-file
	case stdinSender(name):
		s.net, s.stdin = true, true
		x.sentFiles(c, &s) // mail -A FILE, mutt -a FILE
		if c.Row == "socat" {
			// A file address (FILE:, OPEN:, GOPEN:) is read into the stream.
			for _, ra := range c.Operands(parse.RoleRead) {
				x.sendFile(c, ra.Value, &s)
			}
		}
	case nameLookup(name):
		// A name looked up is a message to whoever serves its domain:
		// data in the arguments leaves the machine (DNS exfiltration).
		s.net = true
	case name == "openssl":
		if first(leadingOperands(c, 1)) == "s_client" {
			s.net, s.stdin = true, true
		}
	case name == "ssh":
		s.net, s.stdin = true, !c.Flag("no-stdin")
	case name == "scp" || name == "rsync" || copyVerbs(c) > 0:
		ops := c.Operands(parse.RoleData)
		ops = ops[min(copyVerbs(c), len(ops)):]
		n := len(ops)
		if n > 1 && remoteOperand(ops[n-1].Value) {
			s.net = true
			for _, op := range ops[:n-1] {
				if !remoteOperand(op.Value) {
					s.files = append(s.files, x.target(c, op))
				}
			}
		}
	case name == "aws":
		x.awsSends(c, &s)
	case c.Row == "git push":
		// What this script staged goes with its commits.
		s.net = true
		s.staged = b.staged
	case name == "gh":
		// gh gist create FILE…: the operands after the subcommand, as
		// gh's row sorts them from its options; "-" is standard input.
		if ops := c.Operands(parse.RoleData); len(ops) >= 2 && ops[0].Value == "gist" && ops[1].Value == "create" {
			s.net = true
			for _, w := range ops[2:] {
				if w.Value == "-" {
					s.stdin = true
				} else {
					s.files = append(s.files, x.target(c, w))
				}
			}
		}
	default:
		if code := interpCode(c); code != "" && codeNetwork(code) {
			s.net, s.stdin, s.own = true, true, true
		}
		for _, ra := range c.Roles {
			if ra.Role == parse.RoleSent {
				// A program whose row says what it sends (python -m
				// http.server -d DIR serves DIR).
				s.net = true
				x.sentFiles(c, &s)
				break
			}
		}
	}
	if s.net && (c.HasWrapper("xargs") || c.HasWrapper("parallel")) {
		s.stdin = true // the input becomes the arguments
	}
	return s
}

// curlSends finds what curl uploads: @file of the data options, the files
// of -F, -T; "-" (or @-) is standard input.
func (x *Ctx) curlSends(c *parse.Command, s *sendTo) {
	s.net = true
	x.sentFiles(c, s)
}

// sentFiles records the files whose contents the row's sent values name
// (RoleArg.Lang says how: curl -d @FILE, -F NAME=@FILE, -T FILE, wget
// --post-file FILE).
func (x *Ctx) sentFiles(c *parse.Command, s *sendTo) {
	for _, ra := range c.Roles {
		if ra.Role != parse.RoleSent {
			continue
		}
		v := ra.Word.Value
		switch ra.Lang {
		case "at":
			x.curlData(c, false, v, s)
		case "urlencode":
			x.curlData(c, true, v, s)
		case "form":
			_, f, ok := strings.Cut(v, "=")
			if ok && (strings.HasPrefix(f, "@") || strings.HasPrefix(f, "<")) {
				f, _, _ = strings.Cut(f[1:], ";")
				x.sendFile(c, f, s)
			}
		case "file":
			if v == "." && c.Row == "curl" {
				v = "-" // curl -T . reads standard input
			}
			x.sendFile(c, v, s)
		}
	}
}

// curlData reads a data option's value: "@file" (and "name@file" for
// --data-urlencode) names a file to send.
func (x *Ctx) curlData(c *parse.Command, urlencode bool, v string, s *sendTo) {
	at := strings.IndexByte(v, '@')
	if at < 0 {
		return
	}
	if at > 0 && (!urlencode || strings.Contains(v[:at], "=")) {
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
	ops := c.Operands(parse.RoleData)
	switch {
	case c.Row == "aws s3 sync":
	case c.Row == "aws s3" && len(ops) > 0 && (ops[0].Value == "cp" || ops[0].Value == "mv"):
		ops = ops[1:]
	default:
		return
	}
	n := len(ops)
	if n < 2 || !strings.HasPrefix(ops[n-1].Value, "s3://") {
		return
	}
	s.net = true
	for _, op := range ops[:n-1] {
		if !strings.HasPrefix(op.Value, "s3://") {
			x.sendFile(c, op.Value, s)
		}
	}
}

// copyVerbs is, for a cloud storage tool's copy (gsutil cp SRC… DEST,
// rclone copy SRC DEST), how many of its operands name the copy, 0 for
// any other command: what it copies to a remote place (gs://b,
// remote:path) leaves the machine, as scp's does.
func copyVerbs(c *parse.Command) int {
	switch c.Row {
	case "gsutil", "rclone", "s3cmd", "gcloud":
	default:
		return 0 // every command asks: no operands read for the others
	}
	ops := c.Operands(parse.RoleData)
	verb := func(i int, verbs ...string) bool { return len(ops) > i && contains(verbs, ops[i].Value) }
	switch c.Row {
	case "gsutil":
		if verb(0, "cp", "mv", "rsync") {
			return 1
		}
	case "rclone":
		if verb(0, "copy", "copyto", "sync", "move", "moveto") {
			return 1
		}
	case "s3cmd":
		if verb(0, "put", "sync", "cp") {
			return 1
		}
	case "gcloud":
		if verb(0, "storage") && verb(1, "cp", "mv", "rsync") {
			return 2
		}
	}
	return 0
}
