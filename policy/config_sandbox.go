package policy

import (
	"fmt"
	"strconv"
	"strings"
)

// SandboxMode is how much the kernel bounds each command (SPEC §4.6).
type SandboxMode uint8

const (
	SandboxOff    SandboxMode = iota // no kernel boundary
	SandboxWrite                     // writes only inside the write roots
	SandboxStrict                    // write, and no network
)

var sandboxModeNames = [...]string{"off", "write", "strict"}

func (m SandboxMode) String() string {
	if int(m) < len(sandboxModeNames) {
		return sandboxModeNames[m]
	}
	return fmt.Sprintf("sandbox(%d)", m)
}

// ParseSandboxMode reads off, write or strict.
func ParseSandboxMode(s string) (SandboxMode, error) {
	for i, n := range sandboxModeNames {
		if s == n {
			return SandboxMode(i), nil
		}
	}
	return SandboxOff, fmt.Errorf("%q is not off, write or strict", s)
}

// SandboxConfig is the [sandbox] table.
type SandboxConfig struct {
	Mode SandboxMode
	// Required: a sandbox the kernel cannot give holds every command
	// (true, the default) or only warns that nothing is enforced.
	Required bool
	// AllowRoots are more write roots for sandboxed commands only (the
	// analysis's roots are [boundary] allow_roots, which count here too);
	// user and system layers only.
	AllowRoots []string
}

func (l *layer) sandboxMode(path []string, v any) {
	const key = "sandbox.mode"
	cur := l.cfg.Sandbox.Mode
	s, ok := v.(string)
	if !ok {
		l.warn(path, "%s: want \"off\", \"write\" or \"strict\", got %s; %s", key, typeName(v), l.keeping(key, cur.String()))
		return
	}
	m, err := ParseSandboxMode(strings.ToLower(s))
	switch {
	case err != nil:
		l.warn(path, "%s: %s is not off, write or strict; %s", key, quote(s), l.keeping(key, cur.String()))
		return
	case l.project() && m < cur:
		l.warn(path, "%s: the project file can only turn the sandbox on or make it stricter (%s to %s refused); ignored", key, cur, m)
		return
	}
	l.cfg.Sandbox.Mode = m
	l.set(key, path...)
}

func (l *layer) sandboxRequired(path []string, v any) {
	const key = "sandbox.required"
	b, ok := v.(bool)
	switch {
	case !ok:
		l.warn(path, "%s: want true or false, got %s; %s", key, typeName(v), l.keeping(key, strconv.FormatBool(l.cfg.Sandbox.Required)))
		return
	case l.project() && !b && l.cfg.Sandbox.Required:
		l.warn(path, "%s: the project file cannot let commands run unsandboxed; ignored", key)
		return
	}
	l.cfg.Sandbox.Required = b
	l.set(key, path...)
}

func (l *layer) sandboxAllowRoots(path []string, v any) {
	const key = "sandbox.allow_roots"
	if l.project() {
		l.warn(path, "the project file cannot add sandbox allow roots; ignored")
		return
	}
	for _, p := range l.stringList(path, key, "paths", v) {
		abs, err := l.rootPath(p)
		if err != nil {
			l.warn(path, "%s: %s %s; ignored", key, quote(p), err)
			continue
		}
		if abs == "/" {
			l.warn(path, "%s: \"/\" would make the sandbox bound nothing; use mode = \"off\"; ignored", key)
			continue
		}
		if !contains(l.cfg.Sandbox.AllowRoots, abs) {
			l.cfg.Sandbox.AllowRoots = append(l.cfg.Sandbox.AllowRoots, abs)
		}
		l.set(key+"["+abs+"]", path...)
	}
}
