package policy

import (
	"regexp/syntax"
	"strings"
	"sync"
)

// The raw patterns (Rule.Raw) are scanned over a command line the parser
// rejects. Compiling all of them costs milliseconds (their parse alone is
// 3 ms for 65 patterns, most of it case folding), which every unparsable
// command paid in a fresh process. Most of them cannot match text that
// lacks certain words: rawNeedles lists, for each pattern, literals of
// which every match contains at least one (lowercased: a match of "rm"
// lowercases to a text that contains "rm", so the test stays a necessary
// condition whatever the pattern's case rules). A pattern whose needles
// are all absent is skipped without being compiled. The table is generated
// (needles_table.go, `go test ./policy -run TestRawNeedles -update`) and
// TestRawNeedles fails when it is stale; a pattern missing from it is
// always compiled and matched, so staleness costs time, never a hit.

// rawNeedles is the table, built on first use: only a command line the
// parser rejects needs it, and building its map at package init was the
// largest part of the package's start-up, which every command pays.
var rawNeedles = sync.OnceValue(rawNeedleTable)

// rawFind returns the leftmost match of r's raw pattern in text, or nil.
// lower is strings.ToLower(text).
func (r *Rule) rawFind(text, lower string) []int {
	if r.Raw == "" {
		return nil
	}
	if n, ok := rawNeedles()[r.Raw]; ok && !hasNeedle(text, lower, n) {
		return nil
	}
	return r.raw().FindStringIndex(text)
}

// wordStart marks a needle that every match holds where the pattern has
// a \b before it: "\x00rm" is "rm" with no letter, digit or _ before it.
// "iex (irm …)" holds "rm" but not at a word start, and running the two
// rm patterns on it cost more than the rest of its decision (a regexp
// whose machines the GC took is slow to run again).
const wordStart = "\x00"

// hasNeedle reports whether lower, text lowercased, holds one of the
// needles. A wordStart needle counts only at a word boundary, checked
// when text is ASCII: lower then has text's bytes, changed only in
// case, at the same places. Beyond ASCII (where lowering may turn a
// character that is not a word character into one, the Kelvin sign into
// k) the boundary is not checked, which only costs time.
func hasNeedle(text, lower string, subs []string) bool {
	ascii := isASCII(text)
	for _, sub := range subs {
		if w, ok := strings.CutPrefix(sub, wordStart); ok {
			if ascii && containsAtBoundary(lower, w) || !ascii && strings.Contains(lower, w) {
				return true
			}
			continue
		}
		if strings.Contains(lower, sub) {
			return true
		}
	}
	return false
}

// containsAtBoundary reports whether s holds sub at a \b: the byte before
// it (none at the start) is a word byte exactly when sub's first is not.
func containsAtBoundary(s, sub string) bool {
	if sub == "" {
		return true
	}
	for i := 0; i <= len(s); {
		j := strings.Index(s[i:], sub)
		if j < 0 {
			return false
		}
		j += i
		if (j > 0 && isWordByte(s[j-1])) != isWordByte(sub[0]) {
			return true
		}
		i = j + 1
	}
	return false
}

// isWordByte is RE2's \w: ASCII letters, digits and _.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// needlesOf computes the needles of a pattern: nil when no literal is
// required (a match may be made of classes alone), so the pattern must
// always run.
func needlesOf(pattern string) []string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	return required(re)
}

// required returns literals one of which every match of re contains, or
// nil.
func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{strings.ToLower(string(re.Rune))}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []string
		for i, sub := range re.Sub {
			set := required(sub)
			if sub.Op == syntax.OpWordBoundary && i+1 < len(re.Sub) {
				set = atWordStart(prefixes(re.Sub[i+1]))
			}
			if better(set, best) {
				best = set
			}
		}
		return best
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			set := required(sub)
			if set == nil {
				return nil
			}
			all = append(all, set...)
		}
		return all
	}
	return nil
}

// prefixes returns literals one of which every match of re starts with,
// or nil.
func prefixes(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{strings.ToLower(string(re.Rune))}
	case syntax.OpCapture:
		return prefixes(re.Sub[0])
	case syntax.OpConcat:
		if len(re.Sub) > 0 {
			return prefixes(re.Sub[0])
		}
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			set := prefixes(sub)
			if set == nil {
				return nil
			}
			all = append(all, set...)
		}
		return all
	}
	return nil
}

// atWordStart marks needles as found at a word boundary.
func atWordStart(set []string) []string {
	if set == nil {
		return nil
	}
	out := make([]string, len(set))
	for i, n := range set {
		out[i] = wordStart + n
	}
	return out
}

// better prefers the set whose shortest literal is longest (it rejects
// more text), then the smaller set.
func better(a, b []string) bool {
	if a == nil {
		return false
	}
	if b == nil {
		return true
	}
	if ma, mb := minLen(a), minLen(b); ma != mb {
		return ma > mb
	}
	return len(a) < len(b)
}

func minLen(set []string) int {
	m := len(set[0])
	for _, s := range set[1:] {
		m = min(m, len(s))
	}
	return m
}
