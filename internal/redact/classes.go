package redact

// Byte classes as lookup tables: the matchers test many bytes around each
// anchor and a table lookup is cheaper than a chain of comparisons.
type class [256]bool

func newClass(extra string) *class {
	var c class
	for b := '0'; b <= '9'; b++ {
		c[b] = true
	}
	for b := 'a'; b <= 'z'; b++ {
		c[b] = true
		c[b-'a'+'A'] = true
	}
	for i := 0; i < len(extra); i++ {
		c[extra[i]] = true
	}
	return &c
}

var (
	alnum    = newClass("")
	word     = newClass("_")       // identifiers, classic token bodies
	urlsafe  = newClass("_-")      // base64url, most modern tokens
	b64      = newClass("+/=")     // standard base64 with padding
	token68  = newClass("-._~+/=") // RFC 7235 token68 (Bearer, Basic)
	ident    = newClass("_.-")     // names in name=value pairs
	scheme   = newClass("+.-")     // URL schemes
	gitlabCh = ident               // GitLab tokens: routable ones carry dots
	slackCh  = newClass("-")       // Slack tokens
	hookCh   = newClass("/_-")     // Slack webhook paths
	upperNum = func() *class {     // AWS access key ids
		var c class
		for b := '0'; b <= '9'; b++ {
			c[b] = true
		}
		for b := 'A'; b <= 'Z'; b++ {
			c[b] = true
		}
		return &c
	}()
)

// run returns the end of the run of bytes of class c starting at i.
func run(s string, i int, c *class) int {
	for i < len(s) && c[s[i]] {
		i++
	}
	return i
}

// runBack returns the start of the run of bytes of class c ending just before i.
func runBack(s string, i int, c *class) int {
	for i > 0 && c[s[i-1]] {
		i--
	}
	return i
}

// boundary reports whether the byte before i cannot continue a token of class c.
func boundary(s string, i int, c *class) bool { return i == 0 || !c[s[i-1]] }

// after reports whether the byte at i cannot continue a token of class c.
func after(s string, i int, c *class) bool { return i >= len(s) || !c[s[i]] }

func isSpace(b byte) bool { return b == ' ' || b == '\t' }

func skipSpaces(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// lineEnd returns the index of the newline ending the line that holds i, or len(s).
func lineEnd(s string, i int) int {
	for ; i < len(s); i++ {
		if s[i] == '\n' || s[i] == '\r' {
			return i
		}
	}
	return i
}

func lowerByte(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// hasPrefixFold reports whether s[i:] starts with the lowercase ASCII prefix p.
func hasPrefixFold(s string, i int, p string) bool {
	if len(s)-i < len(p) {
		return false
	}
	for j := 0; j < len(p); j++ {
		if lowerByte(s[i+j]) != p[j] {
			return false
		}
	}
	return true
}

// hasSuffixFold reports whether s ends with the lowercase ASCII suffix p.
func hasSuffixFold(s, p string) bool {
	return len(s) >= len(p) && hasPrefixFold(s, len(s)-len(p), p)
}
