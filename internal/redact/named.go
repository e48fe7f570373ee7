package redact

import "strings"

// maxName is the longest identifier taken for a name: a longer run of
// identifier bytes is data, not a setting.
const maxName = 128

// matchNamed takes the value of a name that says it holds a secret:
// PASSWORD=…, db_pass: …, "api_key": "…", ?token=…, --password X,
// client_secret := "…". The anchor is a piece of the name; the whole name is
// the run of identifier bytes around it.
func matchNamed(s string, at int, _ string, out []span) ([]span, int) {
	left, right := runBack(s, at, ident), run(s, at, ident)
	name := s[left:right]
	if right-left > maxName {
		return out, right
	}
	kind, minLen, ok := secretName(name)
	if !ok {
		return out, right
	}
	var open byte // the quote the name sits in, as in "password": "…"
	if left > 0 && (s[left-1] == '"' || s[left-1] == '\'') {
		open = s[left-1]
	}
	i := right
	quotedName := open != 0 && i < len(s) && s[i] == open
	if quotedName {
		i++
	}
	awsKey := kind == "aws-secret-key"
	v, sep, ok := separator(s, i, name[0] == '-' || awsKey)
	if !ok || (open != 0 && !quotedName && v < len(s) && s[v] == open) {
		// No value, or the quote closes the string the name was in:
		// read -p "Password: " pw.
		return out, 0
	}
	start, end := value(s, v)
	val := s[start:end]
	if sep == ' ' && awsKey && (len(val) != 40 || run(val, 0, b64) != 40) {
		// "aws configure set aws_secret_access_key KEY", but not prose
		// that merely mentions the name.
		return out, right
	}
	if sep == ':' && isStatusWord(name) {
		// "--- PASS: TestX" and "bash: pwd: …" are reports, not settings.
		return out, right
	}
	if len(val) < minLen || standIn(val) || isPathValue(name, val) {
		return out, end
	}
	return append(out, span{start: start, end: end, repl: mark(kind)}), 0
}

// secretName reports whether an identifier names a secret, the marker kind
// and the shortest value worth redacting (a "token" of three characters is a
// count, not a credential).
func secretName(name string) (kind string, minLen int, ok bool) {
	n := strings.TrimLeft(name, "-")
	switch {
	case hasSuffixFold(n, "password"), hasSuffixFold(n, "passwd"), hasSuffixFold(n, "passphrase"),
		hasSuffixFold(n, "pass") && delimited(n, 4), hasSuffixFold(n, "pwd") && delimited(n, 3):
		return "password", 1, true
	case hasSuffixFold(n, "secret_access_key"), hasSuffixFold(n, "secretaccesskey"), hasSuffixFold(n, "secret-access-key"):
		return "aws-secret-key", 1, true
	case hasSuffixFold(n, "secret"), hasSuffixFold(n, "secret_key"), hasSuffixFold(n, "secretkey"), hasSuffixFold(n, "secret-key"):
		return "secret", 1, true
	case hasSuffixFold(n, "token"):
		return "token", 8, true
	case hasSuffixFold(n, "api_key"), hasSuffixFold(n, "apikey"), hasSuffixFold(n, "api-key"):
		return "api-key", 8, true
	}
	return "", 0, false
}

// delimited reports whether the last k bytes of n are a word of their own:
// the whole name, after a separator (DB_PASS), or a camel-case hump (dbPass),
// so that bypass, compass and sshpass are not passwords.
func delimited(n string, k int) bool {
	if len(n) == k {
		return true
	}
	b, c := n[len(n)-k-1], n[len(n)-k]
	return b == '_' || b == '-' || b == '.' || ('a' <= b && b <= 'z' && 'A' <= c && c <= 'Z')
}

// separator finds where the value starts after a name ending at i: after '='
// (not "=="), ':' or ":=" (not "://", "::"), or after blanks when the name is
// a command-line flag; sep is '=', ':' or ' ' for those cases.
func separator(s string, i int, flag bool) (v int, sep byte, ok bool) {
	j := skipSpaces(s, i)
	if j >= len(s) {
		return 0, 0, false
	}
	switch s[j] {
	case '=':
		if j+1 < len(s) && s[j+1] == '=' {
			return 0, 0, false
		}
		return skipSpaces(s, j+1), s[j], true
	case ':':
		if j+1 < len(s) && s[j+1] == '=' {
			return skipSpaces(s, j+2), '=', true
		}
		if j+1 < len(s) && (s[j+1] == '/' || s[j+1] == ':') {
			return 0, 0, false
		}
		return skipSpaces(s, j+1), s[j], true
	}
	if flag && j > i && s[j] != '-' {
		return j, ' ', true
	}
	return 0, 0, false
}

// stopValue ends an unquoted value: blanks and the characters that end a
// word in a shell line, a query string or a JSON document.
var stopValue = func() *class {
	var c class
	for _, b := range []byte(" \t\r\n\"'&;|<>,)}]`") {
		c[b] = true
	}
	return &c
}()

// value returns the bounds of the value starting at v: the inside of a quoted
// string (to the end of the line when it is not closed), or an unquoted word.
func value(s string, v int) (int, int) {
	if v >= len(s) {
		return v, v
	}
	if q := s[v]; q == '"' || q == '\'' {
		e := v + 1
		for e < len(s) && s[e] != q && s[e] != '\n' {
			if q == '"' && s[e] == '\\' && e+1 < len(s) {
				e++
			}
			e++
		}
		return v + 1, min(e, len(s))
	}
	e := v
	for e < len(s) && !stopValue[s[e]] {
		e++
	}
	return v, e
}

// isStatusWord reports the bare names that, followed by ':', are far more
// often a status than a setting.
func isStatusWord(name string) bool {
	return strings.EqualFold(name, "pass") || strings.EqualFold(name, "pwd")
}

// isPathValue spares the shell's own PWD and OLDPWD, which name directories.
func isPathValue(name, val string) bool {
	return (strings.EqualFold(name, "pwd") || strings.EqualFold(name, "oldpwd")) && (val[0] == '/' || val[0] == '~')
}

// matchQuotedP takes -p'…' and -p"…": an attached, quoted -p value is a
// password (mysql, sshpass) in every tool that accepts that spelling.
func matchQuotedP(s string, at int, _ string, out []span) ([]span, int) {
	if s[at+1] != 'p' || (at > 0 && !isSpace(s[at-1])) {
		return out, 0
	}
	start, end := value(s, at+2)
	if end == start || standIn(s[start:end]) {
		return out, end
	}
	return append(out, span{start: start, end: end, repl: mark("password")}), 0
}
