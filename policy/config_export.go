package policy

import (
	"net/url"
	"sort"
	"strings"
)

// ExportConfig says where guard-exec ship sends the ledger.
type ExportConfig struct {
	// OTLPEndpoint is the collector's OTLP/HTTP address. A URL without a
	// path gets /v1/logs (as OTEL_EXPORTER_OTLP_ENDPOINT does); one with a
	// path is used as it is.
	OTLPEndpoint string
	// Headers are sent with every request, values as written: for what is
	// not secret (a tenant, an org id).
	Headers map[string]string
	// HeadersFromEnv maps a header to the name of the environment variable
	// holding its value: how secrets (an Authorization token) reach the
	// request without being written in a file, the ledger or any output.
	HeadersFromEnv map[string]string
	// Batch is the most records one request carries.
	Batch int
}

// Export bounds.
const (
	DefaultExportBatch = 512
	maxExportBatch     = 10_000
	maxHeaders         = 64
)

// exportKey applies one key of [export]; false when key is not one.
//
// None of them may come from a project file: a repository that could name
// the endpoint would receive its clones' ledgers, and one that could name
// headers_from_env would have CI send it any secret in the environment.
func (l *layer) exportKey(key string, path []string, v any) bool {
	switch key {
	case "export.otlp_endpoint", "export.headers", "export.headers_from_env", "export.batch":
	default:
		return false
	}
	if l.project() {
		l.warn(path, "the project file cannot configure %s (it would choose where evidence and secrets go); ignored", key)
		return true
	}
	switch key {
	case "export.otlp_endpoint":
		l.exportEndpoint(path, v)
	case "export.headers":
		l.exportHeaders(path, key, v, &l.cfg.Export.Headers, validHeaderValue)
	case "export.headers_from_env":
		l.exportHeaders(path, key, v, &l.cfg.Export.HeadersFromEnv, validEnvName)
	case "export.batch":
		l.exportBatch(path, v)
	}
	return true
}

func (l *layer) exportEndpoint(path []string, v any) {
	const key = "export.otlp_endpoint"
	s, ok := v.(string)
	if !ok {
		l.warn(path, "%s: want a URL such as \"http://127.0.0.1:4318\", got %s; ignored", key, typeName(v))
		return
	}
	if err := CheckEndpoint(s); err != "" {
		// Not quoted: the text may hold a password the check refused.
		l.warn(path, "%s: %s; ignored", key, err)
		return
	}
	l.cfg.Export.OTLPEndpoint = s
	l.set(key, path...)
}

// CheckEndpoint says what is wrong with an OTLP/HTTP endpoint, or "". Its
// message never repeats the URL, which may carry a password.
func CheckEndpoint(s string) string {
	u, err := url.Parse(s)
	switch {
	case err != nil || len(s) > maxText:
		return "not a URL"
	case u.Scheme != "http" && u.Scheme != "https":
		return "want an http:// or https:// URL"
	case u.Host == "":
		return "the URL names no host"
	case u.User != nil:
		return "credentials in the URL would be stored in plain text: put them in a header named in [export] headers_from_env"
	case u.RawQuery != "" || u.Fragment != "":
		return "the URL may not have a query or fragment"
	}
	return ""
}

// LogsURL is the URL records are posted to: endpoint with /v1/logs when it
// has no path of its own.
func LogsURL(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return endpoint
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/v1/logs"
	}
	return u.String()
}

func (l *layer) exportHeaders(path []string, key string, v any, dst *map[string]string, valid func(string) bool) {
	t, ok := v.(map[string]any)
	if !ok {
		l.warn(path, "%s: want a table of header = \"value\", got %s; ignored", key, typeName(v))
		return
	}
	if len(t) > maxHeaders {
		l.warn(path, "%s: more than %d headers; ignored", key, maxHeaders)
		return
	}
	names := make([]string, 0, len(t))
	for k := range t {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		s, ok := t[name].(string)
		hp := append(append([]string(nil), path...), name)
		switch {
		case !validHeaderName(name):
			l.warn(hp, "%s: %s is not a header name; ignored", key, quote(name))
			continue
		case !ok:
			l.warn(hp, "%s: %s: want a string, got %s; ignored", key, name, typeName(t[name]))
			continue
		case !valid(s):
			// The value is not repeated: it may be a secret written in
			// the wrong table.
			l.warn(hp, "%s: the value of %s is not usable here; ignored", key, name)
			continue
		}
		if *dst == nil {
			*dst = map[string]string{}
		}
		(*dst)[name] = s
		l.set(key+"."+strings.ToLower(name), hp...)
	}
}

func (l *layer) exportBatch(path []string, v any) {
	const key = "export.batch"
	n, ok := v.(int64)
	if !ok || n < 1 || n > maxExportBatch {
		l.warn(path, "%s: want an integer from 1 to %d; ignored", key, maxExportBatch)
		return
	}
	l.cfg.Export.Batch = int(n)
	l.set(key, path...)
}

// validHeaderName: an HTTP token (RFC 9110).
func validHeaderName(s string) bool {
	if s == "" || len(s) > 256 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// ValidHeaderValue reports whether s can be sent as a header value: no
// control characters (a newline would start a header of its own).
func ValidHeaderValue(s string) bool { return validHeaderValue(s) }

func validHeaderValue(s string) bool {
	if len(s) > 8192 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

func validEnvName(s string) bool {
	if s == "" || len(s) > 256 || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
