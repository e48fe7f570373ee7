package policy

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// fakeHistory answers RepeatedFailures from a table of fingerprints.
type fakeHistory struct {
	fails map[string][]string // "session|cwd|command" → ids, newest first
	err   error
	asked []int
}

func (f *fakeHistory) RepeatedFailures(session, command, cwd string, n int) ([]string, error) {
	f.asked = append(f.asked, n)
	ids := f.fails[session+"|"+cwd+"|"+command]
	if len(ids) < n {
		return nil, f.err
	}
	return ids[:n], f.err
}

func loopCtx(h History, after int) *Ctx {
	x := testCtx()
	x.Session, x.History, x.BlockAfter = "s1", h, after
	return x
}

func TestLoopBrake(t *testing.T) {
	h := &fakeHistory{fails: map[string][]string{
		"s1|" + testProject + "|go test ./...": {"ev-0009", "ev-0004", "ev-0002"},
		"s1|" + testProject + "|git push -f":   {"ev-0007", "ev-0005"},
		"s1|" + testProject + "|echo 'a  b'":   {"ev-0003"},
	}}
	e := NewEngine(Builtin())
	cases := []struct {
		cmd     string
		after   int
		verdict Severity
		span    string
	}{
		{"go test ./...", 3, Hold, "failed 2 times in a row (ev-0004, ev-0009): go test ./..."},
		{"go  test   './...'", 3, Hold, ""}, // the canonical form is the fingerprint
		{"go test ./...", 4, Hold, "failed 3 times in a row (ev-0002, ev-0004, ev-0009): go test ./..."},
		{"go test ./...", 5, Allow, ""}, // not enough failures yet
		{"go test ./...", 0, Allow, ""}, // off
		{"go test ./pkg", 3, Allow, ""},
		{"echo 'a  b'", 2, Hold, ""},
		{"echo 'a  b'", 1, Hold, ""}, // 1 acts as 2: one failure first
		{"echo 'a b'", 2, Allow, ""}, // quoting is normalised, words are not
		// Already held for another reason: the brake is not even asked.
		{"git push -f", 3, Hold, ""},
	}
	for _, c := range cases {
		d := e.Decide(analyze(c.cmd), loopCtx(h, c.after))
		if d.Verdict != c.verdict {
			t.Errorf("%q after=%d: verdict %s, want %s (hits %v)", c.cmd, c.after, d.Verdict, c.verdict, hitIDs(d))
			continue
		}
		if c.verdict == Hold && c.cmd != "git push -f" && d.Hits[0].Rule.ID != "loop-brake" {
			t.Errorf("%q: first hit %s, want loop-brake", c.cmd, d.Hits[0].Rule.ID)
		}
		if c.span != "" && d.Hits[0].Span != c.span {
			t.Errorf("%q: span %q, want %q", c.cmd, d.Hits[0].Span, c.span)
		}
	}
	h.asked = nil
	d := e.Decide(analyze("git push -f"), loopCtx(h, 3))
	if len(h.asked) != 0 || has(hitIDs(d), "loop-brake") {
		t.Errorf("history asked %v for a command already held", h.asked)
	}
}

func TestLoopBrakeOther(t *testing.T) {
	e := NewEngine(Builtin())
	h := &fakeHistory{fails: map[string][]string{"s1|" + testProject + "|make": {"ev-2", "ev-1"}}}
	// Another session, another directory: separate streaks.
	x := loopCtx(h, 3)
	x.Session = "s2"
	if d := e.Decide(analyze("make"), x); d.Verdict != Allow {
		t.Errorf("other session held")
	}
	x = loopCtx(h, 3)
	x.Cwd = testProject + "/sub"
	if d := e.Decide(analyze("make"), x); d.Verdict != Allow {
		t.Errorf("other directory held")
	}
	// A history that cannot answer lets the command run.
	h.err = errors.New("unreadable")
	h.fails = nil
	if d := e.Decide(analyze("make"), loopCtx(h, 3)); d.Verdict != Allow {
		t.Errorf("history error held the command")
	}
	// Advise mode turns the hold into a warning, as for any rule.
	h = &fakeHistory{fails: map[string][]string{"s1|" + testProject + "|make": {"ev-2", "ev-1"}}}
	e.Mode = Advise
	if d := e.Decide(analyze("make"), loopCtx(h, 3)); d.Verdict != Warn || !has(hitIDs(d), "loop-brake") {
		t.Errorf("advise mode: %s %v", d.Verdict, hitIDs(d))
	}
	// An unparseable line is braked on its raw text too.
	e.Mode = Enforce
	h.fails["s1|"+testProject+"|echo 'oops"] = []string{"ev-4", "ev-3"}
	if d := e.Decide(analyze("echo 'oops"), loopCtx(h, 3)); d.Verdict != Hold || !has(hitIDs(d), "loop-brake") {
		t.Errorf("parse error: %s %v", d.Verdict, hitIDs(d))
	}
	// Without the rule (exempted), nothing is asked.
	var rules []*Rule
	for _, r := range Builtin() {
		if r.ID != "loop-brake" {
			rules = append(rules, r)
		}
	}
	h.asked = nil
	if d := NewEngine(rules).Decide(analyze("make"), loopCtx(h, 3)); d.Verdict != Allow || len(h.asked) > 0 {
		t.Errorf("exempted brake: %s, asked %v", d.Verdict, h.asked)
	}
}

func TestLoopBrakeListed(t *testing.T) {
	r := NewEngine(Builtin()).Rule("loop-brake")
	if r == nil || r.Family != "loop" || r.Severity != Hold {
		t.Fatalf("loop-brake rule: %+v", r)
	}
	if !strings.Contains(r.Message, "change the approach or gather new information") {
		t.Errorf("message %q", r.Message)
	}
	for _, w := range []string{"read the error", "change the code or the command", "diagnostic"} {
		if !strings.Contains(r.Hint, w) {
			t.Errorf("hint %q lacks %q", r.Hint, w)
		}
	}
}

func TestObserves(t *testing.T) {
	looks := []string{
		"cat main.go", "sed -n '1,40p' x.go", "sed -ne 's/a/b/p' -e q x.go", "grep -rn TODO . | head", "ls -la", "git status", "git diff HEAD~1",
		"git log --oneline -5", "git -C sub status", "git branch", "git stash list", "git config --get user.name",
		"go vet ./...", "go env GOPATH", "cat x 2>/dev/null", "find . -name '*.go' | xargs grep -n foo",
		"cd pkg && ls", "echo hi >&2", "rg foo 2>&1 | wc -l", "sleep 2", "head -c 100 /dev/urandom | od -c",
		"tail -n 50 build.log", "which go", "ps aux | grep node", "guard-exec show ev-0004", "guard-exec loops",
	}
	acts := []string{
		"go test ./...", "npm install", "pip install requests", "sudo apt-get install -y jq", "echo x > file",
		"cat a >> b", "sed -i s/a/b/ f", "sed -ni s/a/b/p f", "sed --in-pl=.bak -e s/a/b/ f", "sort -o out in", "find . -delete", "find . -exec rm {} +", "git stash",
		"git commit -m x", "git checkout main", "git branch -D x", "git config user.name x", "make",
		"docker compose up -d", "kill 1234", "export X=1; env X=1 python t.py", "eval \"$CMD\"", "$(which go) build",
		"ssh host cat /etc/hosts", "cat <(curl -s x)", "echo 'oops", "python -c 'print(1)'", "go env -w GOFLAGS=-x",
		"touch x", "mkdir -p d", "sudo cat /etc/shadow", "guard-exec -c 'make'",
	}
	for _, c := range looks {
		if !Observes(analyze(c)) {
			t.Errorf("Observes(%q) = false, want true", c)
		}
	}
	for _, c := range acts {
		if Observes(analyze(c)) {
			t.Errorf("Observes(%q) = true, want false", c)
		}
	}
	if !reflect.DeepEqual(Observes(nil), false) {
		t.Error("nil analysis")
	}
}
