// Package redact removes secrets from text before guard-exec writes it
// anywhere: commands, output digests and terminal transcripts.
//
// Detection is anchored: each kind of secret has a few short anchors (a token
// prefix such as "ghp_", a name such as "password", a separator such as
// "://"), all found in one pass over the text that looks each run of three
// bytes (ASCII case folded) up in a bit set of the runs anchors begin with;
// only where an anchor occurs does a small hand-written matcher look at the
// bytes around it. Text without any anchor costs that one pass, and no
// regular expression ever runs.
//
// Redaction is deterministic: the same input and extra values give the same
// output, so a caller can compare a candidate with stored text by redacting
// the candidate first. It is also idempotent: redacting redacted text changes
// nothing.
package redact

import (
	"slices"
	"sort"
	"strings"
)

// minExtra is the shortest literal value redacted verbatim: shorter values
// ("1", "true", a port number) would blank out ordinary text.
const minExtra = 8

// String replaces the secrets in s with "[REDACTED:kind]" (a password in a
// URL becomes "scheme://user:[REDACTED]@host") and each of the extra literal
// values of at least 8 bytes with "[REDACTED:env]". It knows AWS access key
// ids and secret keys; GitHub, GitLab, Slack, OpenAI, Anthropic, Stripe
// (live keys; sk_test_ is kept), npm, PyPI, Google API and Hugging Face
// tokens; JWTs; private key blocks; Authorization headers and Bearer
// tokens; values of names that say password, passwd, pwd, pass, token,
// secret or api key (NAME=v, NAME: v, "name": "v", ?name=v, --name v);
// mysql -p, sshpass -p, curl -u and docker/podman login -p passwords; and
// URL credentials. Obvious stand-ins (documentation examples, "xxxx…",
// values that say example, dummy, fake, test or placeholder, variable
// references such as $TOKEN) are kept.
func String(s string, extra []string) string {
	out, _ := redact(s, extra)
	return out
}

// span is one stretch of the input to replace; prio is the index of the rule
// that found it, so that of two detectors claiming the same text the one
// listed first in rules names the marker. open marks a private key block
// that runs to the end of the text.
type span struct {
	start, end int
	repl       string
	prio       int
	open       bool
}

// matchFunc looks at s around an anchor found at index at and appends the
// stretches to replace to out. It also returns where its rule may look for
// the next anchor (0: the next byte): a matcher that read a run of bytes
// and refused it says so, so that a long run full of anchors
// ("passpasspass…") is read once, not once per anchor.
type matchFunc func(s string, at int, anchor string, out []span) ([]span, int)

// redact is String that also reports whether s ends inside a private key
// block that has not been closed yet (see Stream).
func redact(s string, extra []string) (string, bool) {
	spans, openKey := find(s)
	for _, v := range extra {
		if len(v) < minExtra {
			continue
		}
		for from := 0; ; {
			i := strings.Index(s[from:], v)
			if i < 0 {
				break
			}
			i += from
			spans = append(spans, span{start: i, end: i + len(v), repl: mark("env"), prio: len(rules)})
			from = i + len(v)
		}
	}
	if len(spans) == 0 {
		return s, openKey
	}
	return apply(s, spans), openKey
}

// find runs every rule over s in one pass. Each rule keeps its own cursor,
// so text one rule has claimed can still be judged by another.
func find(s string) ([]span, bool) {
	var spans []span
	var next [len(rules)]int
	openKey := false
	for i := 0; i+2 < len(s); i++ {
		if !first[s[i]] {
			continue
		}
		h := triple(fold[s[i]], fold[s[i+1]], fold[s[i+2]])
		if triples[h>>6]&(1<<(h&63)) == 0 {
			continue
		}
		for _, a := range anchorsAt(h) {
			if i < next[a.rule] || !hasPrefixFold(s, i, a.anchor) {
				continue
			}
			n := len(spans)
			var resume int
			spans, resume = rules[a.rule].match(s, i, a.anchor, spans)
			next[a.rule] = max(next[a.rule], resume, i+1)
			for j := n; j < len(spans); j++ {
				spans[j].prio = a.rule
				openKey = openKey || spans[j].open
				next[a.rule] = max(next[a.rule], spans[j].end)
			}
		}
	}
	return spans, openKey
}

// anchorRef is one anchor and the rule it belongs to.
type anchorRef struct {
	anchor string
	rule   int
}

// The anchor tables. Every anchor is at least three bytes long; its first
// three, case folded, are hashed to 16 bits. The bit set of those hashes is
// small enough to stay in the first-level cache and rejects nearly every
// position of ordinary text; the sorted list of hashes is searched only on
// a hit, and a hash collision costs one failed prefix comparison. (A table
// indexed by hash would be 64 KiB that every process start has to fault in
// for some forty anchors.)
var (
	fold    [256]byte            // ASCII lowercase of each byte
	first   [256]bool            // bytes an anchor can begin with, in either case
	triples [1 << 16 / 64]uint64 // bit set of the hashes of anchors' first three bytes
	hashes  []uint32             // the hashes in the bit set, sorted
	byHash  [][]anchorRef        // the anchors under each of hashes, in rule order
)

func triple(a, b, c byte) uint32 {
	return (uint32(a)<<16 | uint32(b)<<8 | uint32(c)) * 0x9e3779b1 >> 16
}

// anchorsAt returns the anchors whose first three bytes hash to h.
func anchorsAt(h uint32) []anchorRef {
	if i, ok := slices.BinarySearch(hashes, h); ok {
		return byHash[i]
	}
	return nil
}

func init() {
	for i := range fold {
		fold[i] = lowerByte(byte(i))
	}
	// Every process pays this init, so it allocates three times, not once
	// per anchor and per growth: the entries, the hashes, and one array
	// of refs in hash order that byHash slices.
	type entry struct {
		h   uint32
		ref anchorRef
	}
	n := 0
	for _, rl := range rules {
		n += len(rl.anchors)
	}
	all := make([]entry, 0, n)
	for r, rl := range rules {
		for _, a := range rl.anchors {
			first[a[0]] = true
			if 'a' <= a[0] && a[0] <= 'z' {
				first[a[0]-'a'+'A'] = true
			}
			h := triple(a[0], a[1], a[2])
			triples[h>>6] |= 1 << (h & 63)
			all = append(all, entry{h, anchorRef{a, r}})
		}
	}
	slices.SortStableFunc(all, func(x, y entry) int { return int(x.h) - int(y.h) })
	refs := make([]anchorRef, len(all))
	hashes = make([]uint32, 0, len(all))
	byHash = make([][]anchorRef, 0, len(all))
	start := 0
	for i, e := range all {
		refs[i] = e.ref
		if i+1 == len(all) || all[i+1].h != e.h {
			hashes = append(hashes, e.h)
			byHash = append(byHash, refs[start:i+1:i+1])
			start = i + 1
		}
	}
}

// apply rewrites s with the spans, merging overlapping ones (the earliest
// span's replacement wins, and of spans starting together the one of the
// higher-priority rule) so that two detectors agreeing on one secret do not
// print two markers.
func apply(s string, spans []span) string {
	sort.Slice(spans, func(i, j int) bool {
		if spans[i].start != spans[j].start {
			return spans[i].start < spans[j].start
		}
		return spans[i].prio < spans[j].prio
	})
	var b strings.Builder
	b.Grow(len(s))
	pos := 0
	for i := 0; i < len(spans); {
		cur := spans[i]
		for i++; i < len(spans) && spans[i].start < cur.end; i++ {
			cur.end = max(cur.end, spans[i].end)
		}
		cur.start = max(cur.start, pos) // starts inside text already replaced
		b.WriteString(s[pos:cur.start])
		b.WriteString(cur.repl)
		pos = cur.end
	}
	b.WriteString(s[pos:])
	return b.String()
}

func mark(kind string) string { return "[REDACTED:" + kind + "]" }
