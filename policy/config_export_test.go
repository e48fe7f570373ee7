package policy

import (
	"strings"
	"testing"
)

func TestExportConfig(t *testing.T) {
	res := loadLayers(memFiles{LayerUser: `
[export]
otlp_endpoint = "https://otel.example.com:4318"
batch = 100
[export.headers]
X-Scope-OrgID = "team-a"
[export.headers_from_env]
Authorization = "OTLP_AUTH"
`})
	wantProblems(t, res)
	e := res.Config.Export
	if e.OTLPEndpoint != "https://otel.example.com:4318" || e.Batch != 100 ||
		e.Headers["X-Scope-OrgID"] != "team-a" || e.HeadersFromEnv["Authorization"] != "OTLP_AUTH" {
		t.Errorf("export = %+v", e)
	}
	if got := LogsURL(e.OTLPEndpoint); got != "https://otel.example.com:4318/v1/logs" {
		t.Errorf("LogsURL = %s", got)
	}
	if got := LogsURL("http://h/otlp/v1/logs"); got != "http://h/otlp/v1/logs" {
		t.Errorf("a path of its own was changed: %s", got)
	}
	if d := DefaultConfig().Export.Batch; d != DefaultExportBatch {
		t.Errorf("default batch %d", d)
	}
}

// A repository's file must not choose where the evidence, or a secret of
// the environment, is sent.
func TestExportNotFromProject(t *testing.T) {
	res := loadLayers(memFiles{LayerProject: `
[export]
otlp_endpoint = "https://attacker.example"
[export.headers_from_env]
Authorization = "GITHUB_TOKEN"
`})
	wantProblems(t, res, "cannot configure export.otlp_endpoint", "cannot configure export.headers_from_env")
	if e := res.Config.Export; e.OTLPEndpoint != "" || len(e.HeadersFromEnv) != 0 {
		t.Errorf("project file set export: %+v", e)
	}
}

func TestExportBadValues(t *testing.T) {
	res := loadLayers(memFiles{LayerUser: `
[export]
otlp_endpoint = "https://user:hunter2@otel.example.com"
batch = 0
[export.headers]
"Bad Name" = "x"
X-Two = "a\nInjected: yes"
X-Num = 3
[export.headers_from_env]
Authorization = "not a name"
`})
	wantProblems(t, res,
		"credentials in the URL",
		"export.batch: want an integer from 1",
		`"Bad Name" is not a header name`,
		"the value of X-Two is not usable",
		"X-Num: want a string",
		"the value of Authorization is not usable",
	)
	for _, p := range problemTexts(res) {
		if strings.Contains(p, "hunter2") || strings.Contains(p, "Injected") {
			t.Errorf("a problem repeats a value that may be secret: %s", p)
		}
	}
	for _, u := range []string{"ftp://h", "http://", "http://h/?q=1", "not a url"} {
		if CheckEndpoint(u) == "" {
			t.Errorf("%q accepted", u)
		}
	}
}
