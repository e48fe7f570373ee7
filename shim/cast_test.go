package shim

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// castEvents decodes a transcript: the header and the events.
func castEvents(t *testing.T, data []byte) (castHeader, [][3]any) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<22)
	var hdr castHeader
	var events [][3]any
	for n := 0; sc.Scan(); n++ {
		if n == 0 {
			if err := json.Unmarshal(sc.Bytes(), &hdr); err != nil {
				t.Fatalf("header %q: %v", sc.Text(), err)
			}
			continue
		}
		var ev []any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil || len(ev) != 3 {
			t.Fatalf("event %q: %v", sc.Text(), err)
		}
		events = append(events, [3]any{ev[0], ev[1], ev[2]})
	}
	return hdr, events
}

func TestCast(t *testing.T) {
	start := time.Unix(1700000000, 0)
	c := newCast(1<<20, 100, 30, "xterm-256color", start)
	c.output(start.Add(10*time.Millisecond), []byte("héllo <b>\r\n"))
	euro := []byte("€") // three bytes, split over two reads
	c.output(start.Add(20*time.Millisecond), append([]byte("price: "), euro[:2]...))
	c.output(start.Add(30*time.Millisecond), append(euro[2:], '\n'))
	c.resize(start.Add(40*time.Millisecond), 120, 40)
	c.output(start.Add(50*time.Millisecond), []byte{'x', 0xff, '\n'})
	data, cut := c.transcript(start.Add(time.Second))
	if cut {
		t.Fatal("cut")
	}
	first, _, _ := strings.Cut(string(data), "\n")
	if want := `{"version":2,"width":100,"height":30,"timestamp":1700000000,"env":{"TERM":"xterm-256color"}}`; first != want {
		t.Errorf("header %s\nwant   %s", first, want)
	}
	_, events := castEvents(t, data)
	want := [][3]any{
		{0.01, "o", "héllo <b>\r\n"},
		{0.02, "o", "price: "},
		{0.03, "o", "€\n"},
		{0.04, "r", "120x40"},
		{0.05, "o", "x\uFFFD\n"},
	}
	if len(events) != len(want) {
		t.Fatalf("events %v, want %v", events, want)
	}
	for i := range want {
		if events[i] != want[i] {
			t.Errorf("event %d = %v, want %v", i, events[i], want[i])
		}
	}
}

func TestCastLimit(t *testing.T) {
	start := time.Now()
	c := newCast(300, 80, 24, "dumb", start)
	for i := 0; i < 100; i++ {
		c.output(start, []byte("0123456789"))
	}
	data, cut := c.transcript(start)
	if !cut || len(data) > 300 {
		t.Fatalf("cut=%v len=%d; want a cut transcript of at most 300 bytes", cut, len(data))
	}
	castEvents(t, data) // still whole lines of JSON
}

func TestIncompleteSuffix(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", 0}, {"abc", 3}, {"a\xe2\x82", 1}, {"a\xe2\x82\xac", 4}, {"\xf0\x9f", 0}, {"\xff", 1}, {"a\xc3", 1},
	} {
		if got := incompleteSuffix([]byte(tc.in)); got != tc.want {
			t.Errorf("incompleteSuffix(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
