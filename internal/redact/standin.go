package redact

import "strings"

// standIn reports whether a matched value is an obvious stand-in rather than
// a secret: documentation examples, "xxxx…", references to a variable or a
// template, values that say what they are. Keeping these keeps commands and
// docs readable; a value shaped like a real secret is never kept, which is
// why the short words must stand on their own (sk-test-…, my_fake_key) and
// not merely occur inside a random-looking string.
func standIn(v string) bool {
	if v == "" {
		return true
	}
	switch v[0] {
	case '$', '<', '%', '*', '{': // $TOKEN, ${X}, $(cat f), <token>, %s, ***, {{ secrets.X }}
		return true
	}
	if strings.HasPrefix(v, "[REDACTED") || repeated(v) {
		return true
	}
	lv := strings.ToLower(v)
	for _, w := range []string{"example", "placeholder", "dummy", "changeme", "redacted"} {
		if strings.Contains(lv, w) {
			return true
		}
	}
	for _, w := range []string{"test", "fake", "your"} {
		if containsWord(lv, w) {
			return true
		}
	}
	switch lv {
	case "true", "false", "null", "none", "nil", "undefined", "yes", "no", "on", "off", "...", "…":
		return true
	}
	return false
}

// repeated reports whether v is one short unit (up to 4 bytes) over and over:
// xxxxxxxx, 00000000, abcabcabc.
func repeated(v string) bool {
	for p := 1; p <= 4 && 2*p <= len(v); p++ {
		ok := true
		for i := p; i < len(v); i++ {
			if v[i] != v[i-p] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// containsWord reports whether w occurs in s with no letter or digit right
// before or after it.
func containsWord(s, w string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return false
		}
		i += from
		if boundary(s, i, alnum) && after(s, i+len(w), alnum) {
			return true
		}
		from = i + 1
	}
}
