package policy

import (
	"testing"
)

func TestCommandText(t *testing.T) {
	for _, tc := range []struct{ script, want string }{
		{"psql -h prod.db -c 'select 1'", "psql -h prod.db -c 'select 1'"},
		{`sudo /usr/bin/psql "-h"  prod`, "psql -h prod"},
		{"echo 'DROP TABLE x'", "echo"},
		{"printf '%s\\n' prod", "printf"},
		{`git commit -m "fix prod"`, "git commit -m"},
		{`git commit -am "fix prod" --no-edit`, "git commit -am --no-edit"},
		{`git commit -amfix`, "git commit -am"},
		{`git commit --message="fix prod" -F notes.txt`, "git commit --message= -F notes.txt"},
		{`git -C repo tag -m "v1 prod" v1`, "git -C repo tag -m v1"},
		{`git branch -m old prod`, "git branch -m old prod"},
		{`git push origin prod`, "git push origin prod"},
		{`grep -r "DROP TABLE" src`, "grep -r src"},
		{`grep -A 3 prod file`, "grep -A 3 file"},
		{`grep -e prod -e staging file`, "grep -e -e file"},
		{`grep -iefoo file`, "grep -ie file"},
		{`grep -f pats.txt file`, "grep -f pats.txt file"},
		{`rg -g '*.sql' prod .`, "rg -g '*.sql' ."},
		{`deploy "$TARGET" --to=prod`, "deploy '' --to=prod"},
		{`deploy "x$(date)" "it's"`, "deploy x… 'it'\\''s'"},
	} {
		a := analyze(tc.script)
		if a.Err != nil || len(a.Commands) == 0 {
			t.Errorf("%q: %v", tc.script, a.Err)
			continue
		}
		if got := CommandText(a.Commands[0]); got != tc.want {
			t.Errorf("%q: text %q, want %q", tc.script, got, tc.want)
		}
	}
}

func userRuleEngine(t *testing.T, file string) *Engine {
	t.Helper()
	res := LoadConfig(LoadOptions{Sources: testSources, Read: memFiles{LayerUser: file}.read})
	if len(res.Problems) > 0 {
		t.Fatalf("problems: %v", problemTexts(res))
	}
	return NewEngineFromConfig(res.Config)
}

func TestUserRules(t *testing.T) {
	e := userRuleEngine(t, `
[[rule]]
id = "no-prod-psql"
command = ["psql", "pgcli"]
pattern = '(?i)\bprod\b'
severity = "deny"
message = "touches the production database"

[[rule]]
id = "no-terraform"
command = "terraform"
severity = "warn"

[[rule]]
id = "prod-anywhere"
pattern = '\bprod-cluster\b'
`)
	for _, tc := range []struct {
		script string
		want   string // rule id, or "" for none of the user rules
	}{
		{"psql -h PROD.db -c 'select 1'", "no-prod-psql"},
		{"sudo -u pg pgcli prod", "no-prod-psql"},
		{"psql -h staging", ""},
		{"psql -h staging <<'EOF'\nselect * from prod.users;\nEOF", "no-prod-psql"},
		{"echo 'psql -h prod'", ""},
		{"bash -c 'psql -h prod'", "no-prod-psql"},
		{"cat > notes.md <<'EOF'\npsql -h prod\nprod-cluster\nEOF", ""},
		{"terraform plan", "no-terraform"},
		{"kubectl --context prod-cluster get pods", "prod-anywhere"},
		{`git commit -m "prod-cluster is down"`, ""},
		{`grep -rn prod-cluster .`, ""},
		{`eval "kubectl --context prod-cluster delete pod x"`, "prod-anywhere"},
	} {
		d := e.Decide(analyze(tc.script), testCtx())
		got := ""
		for _, h := range d.Hits {
			if h.Rule.Family == familyUser {
				got = h.Rule.ID
				break
			}
		}
		if got != tc.want {
			t.Errorf("%q: user rule %q, want %q (hits %v)", tc.script, got, tc.want, hitIDs(d))
		}
	}
	d := e.Decide(analyze("psql -h prod"), testCtx())
	if d.Verdict != Deny || d.Hits[0].Rule.Message != "touches the production database" {
		t.Errorf("verdict %s, hit %+v", d.Verdict, d.Hits[0])
	}
	// An unparsable script is scanned with user patterns too, and held.
	d = e.Decide(analyze("psql -h prod -c 'unclosed"), testCtx())
	if d.Verdict < Hold || !has(hitIDs(d), "no-prod-psql") {
		t.Errorf("unparsable: verdict %s hits %v", d.Verdict, hitIDs(d))
	}
}

func TestEngineFromConfig(t *testing.T) {
	e := userRuleEngine(t, `
mode = "advise"
exempt = ["privilege-escalation"]
[severity]
git-force-push = "deny"
`)
	if e.Mode != Advise {
		t.Errorf("mode %s", e.Mode)
	}
	if e.Rule("privilege-escalation") != nil {
		t.Errorf("the exempt rule is still in the engine")
	}
	d := e.Decide(analyze("sudo true"), testCtx())
	if len(d.Hits) != 0 {
		t.Errorf("exempt rule hit: %v", hitIDs(d))
	}
	d = e.Decide(analyze("git push --force origin main"), testCtx())
	if d.Severity != Deny || d.Verdict != Warn {
		t.Errorf("severity %s verdict %s, want deny made a warning by advise", d.Severity, d.Verdict)
	}
	// Defaults: the same engine as the built-ins.
	def := NewEngineFromConfig(nil)
	if len(def.Rules()) != len(Builtin()) || def.Mode != Enforce {
		t.Errorf("default engine: %d rules, mode %s", len(def.Rules()), def.Mode)
	}
}
