package ledger

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// jsonLine is the reference: what encoding/json writes for r with HTML
// escaping off, as encode did before appendRecord.
func jsonLine(t testing.TB, r *Record) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeRecords() []*Record {
	zero, one, neg := 0, 1, -130
	return []*Record{
		{},
		{Kind: KindHeader, Time: "2026-03-14T15:09:26.000Z", Schema: SchemaVersion, LastID: "ev-0042", Prev: "ab"},
		{Kind: KindExec, ID: "ev-0001", Time: "t", Session: "s", Cwd: "/home/dev/p", Project: "/home/dev/p", Mode: "shell", IO: "pipe",
			Command: `git commit -m "a > b && c < d" 'it''s'`, Raw: "printf '\\x00\t\n\r\b\f\x01\x1f\x7f'", Verdict: "warn", Enforce: "enforce",
			Rules:      []Hit{{ID: "r", Severity: "warn"}, {ID: "q", Severity: "hold", Message: "m", Span: "s\u2028t\u2029", Pos: "1:2"}},
			EnvRemoved: []string{"BASH_ENV", "BASH_FUNC_f%%"}, Parent: "ev-0009", PID: 4242},
		{Kind: KindExit, ID: "ev-0001", Exit: &zero, DurationMS: 0.001, Stdout: &StreamInfo{}, Stderr: &StreamInfo{Bytes: 7, SHA256: "ff"}},
		{Kind: KindExit, ID: "ev-0001", Stdout: &StreamInfo{Bytes: 1 << 30, PrefixSHA256: "ee", Hashed: 16 << 20}},
		{Kind: KindExit, ID: "ev-0002", Exit: &one, Signal: "SIGTERM", DurationMS: 1e21, TimedOut: true, Incomplete: true, Cast: "casts/ev-0002.cast"},
		{Kind: KindExit, ID: "ev-0003", Exit: &neg, DurationMS: 1.5e-7, Digest: "bad utf-8: \xff\xfe \xe2\x82 end é 日本 😀"},
		{Kind: KindExit, ID: "ev-0004", DurationMS: 123456.789, Digest: "<script>&amp;</script>"},
		{Kind: KindApproval, ID: "ev-0005", Ref: "ev-0004", Expires: "2026-03-14T15:19:26.000Z", Stamp: "x", Rules: []Hit{}, EnvRemoved: []string{}},
		{Kind: KindDecision, DurationMS: math.SmallestNonzeroFloat64, PID: -1, Schema: -3},
	}
}

func TestEncodeMatchesJSON(t *testing.T) {
	for i, r := range encodeRecords() {
		got, err := encode(r)
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		if want := jsonLine(t, r); !bytes.Equal(got, want) {
			t.Errorf("%d:\n got %s\nwant %s", i, got, want)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := encode(&Record{Kind: KindExit, DurationMS: f}); err == nil {
			t.Errorf("duration %v: no error", f)
		}
	}
}

// FuzzEncode holds appendRecord to encoding/json's bytes for any text in
// the string fields and any numbers.
func FuzzEncode(f *testing.F) {
	f.Add("git status", "a\x00b\xff\u2028", int64(3), 1.25, true)
	f.Add("", "", int64(0), 0.0, false)
	f.Add(`"\`, "\t\n", int64(-1), 1e-9, true)
	f.Fuzz(func(t *testing.T, s1, s2 string, n int64, d float64, flag bool) {
		if math.IsNaN(d) || math.IsInf(d, 0) {
			return
		}
		code := int(n)
		r := &Record{Kind: Kind(s1), ID: s2, Time: s1, Command: s1 + s2, Raw: s2, Digest: s2 + s1, Schema: int(n), PID: int(-n),
			Rules: []Hit{{ID: s2, Severity: s1, Message: s1, Span: s2}}, EnvRemoved: []string{s1, s2},
			Exit: &code, DurationMS: d, Stdout: &StreamInfo{Bytes: n, SHA256: s2}, TimedOut: flag, Prev: s2,
			Stderr: &StreamInfo{Bytes: -n, PrefixSHA256: s1, Hashed: n}}
		got, err := encode(r)
		if err != nil {
			t.Fatal(err)
		}
		if want := jsonLine(t, r); !bytes.Equal(got, want) {
			t.Fatalf("\n got %q\nwant %q", got, want)
		}
	})
}

func BenchmarkEncode(b *testing.B) {
	r := encodeRecords()[2]
	for b.Loop() {
		if _, err := encode(r); err != nil {
			b.Fatal(err)
		}
	}
}
