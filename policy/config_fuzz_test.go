package policy

import (
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// FuzzConfig feeds arbitrary bytes to the loader as a user file and as a
// project file. It must never panic, and the result must never protect
// less than the defaults except where the user layer validly said so:
//   - as the user file, the mode is enforce unless the bytes set a valid
//     mode;
//   - as the project file, nothing is weaker than the defaults: mode,
//     exemptions, allow roots, every built-in rule's severity, the loop
//     brake, scrubbing, the ledger's bounds.
func FuzzConfig(f *testing.F) {
	for _, seed := range []string{
		ConfigTemplate,
		"mode = \"audit\"\n",
		"mode = 'advise'\nexempt = [\"git-force-push\"]\n",
		"[severity]\ngit-force-push = \"warn\"\nrm-recursive-dangerous = \"deny\"\n",
		"[[rule]]\nid = \"x\"\ncommand = \"psql\"\npattern = 'prod'\nexamples = [\"psql prod\"]\n",
		"[boundary]\nallow_roots = [\"/\"]\n[loop]\nblock_after = 0\n",
		"[env]\nstrip_credentials = false\n[ledger]\nmax_bytes = 1\nkeep = 0\n[exec]\ntimeout = \"-1s\"\n",
		"severity = { git-force-push = \"allow\" }\nloop.block_after = 99\n",
		"[[rule]]\nid = \"y\"\npattern = '('\n",
		"not toml at all",
		"\x00\xff[",
	} {
		f.Add([]byte(seed))
	}
	def := DefaultConfig()
	builtin := NewEngine(Builtin())
	f.Fuzz(func(t *testing.T, data []byte) {
		user := LoadConfig(LoadOptions{Sources: testSources, Home: "/home/user",
			Read: memFiles{LayerUser: string(data)}.read}).Config
		if user.Mode != Enforce && !setsMode(data, user.Mode) {
			t.Fatalf("mode %s without a valid mode key in %q", user.Mode, data)
		}

		c := LoadConfig(LoadOptions{Sources: testSources, Home: "/home/user",
			Read: memFiles{LayerProject: string(data)}.read}).Config
		if c.Mode != Enforce || len(c.Exempt) != 0 || len(c.Boundary.AllowRoots) != 0 {
			t.Fatalf("project file weakened mode/exempt/roots: %s %v %v", c.Mode, c.Exempt, c.Boundary.AllowRoots)
		}
		if c.Loop.BlockAfter == 0 || c.Loop.BlockAfter > def.Loop.BlockAfter {
			t.Fatalf("project file weakened the loop brake: %d", c.Loop.BlockAfter)
		}
		if c.Ledger.MaxBytes < def.Ledger.MaxBytes || c.Ledger.Keep < def.Ledger.Keep {
			t.Fatalf("project file shrank the ledger: %+v", c.Ledger)
		}
		e := NewEngineFromConfig(c)
		for _, r := range builtin.Rules() {
			if e.Rule(r.ID) == nil {
				t.Fatalf("project file removed %s", r.ID)
			}
			if e.SeverityOf(r) < r.Severity {
				t.Fatalf("project file lowered %s to %s", r.ID, e.SeverityOf(r))
			}
		}
	})
}

// setsMode reports whether data is TOML whose top-level mode is m's name.
func setsMode(data []byte, m Mode) bool {
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return false
	}
	s, ok := doc["mode"].(string)
	return ok && strings.EqualFold(s, m.String()) && s == m.String()
}
