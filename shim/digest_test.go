package shim

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// referenceStream is what a digest must report for data written in any chunks.
func referenceStream(data []byte, keep int) Stream {
	sum := sha256.Sum256(data)
	s := Stream{Bytes: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}
	s.Head = append([]byte(nil), data[:min(keep, len(data))]...)
	rest := data[len(s.Head):]
	s.Tail = append([]byte(nil), rest[max(0, len(rest)-keep):]...)
	s.Truncated = len(data) > len(s.Head)+len(s.Tail)
	return s
}

func digestOf(keep int, chunks ...[]byte) Stream {
	d := newDigest(keep)
	for _, c := range chunks {
		d.Write(c)
	}
	return d.stream()
}

func sameStream(a, b Stream) bool {
	return a.Bytes == b.Bytes && a.SHA256 == b.SHA256 && bytes.Equal(a.Head, b.Head) &&
		bytes.Equal(a.Tail, b.Tail) && a.Truncated == b.Truncated
}

func TestDigest(t *testing.T) {
	data := []byte("0123456789abcdefghijklmnopqrstuvwxyz")
	for _, tc := range []struct {
		name   string
		max    int
		chunks [][]byte
		head   string
		tail   string
		trunc  bool
	}{
		{"empty", 4, nil, "", "", false},
		{"fits in head", 8, [][]byte{data[:5]}, "01234", "", false},
		{"head and a short tail", 8, [][]byte{data[:12]}, "01234567", "89ab", false},
		{"exactly head and tail", 8, [][]byte{data[:16]}, "01234567", "89abcdef", false},
		{"middle dropped", 8, [][]byte{data[:20]}, "01234567", "cdefghij", true},
		{"byte by byte", 4, split(data, 1), "0123", "wxyz", true},
		{"chunks larger than max", 4, split(data, 7), "0123", "wxyz", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := digestOf(tc.max, tc.chunks...)
			if string(got.Head) != tc.head || string(got.Tail) != tc.tail || got.Truncated != tc.trunc {
				t.Fatalf("head %q tail %q truncated %v; want %q %q %v", got.Head, got.Tail, got.Truncated, tc.head, tc.tail, tc.trunc)
			}
			if want := referenceStream(bytes.Join(tc.chunks, nil), tc.max); !sameStream(got, want) {
				t.Fatalf("got %+v, want %+v", got, want)
			}
		})
	}
}

func split(p []byte, n int) [][]byte {
	var out [][]byte
	for len(p) > 0 {
		k := min(n, len(p))
		out = append(out, p[:k])
		p = p[k:]
	}
	return out
}

// FuzzDigest writes the data in chunks whose sizes come from the fuzzer and
// compares the result with the reference computed on the whole.
func FuzzDigest(f *testing.F) {
	f.Add([]byte("hello world, this is a stream"), []byte{1, 5, 200, 3}, uint8(4))
	f.Add(bytes.Repeat([]byte("ab"), 100), []byte{0, 17}, uint8(16))
	f.Fuzz(func(t *testing.T, data, sizes []byte, keepN uint8) {
		m := int(keepN%64) + 1
		d := newDigest(m)
		rest := data
		for i := 0; len(rest) > 0; i++ {
			n := len(rest)
			if len(sizes) > 0 {
				n = min(int(sizes[i%len(sizes)])+1, len(rest))
			}
			d.Write(rest[:n])
			rest = rest[n:]
		}
		if got, want := d.stream(), referenceStream(data, m); !sameStream(got, want) {
			t.Fatalf("got %+v, want %+v", got, want)
		}
	})
}

// BenchmarkDigest measures the digest on the copy path: SHA-256 dominates it.
func BenchmarkDigest(b *testing.B) {
	buf := bytes.Repeat([]byte("guard-exec output line\n"), 128<<10/23) // one copy-loop read
	d := newDigest(2048)
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		d.Write(buf)
	}
}
