package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// The hot path pays for loading on every command: three failed opens when
// there is no file, one decode per file that exists.

func benchSources(b *testing.B, user string) []ConfigSource {
	dir := b.TempDir()
	srcs := []ConfigSource{
		{Layer: LayerSystem, Path: filepath.Join(dir, "etc.toml"), Name: "etc"},
		{Layer: LayerUser, Path: filepath.Join(dir, "user.toml"), Name: "user"},
		{Layer: LayerProject, Path: filepath.Join(dir, "project.toml"), Name: "project"},
	}
	if user != "" {
		if err := os.WriteFile(srcs[1].Path, []byte(user), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return srcs
}

func BenchmarkLoadConfigNoFiles(b *testing.B) {
	srcs := benchSources(b, "")
	b.ReportAllocs()
	for b.Loop() {
		LoadConfig(LoadOptions{Sources: srcs})
	}
}

const benchSettings = `mode = "enforce"
exempt = ["privilege-escalation"]
[severity]
git-force-push = "deny"
[boundary]
allow_roots = ["/opt/work"]
[loop]
block_after = 4
[exec]
timeout = "10m"
`

func BenchmarkLoadConfigSettings(b *testing.B) {
	srcs := benchSources(b, benchSettings)
	b.ReportAllocs()
	for b.Loop() {
		LoadConfig(LoadOptions{Sources: srcs})
	}
}

const benchRules = benchSettings + `
[[rule]]
id = "no-prod-psql"
command = "psql"
pattern = '(?i)\bprod\b'
examples = ["psql -h prod.db -c 'select 1'", "sudo psql prod"]
not_examples = ["psql -h staging.db"]

[[rule]]
id = "no-terraform-destroy"
command = "terraform"
pattern = '\bdestroy\b'
examples = ["terraform destroy -auto-approve"]
not_examples = ["terraform plan"]

[[rule]]
id = "prod-cluster"
pattern = '\bprod-cluster\b'
examples = ["kubectl --context prod-cluster get pods"]
not_examples = ["echo prod-cluster"]
`

// Three rules, seven examples, checked on every load.
func BenchmarkLoadConfigRulesUncached(b *testing.B) {
	srcs := benchSources(b, benchRules)
	b.ReportAllocs()
	for b.Loop() {
		LoadConfig(LoadOptions{Sources: srcs})
	}
}

// The same rules with the example cache warm: what every command pays.
func BenchmarkLoadConfigRulesCached(b *testing.B) {
	srcs := benchSources(b, benchRules)
	path := filepath.Join(b.TempDir(), "checked-rules")
	LoadConfig(LoadOptions{Sources: srcs, Checked: &FileExampleCache{Path: path}})
	b.ReportAllocs()
	for b.Loop() {
		LoadConfig(LoadOptions{Sources: srcs, Checked: &FileExampleCache{Path: path}})
	}
}

// The file `guard-exec config init` writes, with one setting changed:
// mostly comments, which the loader blanks before decoding.
func BenchmarkLoadConfigTemplate(b *testing.B) {
	srcs := benchSources(b, ConfigTemplate+"\nmode = \"advise\"\n")
	b.ReportAllocs()
	for b.Loop() {
		LoadConfig(LoadOptions{Sources: srcs})
	}
}
