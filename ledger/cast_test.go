package ledger

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestWriteCast(t *testing.T) {
	secret := "t0ps3cr3t-" + "literal"
	l := newLedger(t, Options{Secrets: []string{secret}})
	id := pair(t, l, "cat id_ed25519", 0)
	cast := strings.Join([]string{
		`{"version":2,"width":80,"height":24,"title":"mysql -p` + "hunter2hunter" + ` db","env":{"SHELL":"guard-exec"}}`,
		`[0.01,"o","$ cat id_ed25519\r\n-----BEGIN OPENSSH PRIVATE KEY-----\r\nb3BlbnNzaC1rZXktdjEAAAAA"]`,
		`[0.02,"o","QyNTUxOQAAACBrZXlib2R5a2V5Ym9keWtleWJvZHkga2V5\r\n"]`,
		`[0.03,"o","-----END OPENSSH PRIVATE KEY-----\r\n$ "]`,
		`[0.50,"i","echo ` + secret + `\r"]`,
		`[0.51,"o","\u001b[32mok\u001b[0m \"quoted\"\r\n"]`,
		`not an event: ` + secret,
		``,
	}, "\n")
	rel, err := l.WriteCast(id, []byte(cast))
	if err != nil {
		t.Fatal(err)
	}
	if rel != "casts/"+id+".cast" {
		t.Errorf("path %q", rel)
	}
	fi, err := os.Stat(l.path(rel))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("cast mode %v, %v", fi.Mode().Perm(), err)
	}
	got := readFile(t, l.path(rel))
	for _, leak := range []string{"hunter2hunter", "b3BlbnNzaC1rZXktdjEAAAAA", "QyNTUxOQAAACBrZXlib2R5", secret} {
		if strings.Contains(got, leak) {
			t.Errorf("cast holds %q:\n%s", leak, got)
		}
	}
	// Every line but the last stays valid JSON a player can read.
	sc := bufio.NewScanner(strings.NewReader(got))
	for n := 1; sc.Scan(); n++ {
		if n < 7 && !json.Valid(sc.Bytes()) {
			t.Errorf("line %d is no longer JSON: %s", n, sc.Text())
		}
	}
	if !strings.Contains(got, `[0.51,"o","\u001b[32mok\u001b[0m \"quoted\"\r\n"]`) {
		t.Errorf("an event with nothing to redact was changed:\n%s", got)
	}

	if _, err := l.WriteCast(id, []byte(cast)); err == nil {
		t.Error("a second transcript for one id overwrote the first")
	}
	for _, bad := range []string{"../../x", "ev-1/../../x", ""} {
		if _, err := l.WriteCast(bad, nil); err == nil {
			t.Errorf("WriteCast(%q) accepted", bad)
		}
	}
}
