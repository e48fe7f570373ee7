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
	if n, ok := rawNeedles()[r.Raw]; ok && !hasNeedle(lower, n) {
		return nil
	}
	return r.raw().FindStringIndex(text)
}

func hasNeedle(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
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
		for _, sub := range re.Sub {
			if set := required(sub); better(set, best) {
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
