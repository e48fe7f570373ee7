package main

import (
	"encoding/json"
	"testing"
)

var batchLineSeeds = []string{
	`{"command":"git status"}`,
	`{"command":"rm -rf \"$HOME\"\\n","cwd":"/srv/app"}`,
	` { "cwd" : "sub" , "command" : "ls\t-la" } `,
	`{"command":null}`, `{"cwd":null,"command":"x"}`, `{"command":"a","command":"b"}`,
	`{}`, `{"Command":"x"}`, `{"command":"\u0072m -rf /"}`, `{"command":1}`, `{"command":"x",}`,
	`{"command":"x"} trailing`, `{"command":"x","extra":true}`, `["command"]`, `"x"`, `null`, ``,
	"{\"command\":\"\xff\"}", "{\"command\":\"a\x01\"}", `{"command":"\/\b\f\r"}`, `{"command":"\q"}`,
	`{"command":"caf` + "\u00e9" + `"}`, `{"command":"x"`, `{"command"`, `{"command":`, `{"cwd":"d"}`,
}

// TestDecodeBatchLine: the fast reading of a request gives what
// encoding/json gives, and takes the plain lines.
func TestDecodeBatchLine(t *testing.T) {
	for _, s := range batchLineSeeds {
		compareBatchLine(t, []byte(s))
	}
	for _, s := range []string{`{"command":"git status"}`, `{"command":"echo \"a\\tb\"","cwd":"/p"}`, ` {"cwd":"x", "command":null} `} {
		var req batchLine
		if !fastBatchLine([]byte(s), &req) {
			t.Errorf("%s went to encoding/json; it is a plain request", s)
		}
	}
}

// FuzzDecodeBatchLine: whatever the line, decodeBatchLine agrees with
// encoding/json on the request and on whether it is one.
func FuzzDecodeBatchLine(f *testing.F) {
	for _, s := range batchLineSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) { compareBatchLine(t, line) })
}

func compareBatchLine(t *testing.T, line []byte) {
	t.Helper()
	var got, want batchLine
	gerr := decodeBatchLine(line, &got)
	werr := json.Unmarshal(line, &want)
	if (gerr == nil) != (werr == nil) {
		t.Fatalf("%q: error %v, encoding/json's %v", line, gerr, werr)
	}
	if gerr != nil {
		if gerr.Error() != werr.Error() {
			t.Fatalf("%q: error %v, encoding/json's %v", line, gerr, werr)
		}
		return
	}
	if (got.Command == nil) != (want.Command == nil) || got.Command != nil && *got.Command != *want.Command || got.Cwd != want.Cwd {
		t.Fatalf("%q: %s, encoding/json gives %s", line, showRequest(got), showRequest(want))
	}
}

func showRequest(r batchLine) string {
	b, _ := json.Marshal(r)
	return string(b)
}
