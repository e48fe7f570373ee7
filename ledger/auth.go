package ledger

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"strings"
	"sync"
)

// Authentication. With Options.Key set, each record's prev is not the
// plain sha256 of the line before it but an HMAC-SHA256 of that line
// under a key guarded commands cannot read (the user's, kept in the
// configuration directory; see paths.KeyFile). A line's link covers its
// own prev, so each link authenticates the whole history before it: a
// forged record, even one whose prev was copied from the record after the
// line it claims to follow, breaks the chain where it stands, and no one
// without the key can append a record whose prev is right. Keyed links are
// written "m1:HEX" so that a reader tells them from the plain hashes of a
// ledger written before there was a key (or without one).
//
// What the chain cannot show is what is missing at its end: deleting the
// newest records, truncating the ledger, or deleting it and starting
// again at ev-0001 leave a valid chain. The anchor covers that (anchor.go).

const macPrefix = "m1:"

// keyring holds the keys derived from Options.Key, one per use, so that a
// value computed for one (the anchor's tag) is never valid for another
// (a record's prev).
type keyring struct {
	link, anchor []byte
	pool         sync.Pool // hash.Hash for links
}

func newKeyring(key []byte) *keyring {
	if len(key) == 0 {
		return nil
	}
	k := &keyring{link: derive(key, "ledger link"), anchor: derive(key, "ledger anchor")}
	k.pool.New = func() any { return hmac.New(sha256.New, k.link) }
	return k
}

// derive is HMAC(key, label): a key for one purpose.
func derive(key []byte, label string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(label))
	return m.Sum(nil)
}

// Derive returns the key for a purpose of the caller's (the sourced-file
// cache, approvals) from the user's key, never equal to the ledger's.
func Derive(key []byte, purpose string) []byte {
	return derive(key, "guard-exec "+purpose)
}

// link is the chain link of a line without its newline: its keyed MAC
// when there is a key, else its sha256.
func (k *keyring) linkOf(line []byte) string {
	if k == nil {
		return hashLine(line)
	}
	h := k.pool.Get().(hash.Hash)
	h.Reset()
	h.Write(line)
	var sum [sha256.Size]byte
	out := macPrefix + hex.EncodeToString(h.Sum(sum[:0]))
	k.pool.Put(h)
	return out
}

// follows reports whether prev is the right link to line, whose own prev
// is linePrev. A keyed prev must be the keyed link. A plain sha256 prev is
// right only in the unkeyed part of a ledger (written before it had a
// key): after a keyed line, a plain hash is what a forger would write.
func (k *keyring) follows(prev string, line []byte, linePrev string) bool {
	if keyed(prev) {
		return k == nil || hmac.Equal([]byte(prev), []byte(k.linkOf(line)))
	}
	return !keyed(linePrev) && prev == hashLine(line)
}

// keyed reports whether a prev was written with a key.
func keyed(prev string) bool { return strings.HasPrefix(prev, macPrefix) }

// tag authenticates an anchor's text.
func (k *keyring) tag(text string) string {
	m := hmac.New(sha256.New, k.anchor)
	m.Write([]byte(text))
	return hex.EncodeToString(m.Sum(nil))
}

// MAC is HMAC-SHA256 of data under key, in hex: for callers that keep
// their own authenticated files (the sourced-file cache).
func MAC(key []byte, data []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write(data)
	return hex.EncodeToString(m.Sum(nil))
}

// ApprovalMAC binds an approval to exactly what it lets run once: the
// held decision's id, the directory, the canonical command and the time
// it expires, under a key derived from the user's. The guard checks it
// before a retry runs, so an approval line written into the ledger by
// anything but guard-exec approve (which must read the key) lets nothing
// run.
func ApprovalMAC(key []byte, r *Record) string {
	if len(key) == 0 {
		return ""
	}
	k := Derive(key, "approval")
	msg := strings.Join([]string{r.Ref, r.Cwd, r.Command, r.Expires, r.Session}, "\x00")
	return MAC(k, []byte(msg))
}
