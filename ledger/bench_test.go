package ledger

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The ledger's cost must not grow with its size. The "100k" cases
// run against one segment of 100,000 records (MaxBytes raised so it never
// rotates), the worst case for a reader that does not bound itself.

const bigRecords = 100_000

// bigLedger writes a valid ledger of n records (exec/exit pairs) in one
// segment directly, without going through Append, so setup takes a second
// rather than minutes.
func bigLedger(b *testing.B, n int) *Ledger {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "ledger")
	l, err := Open(dir, Options{MaxBytes: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	prev := ""
	put := func(r *Record) {
		r.Prev = prev
		ln, err := encode(r)
		if err != nil {
			b.Fatal(err)
		}
		buf.Write(ln)
		prev = hashLine(ln[:len(ln)-1])
	}
	put(&Record{Kind: KindHeader, Time: "2026-03-14T15:09:26.000Z", Schema: SchemaVersion})
	code := 0
	for i := 1; i <= n/2; i++ {
		id := FormatID(int64(i))
		put(&Record{Kind: KindExec, ID: id, Time: "2026-03-14T15:09:26.000Z", Session: "s-1234", Cwd: "/home/dev/src/project",
			Mode: "shell", IO: "pipe", Command: fmt.Sprintf("go test ./pkg%d/... -run TestThing", i%50), Verdict: "allow", Enforce: "enforce", PID: 4242})
		put(&Record{Kind: KindExit, ID: id, Time: "2026-03-14T15:09:26.120Z", Exit: &code, DurationMS: 120.5,
			Stdout: &StreamInfo{Bytes: 1234, SHA256: hashLine([]byte(id))}, Stderr: &StreamInfo{}, Digest: "ok  \tgithub.com/x/y\t0.120s\n"})
	}
	writeFile(b, l.path(lockName), "")
	writeFile(b, l.path(activeName), buf.String())
	return l
}

func BenchmarkAppend(b *testing.B) {
	rec := &Record{Kind: KindExec, Session: "s-1234", Cwd: "/home/dev/src/project", Mode: "shell", IO: "pipe",
		Command: "go test ./... -run TestThing", Raw: "go test ./... -run TestThing", Verdict: "allow", Enforce: "enforce", PID: 4242}
	b.Run("empty", func(b *testing.B) {
		l, err := Open(filepath.Join(b.TempDir(), "ledger"), Options{})
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := l.Append(rec); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("100k", func(b *testing.B) {
		l := bigLedger(b, bigRecords)
		for b.Loop() {
			if _, err := l.Append(rec); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("keyed", func(b *testing.B) {
		// The guard's own setting: authenticated links and an anchor.
		l, err := Open(filepath.Join(b.TempDir(), "ledger"), Options{Key: []byte("0123456789abcdef0123456789abcdef"), AnchorDir: filepath.Join(b.TempDir(), "anchors")})
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := l.Append(rec); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("keyed-fresh", func(b *testing.B) {
		// A new process per command: the first append finds the tip.
		dir, anchors := filepath.Join(b.TempDir(), "ledger"), filepath.Join(b.TempDir(), "anchors")
		opts := Options{Key: []byte("0123456789abcdef0123456789abcdef"), AnchorDir: anchors}
		for b.Loop() {
			l, err := Open(dir, opts)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := l.Append(rec); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fresh", func(b *testing.B) {
		dir := filepath.Join(b.TempDir(), "ledger")
		for b.Loop() {
			l, err := Open(dir, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := l.Append(rec); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("durable", func(b *testing.B) {
		l, err := Open(filepath.Join(b.TempDir(), "ledger"), Options{Durable: true})
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := l.Append(rec); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkTail(b *testing.B) {
	l := bigLedger(b, bigRecords)
	for _, n := range []int{1, 20, 200} {
		b.Run(fmt.Sprintf("100k/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if recs, _, err := l.Tail(n); err != nil || len(recs) != n {
					b.Fatal(len(recs), err)
				}
			}
		})
	}
}

func BenchmarkFind(b *testing.B) {
	l := bigLedger(b, bigRecords)
	for _, id := range []string{FormatID(bigRecords / 2), FormatID(bigRecords/2 - 100)} {
		b.Run("100k/"+id, func(b *testing.B) {
			for b.Loop() {
				if recs, err := l.Find(id); err != nil || len(recs) != 2 {
					b.Fatal(len(recs), err)
				}
			}
		})
	}
}

// BenchmarkOpen is the per-command cost of opening a prepared ledger.
func BenchmarkOpen(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "ledger")
	if _, err := Open(dir, Options{}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Open(dir, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerify is for information: Verify reads everything, by design.
func BenchmarkVerify(b *testing.B) {
	l := bigLedger(b, bigRecords)
	fi, _ := os.Stat(l.path(activeName))
	b.SetBytes(fi.Size())
	for b.Loop() {
		if rep, err := l.Verify(); err != nil || !rep.OK {
			b.Fatal(err, rep.Problems)
		}
	}
}
