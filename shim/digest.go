package shim

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"sync/atomic"
)

// digest observes one output stream: its length, its SHA-256, its first max bytes
// and its last max bytes, in memory bounded by 3*max whatever the stream's size.
// It is written by one goroutine and read (snapshot) after that goroutine is done.
type digest struct {
	max    int
	total  int64
	hashed atomic.Int64 // bytes fed to h: all of them, unless hashing was given up
	head   []byte       // the first max bytes
	tail   []byte       // bytes after head; only its last max bytes are kept
	h      hash.Hash
}

func newDigest(keep int) *digest {
	return &digest{max: keep, head: make([]byte, 0, keep), tail: make([]byte, 0, 2*keep), h: sha256.New()}
}

// Write never fails, so it can sit behind the real writer without changing it.
func (d *digest) Write(p []byte) (int, error) {
	d.write(p, true)
	return len(p), nil
}

// write observes p, hashing it while hash is true and nothing was left out of the
// hash before: once hashing stops, it stays stopped, and the hash covers a prefix.
func (d *digest) write(p []byte, hash bool) {
	if hash && d.hashed.Load() == d.total {
		d.h.Write(p)
		d.hashed.Add(int64(len(p)))
	}
	d.total += int64(len(p))
	if room := d.max - len(d.head); room > 0 {
		k := min(room, len(p))
		d.head = append(d.head, p[:k]...)
		p = p[k:]
	}
	d.keepTail(p)
}

// hashedBytes may be called from another goroutine while the digest is written.
func (d *digest) hashedBytes() int64 { return d.hashed.Load() }

// keepTail appends p to the tail window. The window is allowed to grow to 2*max
// before it is compacted to its last max bytes, so each byte is moved at most twice
// (a ring buffer would need two copies on every snapshot instead).
func (d *digest) keepTail(p []byte) {
	switch {
	case len(p) == 0:
	case len(p) >= d.max:
		d.tail = append(d.tail[:0], p[len(p)-d.max:]...)
	default:
		if len(d.tail)+len(p) > 2*d.max {
			keep := d.max - len(p)
			d.tail = append(d.tail[:0], d.tail[len(d.tail)-keep:]...)
		}
		d.tail = append(d.tail, p...)
	}
}

// stream reports what was observed. Head and Tail are copies; Tail holds only bytes
// that are not in Head, so Head+Tail is the whole stream unless Truncated.
func (d *digest) stream() Stream {
	tail := d.tail
	if len(tail) > d.max {
		tail = tail[len(tail)-d.max:]
	}
	s := Stream{
		Bytes:  d.total,
		Hashed: d.hashed.Load(),
		SHA256: hex.EncodeToString(d.h.Sum(nil)),
		Head:   append([]byte(nil), d.head...),
		Tail:   append([]byte(nil), tail...),
	}
	s.Truncated = s.Bytes > int64(len(s.Head)+len(s.Tail))
	return s
}
