package parse

import (
	"slices"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// A variable that the paths reaching a point set to different values is
// unknown there, but it is one of those values. bats picks its run log so:
//
//	if [[ ! -d $dir ]]; then export BATS_RUNLOG_FILE=/dev/null
//	else export BATS_RUNLOG_FILE="$dir/$date.log"; fi
//	… printf … >>"$BATS_RUNLOG_FILE"
//
// The variable keeps the few values it may have (variable.alts), and a word
// that is exactly its expansion carries them (Word.Alts), so that a write
// to it is judged by every value it may have rather than held as a write to
// anything. Past maxAlts values, or where one path does not know its value
// at all, the variable is unknown as before.

// maxAlts bounds the values a variable is known to be one of.
const maxAlts = 4

// altsOf returns the values v may have: its own when known as a plain
// string, its alts when unknown; nil when not known at all.
func altsOf(v *variable) []string {
	switch {
	case v == nil:
		return nil
	case v.known:
		if !v.v.Set || v.v.Kind != expand.String || v.pattern {
			return nil
		}
		return []string{v.v.Str}
	default:
		return v.alts
	}
}

// joinAlts returns the values a merge of a and b may have, or nil.
func joinAlts(a, b *variable) []string {
	x, y := altsOf(a), altsOf(b)
	if x == nil || y == nil {
		return nil
	}
	out := slices.Concat(x, y)
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > maxAlts {
		return nil
	}
	return out
}

// markAlts notes on w the values it may have, when it is exactly the
// expansion of a variable known to be one of a few (in the assumed state
// too, after unseen code: assumed.go).
func (fr *frame) markAlts(syn *syntax.Word, w *Word) {
	if !w.Dynamic {
		return
	}
	name := soleParam(syn)
	if name == "" {
		return
	}
	v := fr.lookup(name)
	if v.known || v.alts == nil {
		if !fr.st.poisoned || fr.st.prior == nil || (v.known && !v.stale) {
			return
		}
		as := fr.st.assumed()
		if as == nil {
			return
		}
		v = as.lookup(name)
	}
	if !v.known && v.alts != nil {
		w.Alts = &v.alts
	}
}

// Alternatives returns the values the word may have (Word.Alts), or nil.
func (w Word) Alternatives() []string {
	if w.Alts == nil {
		return nil
	}
	return *w.Alts
}
