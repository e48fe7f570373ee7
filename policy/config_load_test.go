package policy

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The layers of the tests, by layer.
var testSources = []ConfigSource{
	{Layer: LayerSystem, Path: "/etc/guard-exec/config.toml", Name: "/etc/guard-exec/config.toml"},
	{Layer: LayerUser, Path: "/home/user/.config/guard-exec/config.toml", Name: "~/.config/guard-exec/config.toml"},
	{Layer: LayerProject, Path: "/home/user/project/.guard-exec.toml", Name: ".guard-exec.toml"},
}

// memFiles serves layer files from memory; an error value is returned as
// the read error.
type memFiles map[Layer]any

func (m memFiles) read(src ConfigSource) ([]byte, error) {
	switch v := m[src.Layer].(type) {
	case nil:
		return nil, fs.ErrNotExist
	case error:
		return nil, v
	case string:
		return []byte(v), nil
	}
	panic("bad test file")
}

func loadLayers(files memFiles) *LoadResult {
	return LoadConfig(LoadOptions{Sources: testSources, Home: "/home/user", Read: files.read})
}

func problemTexts(res *LoadResult) []string {
	var out []string
	for _, p := range res.Problems {
		out = append(out, p.String())
	}
	return out
}

// wantProblems checks that each wanted text appears in a problem, in order,
// and that there are no others.
func wantProblems(t *testing.T, res *LoadResult, want ...string) {
	t.Helper()
	got := problemTexts(res)
	if len(got) != len(want) {
		t.Fatalf("problems:\n\t%s\nwant %d:\n\t%s", strings.Join(got, "\n\t"), len(want), strings.Join(want, "\n\t"))
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("problem %d = %q, want it to contain %q", i, got[i], w)
		}
	}
}

func TestLoadNoFiles(t *testing.T) {
	res := loadLayers(memFiles{})
	wantProblems(t, res)
	def := DefaultConfig()
	c := res.Config
	if c.Mode != def.Mode || len(c.Exempt) != 0 || len(c.Rules) != 0 || c.Loop != def.Loop || c.Ledger != def.Ledger {
		t.Errorf("defaults changed: %+v", c)
	}
	for _, f := range res.Files {
		if f.State != FileAbsent {
			t.Errorf("%s: state %s, want absent", f.Name, f.State)
		}
	}
}

func TestLoadTemplateIsDefaults(t *testing.T) {
	res := loadLayers(memFiles{LayerUser: ConfigTemplate})
	wantProblems(t, res)

	if len(res.Config.origin) != 0 {
		t.Errorf("the template sets %v; it should only document", res.Config.origin)
	}
	// A key added at the end of the file is a top-level key: the
	// template leaves no table open.
	res = loadLayers(memFiles{LayerUser: ConfigTemplate + "mode = \"advise\"\n"})
	wantProblems(t, res)
	if res.Config.Mode != Advise {
		t.Errorf("mode appended to the template: %s", res.Config.Mode)
	}
	// Every key the loader knows is documented in the template.
	for _, key := range []string{"mode", "exempt", "[severity]", "[[rule]]", "id", "command", "pattern",
		"severity", "message", "hint", "examples", "not_examples", "allow_roots", "strip_credentials",
		"block_after", "max_bytes", "keep", "durable", "timeout"} {
		if !strings.Contains(ConfigTemplate, key) {
			t.Errorf("the template does not document %s", key)
		}
	}
	// Uncommented, the template's examples are valid settings.
	var b strings.Builder
	for _, line := range strings.Split(ConfigTemplate, "\n") {
		if strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "# ") && line != "#" {
			line = line[1:]
		}
		b.WriteString(line + "\n")
	}
	res = loadLayers(memFiles{LayerUser: b.String()})
	wantProblems(t, res)
	if len(res.Config.Rules) != 1 || res.Config.Severity["git-force-push"] != Deny {
		t.Errorf("uncommented template: rules %d, severity %v", len(res.Config.Rules), res.Config.Severity)
	}
}

func TestLoadLayers(t *testing.T) {
	res := loadLayers(memFiles{
		LayerSystem: "mode = \"audit\"\n[loop]\nblock_after = 5\n",
		LayerUser:   "# mine\nmode = \"advise\"\n",
	})
	wantProblems(t, res)
	c := res.Config
	if c.Mode != Advise {
		t.Errorf("mode %s, want advise (the user layer wins over the system one)", c.Mode)
	}
	if c.Loop.BlockAfter != 5 {
		t.Errorf("block_after %d, want 5 from the system layer", c.Loop.BlockAfter)
	}
	if o := c.OriginOf("mode").String(); o != "~/.config/guard-exec/config.toml:2" {
		t.Errorf("mode origin %q", o)
	}
	if o := c.OriginOf("loop.block_after").String(); o != "/etc/guard-exec/config.toml:3" {
		t.Errorf("block_after origin %q", o)
	}
	if o := c.OriginOf("ledger.keep").String(); o != "default" {
		t.Errorf("ledger.keep origin %q", o)
	}
}

// TestProjectOnlyTightens is the floor: a checked-out repository cannot
// ship itself weaker protection, and says so when it tries.
func TestProjectOnlyTightens(t *testing.T) {
	project := `mode = "audit"
exempt = ["git-force-push"]
[severity]
git-force-push = "warn"
rm-recursive-dangerous = "deny"
[boundary]
allow_roots = ["/"]
[env]
strip_credentials = false
[loop]
block_after = 10
[ledger]
max_bytes = 65536
keep = 1
durable = false
[exec]
timeout = "1h"
`
	user := `[env]
strip_credentials = true
[ledger]
durable = true
[exec]
timeout = "10m"
`
	res := loadLayers(memFiles{LayerUser: user, LayerProject: project})
	wantProblems(t, res,
		".guard-exec.toml:1: the project file cannot set mode; ignored",
		".guard-exec.toml:2: the project file cannot exempt rules; ignored",
		".guard-exec.toml:4: severity.git-force-push: the project file can only raise a severity (hold to warn refused); ignored",
		".guard-exec.toml:7: the project file cannot add allow roots; ignored",
		".guard-exec.toml:9: env.strip_credentials: the project file cannot turn scrubbing off; ignored",
		".guard-exec.toml:11: loop.block_after: the project file can only lower it (3 to 10 refused); ignored",
		".guard-exec.toml:13: ledger.max_bytes: the project file can only keep more evidence",
		".guard-exec.toml:14: ledger.keep: the project file can only keep more evidence",
		".guard-exec.toml:15: ledger.durable: the project file cannot turn durable writes off; ignored",
		".guard-exec.toml:17: exec.timeout: the project file can only shorten it (10m0s to 1h0m0s refused); ignored",
	)
	c := res.Config
	if c.Mode != Enforce || len(c.Exempt) != 0 || len(c.Boundary.AllowRoots) != 0 {
		t.Errorf("weakened: mode %s exempt %v roots %v", c.Mode, c.Exempt, c.Boundary.AllowRoots)
	}
	if _, ok := c.Severity["git-force-push"]; ok {
		t.Errorf("git-force-push lowered to %s", c.Severity["git-force-push"])
	}
	if c.Severity["rm-recursive-dangerous"] != Deny {
		t.Errorf("raising a severity was refused")
	}
	if !c.Env.StripCredentials || c.Loop.BlockAfter != 3 || !c.Ledger.Durable || c.Exec.Timeout != 10*time.Minute {
		t.Errorf("weakened: %+v %+v %+v %+v", c.Env, c.Loop, c.Ledger, c.Exec)
	}
}

func TestProjectTightening(t *testing.T) {
	res := loadLayers(memFiles{LayerProject: `
[loop]
block_after = 2
[env]
strip_credentials = true
[ledger]
max_bytes = 8388608
durable = true
[exec]
timeout = "30m"
[severity]
privilege-escalation = "hold"
[[rule]]
id = "no-deploy"
command = "deploy"
message = "deploys"
examples = ["deploy prod", "sudo deploy"]
not_examples = ["echo deploy"]
`})
	wantProblems(t, res)
	c := res.Config
	if c.Loop.BlockAfter != 2 || !c.Env.StripCredentials || c.Ledger.MaxBytes != 8<<20 || !c.Ledger.Durable ||
		c.Exec.Timeout != 30*time.Minute || c.Severity["privilege-escalation"] != Hold || len(c.Rules) != 1 {
		t.Errorf("tightening refused: %+v", c)
	}
	if o := c.OriginOf("rule.no-deploy").String(); o != ".guard-exec.toml:13" {
		t.Errorf("rule origin %q", o)
	}
}

func TestLoadBadValues(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       []string
		check      func(*Config) bool
	}{
		{
			name: "unknown keys, the rest applies",
			file: "colour = \"blue\"\n[loop]\nblok_after = 2\nblock_after = 4\n[nonsense]\nx = 1\n[exec]\nmode = \"advise\"\n",
			want: []string{
				`:1: unknown key "colour"; ignored`,
				`:3: unknown key "loop.blok_after"; ignored`,
				`:5: unknown key "nonsense"; ignored`,
				`:8: unknown key "exec.mode" (mode goes before the first [table]); ignored`,
			},
			check: func(c *Config) bool { return c.Loop.BlockAfter == 4 },
		},
		{
			name: "wrong type keeps the default for that key only",
			file: "mode = 3\n[loop]\nblock_after = \"2\"\n[ledger]\nkeep = 5\n",
			want: []string{
				`:1: mode: want a string, got an integer; keeping the default (enforce)`,
				`:3: loop.block_after: want an integer, got a string; keeping the default (3)`,
			},
			check: func(c *Config) bool { return c.Mode == Enforce && c.Loop.BlockAfter == 3 && c.Ledger.Keep == 5 },
		},
		{
			name: "bad values",
			file: "mode = \"off\"\n[severity]\ngit-force-push = \"allow\"\nrm-recursive-dangerous = \"block\"\n[loop]\nblock_after = 1\n[exec]\ntimeout = \"soon\"\n",
			want: []string{
				`:1: mode: "off" is not enforce, advise or audit; keeping the default (enforce)`,
				`:3: severity.git-force-push: a severity cannot be allow (use exempt to silence a rule)`,
				`:4: severity.rm-recursive-dangerous: "block" is not warn, hold or deny`,
				`:6: loop.block_after: 1 is not 0 (off) or between 2 and 1000`,
				`:8: exec.timeout: "soon" is not a duration`,
			},
			check: func(c *Config) bool { return c.Mode == Enforce && len(c.Severity) == 0 && c.Loop.BlockAfter == 3 },
		},
		{
			name: "tables of the wrong shape",
			file: "severity = \"deny\"\nloop = 3\nexempt = \"x\"\n",
			want: []string{
				`:1: severity: want a table`,
				`:2: loop: want a table, got an integer; ignored`,
				`:3: exempt: want an array of rule ids, got a string; ignored`,
			},
		},
		{
			name: "exempt entries",
			file: "exempt = [\"privilege-escalation\", 3, \"Not An Id\", \"no-such-rule\", \"input-too-large\"]\n",
			want: []string{
				`:1: exempt: want rule ids, got an integer; that entry is ignored`,
				`:1: exempt: "Not An Id" is not a rule id; ignored`,
				`:1: exempt: input-too-large cannot be exempted`,
				`:1: exempt: "no-such-rule" names no rule; ignored`,
			},
			check: func(c *Config) bool { return len(c.Exempt) == 1 && c.Exempt[0] == "privilege-escalation" },
		},
		{
			name: "allow roots",
			file: "[boundary]\nallow_roots = [\"~/scratch\", \"relative/dir\", \"/opt/work/../data/\"]\n",
			want: []string{`:2: boundary.allow_roots: "relative/dir" is not an absolute path`},
			check: func(c *Config) bool {
				r := c.Boundary.AllowRoots
				return len(r) == 2 && r[0] == "/home/user/scratch" && r[1] == "/opt/data"
			},
		},
		{
			name: "analysis rules are never lowered",
			file: "[severity]\nparse-error-risky = \"warn\"\nparse-error = \"hold\"\n",
			want: []string{`:2: severity.parse-error-risky: a command the guard could not analyse is never judged below hold; ignored`},
			check: func(c *Config) bool {
				_, lowered := c.Severity["parse-error-risky"]
				return !lowered && c.Severity["parse-error"] == Hold
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := loadLayers(memFiles{LayerUser: tc.file})
			wantProblems(t, res, tc.want...)
			if tc.check != nil && !tc.check(res.Config) {
				t.Errorf("config: %+v", res.Config)
			}
		})
	}
}

func TestLoadBadRules(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       []string
	}{
		{"bad regex", `
[[rule]]
id = "ok-one"
command = "deploy"

[[rule]]
id = "bad-regex"
pattern = '(unclosed'
`, []string{`:8: rule "bad-regex": not a valid RE2 pattern (missing closing ): ` + "`(unclosed`" + `); the rule is not loaded`}},
		{"failing example", `
[[rule]]
id = "no-prod"
command = "psql"
pattern = '\bprod\b'
examples = ["psql -h production"]
`, []string{`:6: rule "no-prod": example "psql -h production" does not match; the rule is not loaded`}},
		{"matching counter-example", `
[[rule]]
id = "no-prod"
pattern = 'prod'
not_examples = ["deploy prod"]
`, []string{`:5: rule "no-prod": not_example "deploy prod" matches; the rule is not loaded`}},
		{"unparsable example", `
[[rule]]
id = "no-prod"
pattern = 'prod'
examples = ["echo 'prod"]
`, []string{`:5: rule "no-prod": example "echo 'prod" cannot be parsed`}},
		{"built-in id", `
[[rule]]
id = "git-force-push"
command = "git"
`, []string{`:3: rule "git-force-push": "git-force-push" is a built-in rule's id; a user rule cannot replace it`}},
		{"no id, no matcher, unknown key", `
[[rule]]
command = "x"
[[rule]]
id = "empty"
[[rule]]
id = "typo"
patern = "x"
command = "x"
`, []string{
			`:2: rule #1: id is required; the rule is not loaded`,
			`:4: rule "empty": a rule needs a command, a pattern or both; the rule is not loaded`,
			`:8: rule "typo": unknown key "patern"; the rule is not loaded`,
		}},
		{"wrong types", `
[[rule]]
id = "types"
command = 3
severity = "allow"
examples = "x"
`, []string{
			`:4: rule "types": command must be a program name or an array of them, got an integer`,
			`:5: rule "types": severity must be "warn", "hold" or "deny"`,
			`:6: rule "types": examples must be an array of command lines, got a string`,
		}},
		{"rule is not a table array", `rule = "x"`, []string{`:1: rule: want [[rule]] tables, got a string; ignored`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := loadLayers(memFiles{LayerUser: tc.file})
			wantProblems(t, res, tc.want...)
			for _, r := range res.Config.Rules {
				if r.ID != "ok-one" {
					t.Errorf("rule %s was loaded", r.ID)
				}
			}
		})
	}
}

func TestRuleIDsAcrossLayers(t *testing.T) {
	rule := "[[rule]]\nid = \"mine\"\ncommand = \"deploy\"\n"
	res := loadLayers(memFiles{
		LayerUser:    "exempt = [\"nope\"]\n" + rule,
		LayerSystem:  "exempt = [\"nope\", \"mine\"]\n",
		LayerProject: rule + "[severity]\nmine = \"deny\"\n",
	})
	wantProblems(t, res,
		`.guard-exec.toml:2: rule "mine": "mine" is already defined at ~/.config/guard-exec/config.toml:2; the rule is not loaded`,
		`/etc/guard-exec/config.toml:1: exempt: "nope" names no rule; ignored`,
	)
	c := res.Config
	if len(c.Rules) != 1 || c.Severity["mine"] != Deny || len(c.Exempt) != 1 {
		t.Errorf("rules %d severity %v exempt %v", len(c.Rules), c.Severity, c.Exempt)
	}
}

func TestLoadBrokenFiles(t *testing.T) {
	user := "mode = \"advise\"\n"
	for _, tc := range []struct {
		name    string
		project any
		want    string
	}{
		{"not TOML", "[loop]\nblock_after = 2\nthis is not toml\n", `.guard-exec.toml:3: not valid TOML (expected '.' or '=', but got 'i' instead); the file is ignored`},
		{"binary garbage", "\x00\x01\x02\xff", `.guard-exec.toml:1: not valid TOML`},
		{"unreadable", &fs.PathError{Op: "open", Path: "x", Err: syscall.EACCES}, `.guard-exec.toml: open x: permission denied; the file is ignored`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := loadLayers(memFiles{LayerUser: user, LayerProject: tc.project})
			wantProblems(t, res, tc.want)
			c := res.Config
			if c.Mode != Advise || c.Loop.BlockAfter != 3 {
				t.Errorf("a broken project file changed the config: %+v", c)
			}
			if st := res.Files[2].State; st != FileSkipped {
				t.Errorf("project file state %s", st)
			}
		})
	}
}

// TestReadConfigFile covers the bounds on real files.
func TestReadConfigFile(t *testing.T) {
	dir := t.TempDir()
	src := func(name string, l Layer) ConfigSource {
		return ConfigSource{Layer: l, Path: filepath.Join(dir, name), Name: name}
	}
	write := func(name, data string, mode os.FileMode) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(filepath.Join(dir, name), mode)
	}
	write("ok.toml", "mode = \"advise\"\n", 0o644)
	write("huge.toml", strings.Repeat("# padding\n", MaxConfigSize/10+1), 0o644)
	write("open.toml", "mode = \"audit\"\n", 0o666)
	os.Mkdir(filepath.Join(dir, "dir.toml"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.toml"), 0o644); err != nil {
		t.Fatal(err)
	}
	write("afile", "", 0o644)

	for _, tc := range []struct {
		src  ConfigSource
		want string // "" for success, "absent", or part of the error
	}{
		{src("ok.toml", LayerUser), ""},
		{src("missing.toml", LayerUser), "absent"},
		{src("afile/config.toml", LayerUser), "absent"},
		{src("huge.toml", LayerUser), "is larger than 1024 KiB"},
		{src("open.toml", LayerUser), "is writable by every user"},
		{src("open.toml", LayerProject), ""},
		{src("dir.toml", LayerUser), "is not a regular file"},
		{src("fifo.toml", LayerProject), "is not a regular file"},
	} {
		_, err := ReadConfigFile(tc.src)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.src.Name, err)
		case tc.want == "absent" && !errors.Is(err, fs.ErrNotExist):
			t.Errorf("%s: %v, want absent", tc.src.Name, err)
		case tc.want != "" && tc.want != "absent" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want %q", tc.src.Name, err, tc.want)
		}
	}
}

func TestConfigSources(t *testing.T) {
	s := ConfigSources("/home/u", "", "/home/u/proj", "/home/u/proj/sub")
	if len(s) != 3 || s[1].Path != "/home/u/.config/guard-exec/config.toml" || s[1].Name != "~/.config/guard-exec/config.toml" ||
		s[2].Path != "/home/u/proj/.guard-exec.toml" || s[2].Name != "../.guard-exec.toml" {
		t.Errorf("%+v", s)
	}
	s = ConfigSources("/home/u", "/xdg", "/p", "/p")
	if s[1].Path != "/xdg/guard-exec/config.toml" || s[2].Name != ".guard-exec.toml" {
		t.Errorf("%+v", s)
	}
	s = ConfigSources("", "relative", "/p", "/elsewhere")
	if len(s) != 2 || s[1].Layer != LayerProject || s[1].Name != "/p/.guard-exec.toml" {
		t.Errorf("%+v", s)
	}
}

func TestExampleCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache", "checked-rules")
	file := "[[rule]]\nid = \"r\"\ncommand = \"deploy\"\nexamples = [\"deploy x\"]\n"
	c1 := &FileExampleCache{Path: path}
	res := LoadConfig(LoadOptions{Sources: testSources, Read: memFiles{LayerUser: file}.read, Checked: c1})
	wantProblems(t, res)
	if b, err := os.ReadFile(path); err != nil || len(b) != 33 {
		t.Fatalf("cache file %q, %v", b, err)
	}
	c2 := &FileExampleCache{Path: path}
	r := res.Config.Rules[0]
	if !c2.Passed(exampleKey(r)) {
		t.Errorf("a fresh cache does not know the rule that passed")
	}
	// A failing rule is never remembered.
	bad := "[[rule]]\nid = \"r\"\ncommand = \"deploy\"\nexamples = [\"other x\"]\n"
	c3 := &FileExampleCache{Path: path}
	res = LoadConfig(LoadOptions{Sources: testSources, Read: memFiles{LayerUser: bad}.read, Checked: c3})
	wantProblems(t, res, `example "other x" does not match`)
	if b, _ := os.ReadFile(path); len(b) != 33 {
		t.Errorf("the failing rule was cached: %q", b)
	}
}

func TestBlankComments(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a = 1\n", "a = 1\n"},
		{"# c\na = 1 # trailing\n  # indented\nb = [\n # in array\n 1]\n#end", "\na = 1 # trailing\n\nb = [\n\n 1]\n"},
		{"s = '''\n# kept\n'''\n# c\n", "s = '''\n# kept\n'''\n# c\n"},
		{`s = """` + "\n# kept\n" + `"""`, `s = """` + "\n# kept\n" + `"""`},
	} {
		if got := string(blankComments([]byte(tc.in))); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}
