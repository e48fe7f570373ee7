package redact

import "strings"

// matchAuthorization takes the credential of an Authorization or
// Proxy-Authorization header, keeping the scheme word: "Authorization:
// Bearer [REDACTED:authorization]".
func matchAuthorization(s string, at int, a string, out []span) ([]span, int) {
	if !boundary(s, at, alnum) {
		return out, 0
	}
	i := at + len(a)
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		i++
	}
	i = skipSpaces(s, i)
	if i >= len(s) || (s[i] != ':' && s[i] != '=') {
		return out, 0
	}
	i = skipSpaces(s, i+1)
	var quote byte
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		quote = s[i]
		i++
	}
	w := run(s, i, slackCh) // letters, digits and '-': AWS4-HMAC-SHA256
	sch := strings.ToLower(s[i:w])
	if w < len(s) && s[w] == ' ' && isScheme(sch) {
		i = skipSpaces(s, w)
	}
	var end int
	if sch == "digest" || strings.HasPrefix(sch, "aws4-") {
		// These carry several comma-separated parameters: take the rest.
		end = lineEnd(s, i)
		if quote != 0 {
			if q := strings.IndexByte(s[i:end], quote); q >= 0 {
				end = i + q
			}
		}
	} else {
		end = i
		for end < len(s) && !stopValue[s[end]] {
			end++
		}
	}
	if end == i || standIn(s[i:end]) {
		return out, end
	}
	return append(out, span{start: i, end: end, repl: mark("authorization")}), 0
}

func isScheme(w string) bool {
	switch w {
	case "bearer", "basic", "token", "digest", "negotiate", "bot", "apikey", "ntlm", "dpop", "mac", "otoken":
		return true
	}
	return strings.HasPrefix(w, "aws4-")
}

// matchBearer takes "Bearer TOKEN" outside an Authorization header (curl
// --oauth2-bearer, config files, logs). The token must hold a digit or a
// punctuation byte, so prose such as "Bearer authentication" stays.
func matchBearer(s string, at int, a string, out []span) ([]span, int) {
	i := at + len(a)
	if !boundary(s, at, alnum) || i >= len(s) || !isSpace(s[i]) {
		return out, 0
	}
	i = skipSpaces(s, i)
	end := run(s, i, token68)
	if end-i < 8 || !strings.ContainsAny(s[i:end], "0123456789-._~+/=") || standIn(s[i:end]) {
		return out, end
	}
	return append(out, span{start: i, end: end, repl: mark("bearer")}), 0
}

// authStop ends the authority part of a URL.
var authStop = func() *class {
	var c class
	for _, b := range []byte("/?# \t\r\n\"'<>`\\") {
		c[b] = true
	}
	return &c
}()

// matchURL takes the password of scheme://user:password@host, keeping the
// user and the host. The last '@' before the path counts, so an unencoded
// '@' in the password does not leave its tail behind.
func matchURL(s string, at int, _ string, out []span) ([]span, int) {
	st := runBack(s, at, scheme)
	if st == at || !alnum[s[st]] || ('0' <= s[st] && s[st] <= '9') {
		return out, 0
	}
	i := at + 3
	e := i
	for e < len(s) && !authStop[s[e]] {
		e++
	}
	// Refused, the rule looks again from the end of the authority, or
	// from its last byte when that is the ':' of the next URL's "://"
	// ("x://a@b://u:p@h": b's scheme is in this authority).
	resume := e
	if e > i && s[e-1] == ':' {
		resume = e - 1
	}
	atSign := strings.LastIndexByte(s[i:e], '@')
	if atSign < 0 {
		return out, resume
	}
	user := s[i : i+atSign]
	c := strings.IndexByte(user, ':')
	if c < 0 || strings.Contains(user, "[REDACTED") { // a marker holds a ':' of its own
		return out, resume
	}
	start, end := i+c+1, i+atSign
	if standIn(s[start:end]) {
		return out, resume
	}
	return append(out, span{start: start, end: end, repl: "[REDACTED]"}), 0
}

// matchToolFlag takes passwords given to tools whose flags are unambiguous
// only in their own command line: mysql -pSECRET (but "mysql -p db" prompts
// and names a database), sshpass -p SECRET, curl -u user:SECRET, and
// docker/podman login -p SECRET (but docker run -p publishes a port).
func matchToolFlag(s string, at int, tool string, out []span) ([]span, int) {
	if !boundary(s, at, alnum) {
		return out, 0
	}
	end := len(s) // nextWord stops at the end of the command
	i := run(s, at, ident)
	if tool == "docker" || tool == "podman" {
		ws, we, ok := nextWord(s, i, end)
		if !ok || s[ws:we] != "login" {
			return out, i
		}
		i = we
	}
	for {
		ws, we, ok := nextWord(s, i, end)
		if !ok {
			return out, i // every word up to here is read: resume after them
		}
		start, stop, ok := toolValue(s, tool, ws, we, end)
		if !ok {
			i = we
			continue
		}
		i = stop
		if q := s[start]; (q == '\'' || q == '"') && stop-start >= 2 && s[stop-1] == q {
			start, stop = start+1, stop-1 // keep the quotes, as for name='value'
		}
		if !standIn(s[start:stop]) {
			out = append(out, span{start: start, end: stop, repl: mark("password")})
		}
	}
}

// toolValue reports where the password is when the word s[ws:we] is a
// password flag of tool, reading the next word when the flag takes one.
func toolValue(s, tool string, ws, we, end int) (start, stop int, ok bool) {
	w := s[ws:we]
	switch {
	case tool == "mysql" || tool == "mariadb":
		if len(w) > 2 && strings.HasPrefix(w, "-p") {
			return ws + 2, we, true
		}
	case tool == "sshpass" || tool == "docker" || tool == "podman":
		if len(w) > 2 && strings.HasPrefix(w, "-p") {
			return ws + 2, we, true
		}
		if w == "-p" {
			return nextWord(s, we, end)
		}
	case tool == "curl":
		switch {
		case w == "-u" || w == "--user":
			ws, we, ok = nextWord(s, we, end)
		case strings.HasPrefix(w, "--user="):
			ws, ok = ws+len("--user="), true
		case len(w) > 2 && strings.HasPrefix(w, "-u"):
			ws, ok = ws+2, true
		}
		if !ok {
			return 0, 0, false
		}
		c := strings.IndexByte(s[ws:we], ':') // user:password, keep the user
		if c < 0 || ws+c+1 == we {
			return 0, 0, false
		}
		return ws + c + 1, we, true
	}
	return 0, 0, false
}

// nextWord returns the next shell word in s[i:end], quotes included, so a
// quoted password with a blank in it stays one word. It reports false at the
// end of the command: a newline, ';', '|' or '&'.
func nextWord(s string, i, end int) (int, int, bool) {
	i = skipSpaces(s, i)
	if i >= end {
		return 0, 0, false
	}
	j := i
	for j < end && !isSpace(s[j]) {
		switch s[j] {
		case '\'', '"':
			q := s[j]
			j++
			for j < end && s[j] != q {
				j++
			}
		case '\\':
			j++
		case ';', '|', '&', '\n', '\r':
			if j == i {
				return 0, 0, false // the command ended
			}
			return i, j, true
		}
		j = min(j+1, end)
	}
	return i, j, true
}
