package sandbox

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Seatbelt is macOS's kernel sandbox, the counterpart of Landlock: a
// profile in its Scheme-like language (SBPL) handed to sandbox-exec, which
// applies it to itself and execs the command, so the command and all it
// starts are bounded and guard-exec is not. The profile is generated here
// as text, on every system, so it is tested as text (golden files) where
// it cannot be run.
//
// What the profile says, in the order SBPL needs (a later rule overrides
// an earlier one that matches the same operation):
//
//   - everything allowed (reads, execs, processes), then every write
//     denied, then writes allowed inside the write roots and to the
//     devices every command may write (the sink, the terminal);
//   - writes denied again to the protected paths, as subpaths, so a path
//     that does not exist yet cannot be created either (Landlock needs a
//     bind or the journal for that), and to each directory between a
//     root and a protected path, so it cannot be renamed or removed to
//     trade the protected directory for another (the pins of mountns.go);
//   - reads denied of the credential stores under the home directory
//     (SPEC §4.6: reads anywhere but the credential stores), with the two
//     files ssh needs to reach a host through an agent let through;
//   - strict: all network denied, IP and unix sockets alike.
//
// Paths are matched as the kernel resolves them (/tmp is /private/tmp):
// SeatbeltSpec adds the resolved form of every path to the written one.

// credentialStores are, relative to the home directory, where tools keep
// keys and tokens a command has no business reading.
var credentialStores = []string{
	".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".kube", ".docker/config.json",
	".netrc", ".git-credentials", ".config/gh", ".npmrc", ".pypirc", ".gem/credentials",
	".cargo/credentials", ".cargo/credentials.toml", ".vault-token", ".password-store",
	".terraform.d/credentials.tfrc.json", "Library/Keychains",
}

// sshReadable are those files under ~/.ssh that hold no secret and that
// ssh reads on every connection (through an agent, keys are not needed).
var sshReadable = []string{".ssh/known_hosts", ".ssh/config"}

// seatbeltDevices are what every command may write outside the roots, as
// on Linux (see devices).
var seatbeltDevices = []string{"/dev/null", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx", "/dev/dtracehelper"}

// SeatbeltProfile is the sandbox-exec profile of s for a user whose home
// directory is home ("" or relative: no credential stores are denied).
// Paths are used as s gives them (see SeatbeltSpec for resolving them).
// A path SBPL cannot quote (a control character) is an error: the
// command must not start under a profile that does not say what was meant.
func SeatbeltProfile(s *Spec, home string) (string, error) {
	if s.Mode == Off {
		return "", fmt.Errorf("sandbox: no profile for mode off")
	}
	var b strings.Builder
	var bad error
	q := func(p string) string {
		out, err := sbplString(p)
		if err != nil && bad == nil {
			bad = err
		}
		return out
	}
	fmt.Fprintf(&b, "(version 1)\n; guard-exec [sandbox] mode = %q\n(allow default)\n", s.Mode)

	b.WriteString("\n; writes only inside the write roots and to the devices\n(deny file-write*)\n(allow file-write*")
	roots := cleanAll(s.WriteRoots)
	for _, r := range roots {
		fmt.Fprintf(&b, "\n    (subpath %s)", q(r))
	}
	for _, d := range seatbeltDevices {
		fmt.Fprintf(&b, "\n    (literal %s)", q(d))
	}
	b.WriteString("\n    (regex #\"^/dev/ttys[0-9]+$\")\n    (subpath \"/dev/fd\"))\n")

	if prot := cleanAll(s.Protected); len(prot) > 0 {
		b.WriteString("\n; protected even inside the roots; the directories leading to them cannot be renamed or removed\n(deny file-write*")
		for _, p := range prot {
			fmt.Fprintf(&b, "\n    (subpath %s)", q(p))
		}
		for _, d := range pinsFor(prot, roots) {
			fmt.Fprintf(&b, "\n    (literal %s)", q(d))
		}
		b.WriteString(")\n")
	}

	if filepath.IsAbs(home) && filepath.Clean(home) != "/" {
		home = filepath.Clean(home)
		b.WriteString("\n; credential stores unreadable\n(deny file-read*")
		for _, c := range credentialStores {
			fmt.Fprintf(&b, "\n    (subpath %s)", q(filepath.Join(home, c)))
		}
		b.WriteString(")\n(allow file-read*")
		for _, c := range sshReadable {
			fmt.Fprintf(&b, "\n    (literal %s)", q(filepath.Join(home, c)))
		}
		b.WriteString(")\n")
	}

	if s.Mode == Strict {
		b.WriteString("\n; strict: no network\n(deny network*)\n")
	}
	if bad != nil {
		return "", bad
	}
	return b.String(), nil
}

// sbplString quotes p as an SBPL string literal.
func sbplString(p string) (string, error) {
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return "", fmt.Errorf("sandbox: cannot write %q into a Seatbelt profile (control character)", p)
		}
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(p) + `"`, nil
}

// pinsFor are the directories strictly between a protected path and the
// innermost write root holding it, in order, each once.
func pinsFor(prot, roots []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range prot {
		root := rootOf(p, roots)
		if root == "" || root == p {
			continue
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			continue
		}
		parts := strings.Split(rel, string(filepath.Separator))
		dir := root
		for _, part := range parts[:len(parts)-1] {
			dir = filepath.Join(dir, part)
			if !seen[dir] {
				seen[dir] = true
				out = append(out, dir)
			}
		}
	}
	return out
}

func cleanAll(list []string) []string {
	out := make([]string, 0, len(list))
	seen := map[string]bool{}
	for _, p := range list {
		if p == "" {
			continue
		}
		p = filepath.Clean(p)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// SeatbeltSpec is s with the resolved form of every write root and
// protected path added to the written one, since Seatbelt matches the
// path the kernel resolved. A path that does not exist is resolved
// through its nearest existing parent, so a protected file not made yet
// is still covered where it would appear.
func SeatbeltSpec(s *Spec) *Spec {
	c := *s
	c.WriteRoots = withResolved(s.WriteRoots)
	c.Protected = withResolved(s.Protected)
	c.real, c.cleaned = nil, false
	return &c
}

func withResolved(list []string) []string {
	out := append([]string(nil), list...)
	for _, p := range list {
		if r := resolveExisting(filepath.Clean(p)); r != filepath.Clean(p) {
			out = append(out, r)
		}
	}
	return out
}

// resolveExisting resolves the symlinks of p's longest existing prefix and
// appends the rest as written.
func resolveExisting(p string) string {
	rest := ""
	for dir := p; ; {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return p
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}
