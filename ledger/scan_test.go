package ledger

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"testing"
)

// refLine is what a plain split says a line is.
type refLine struct {
	data       string
	start, end int64
	long       bool
}

func reference(b []byte) []refLine {
	var out []refLine
	start := 0
	for start < len(b) {
		end := bytes.IndexByte(b[start:], '\n')
		if end < 0 {
			end = len(b)
		} else {
			end += start
		}
		r := refLine{start: int64(start), end: int64(end), long: end-start > maxLine}
		if !r.long {
			r.data = string(b[start:end])
		}
		out = append(out, r)
		start = end + 1
	}
	return out
}

// Both scanners agree with a plain split on every shape of file: empty,
// blank lines, no final newline, lines longer than maxLine anywhere,
// lines that straddle every read boundary.
func TestScanners(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	cases := [][]byte{
		nil, []byte("\n"), []byte("\n\n"), []byte("a"), []byte("a\n"), []byte("\na"), []byte("a\n\nb"),
		bytes.Repeat([]byte("x"), maxLine), bytes.Repeat([]byte("x"), maxLine+1),
		append(bytes.Repeat([]byte("x"), maxLine+1), '\n'),
		append([]byte("a\n"), bytes.Repeat([]byte("x"), 3*maxLine)...),
	}
	for i := 0; i < 40; i++ {
		var b []byte
		for n := rng.Intn(30); n > 0; n-- {
			size := rng.Intn(3 * firstChunk)
			switch rng.Intn(12) {
			case 0:
				size = 0
			case 1:
				size = maxLine - 2 + rng.Intn(5)
			}
			b = append(b, bytes.Repeat([]byte{byte('a' + rng.Intn(26))}, size)...)
			b = append(b, '\n')
		}
		if rng.Intn(2) == 0 && len(b) > 0 {
			b = b[:len(b)-1]
		}
		cases = append(cases, b)
	}
	for i, b := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			want := reference(b)
			var back []refLine
			bs := newBackScanner(bytes.NewReader(b), int64(len(b)))
			for {
				ln, ok := bs.next()
				if !ok {
					break
				}
				back = append(back, refLine{string(ln.data), ln.start, ln.end, ln.long})
			}
			bs.release()
			if bs.err != nil {
				t.Fatal(bs.err)
			}
			reverse(back)
			compare(t, "backward", back, want)

			var fwd []refLine
			lr := newLineReader(bytes.NewReader(b))
			for n := 1; ; n++ {
				ln, _, err := lr.next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if ln.num != n {
					t.Fatalf("line %d numbered %d", n, ln.num)
				}
				fwd = append(fwd, refLine{string(ln.data), ln.start, ln.end, ln.long})
			}
			compare(t, "forward", fwd, want)
		})
	}
}

func compare(t *testing.T, dir string, got, want []refLine) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d lines, want %d", dir, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			g, w := got[i], want[i]
			g.data, w.data = fmt.Sprintf("%.20q… (%d)", g.data, len(g.data)), fmt.Sprintf("%.20q… (%d)", w.data, len(w.data))
			t.Fatalf("%s: line %d = %+v, want %+v", dir, i+1, g, w)
		}
	}
}
