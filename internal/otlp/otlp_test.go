package otlp

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/internal/jsonstr"
)

func TestRequestShape(t *testing.T) {
	req := Request{
		Resource: []KeyValue{Attr("service.name", String("guard-exec"))},
		Scope:    Scope{Name: "guard-exec", Version: "v1.2.3"},
		Records: []Record{{
			TimeUnixNano:         1700000000123000000,
			ObservedTimeUnixNano: 1700000000123000000,
			SeverityNumber:       SeverityWarn,
			SeverityText:         "WARN",
			EventName:            "guard_exec.exec",
			Body:                 "rm -rf build",
			Attributes: []KeyValue{
				Attr("process.exit.code", Int(-1)),
				Attr("guard_exec.duration", Double(0.25)),
				Attr("guard_exec.timed_out", Bool(true)),
				Attr("guard_exec.rule.ids", Strings([]string{"rm-rf", "loop"})),
			},
		}, {}},
	}
	got := string(req.Append(nil))
	want := `{"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"guard-exec"}}]},` +
		`"scopeLogs":[{"scope":{"name":"guard-exec","version":"v1.2.3"},"logRecords":[` +
		`{"timeUnixNano":"1700000000123000000","observedTimeUnixNano":"1700000000123000000","severityNumber":13,"severityText":"WARN",` +
		`"body":{"stringValue":"rm -rf build"},"attributes":[` +
		`{"key":"process.exit.code","value":{"intValue":"-1"}},` +
		`{"key":"guard_exec.duration","value":{"doubleValue":0.25}},` +
		`{"key":"guard_exec.timed_out","value":{"boolValue":true}},` +
		`{"key":"guard_exec.rule.ids","value":{"arrayValue":{"values":[{"stringValue":"rm-rf"},{"stringValue":"loop"}]}}}],` +
		`"eventName":"guard_exec.exec"},{}]}]}]}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if !json.Valid([]byte(got)) {
		t.Error("not valid JSON")
	}
}

func TestDoubles(t *testing.T) {
	for f, want := range map[float64]string{1e21: "1e+21", 1.5: "1.5", math.NaN(): `"NaN"`, math.Inf(1): `"Infinity"`, math.Inf(-1): `"-Infinity"`} {
		if got := string(appendDouble(nil, f)); got != want {
			t.Errorf("%v: got %s, want %s", f, got, want)
		}
	}
}

func TestSeverityText(t *testing.T) {
	for n, want := range map[int]string{0: "", 9: "INFO", 13: "WARN", 17: "ERROR", 21: "FATAL", 5: "DEBUG"} {
		if got := SeverityText(n); got != want {
			t.Errorf("%d: got %q, want %q", n, got, want)
		}
	}
}

// wantDecoded is what a JSON decoder must read back: every invalid byte
// becomes U+FFFD.
func wantDecoded(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}

func FuzzString(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c", "\x00\x1f\x7f", "line\nnext\r\t", "\xff\xfe", "é\u2028\u2029😀", "<&>", "a\xe2\x82"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := jsonstr.Append(nil, s)
		var got string
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%q encodes as invalid JSON %s: %v", s, b, err)
		}
		if want := wantDecoded(s); got != want {
			t.Fatalf("%q reads back as %q, want %q", s, got, want)
		}
		if strings.ContainsAny(string(b), "\n\r\u2028\u2029") {
			t.Fatalf("%q encodes across lines: %s", s, b)
		}
	})
}
