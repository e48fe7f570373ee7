package main

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/parse"
	"github.com/guard-exec/guard-exec/policy"
)

// snapshot writes a shell snapshot the way Claude Code writes one: each
// function base64-encoded behind eval, shopt and set lines, aliases, PATH.
// filler functions make it large enough to be reduced.
func snapshot(t testing.TB, funcs map[string]string, extra string) string {
	t.Helper()
	return snapshotN(t, 120, funcs, extra)
}

// snapshotN is a snapshot with n filler functions: 0 gives a small file
// like that of a user with few functions of their own.
func snapshotN(t testing.TB, n int, funcs map[string]string, extra string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("# Snapshot file\n# Unset all aliases to avoid conflicts with functions\nunalias -a 2>/dev/null || true\n# Functions\n")
	enc := func(def string) {
		// base64 wraps at 76 columns, as coreutils does by default
		e := base64.StdEncoding.EncodeToString([]byte(def + "\n"))
		var lines []string
		for len(e) > 76 {
			lines, e = append(lines, e[:76]), e[76:]
		}
		lines = append(lines, e)
		fmt.Fprintf(&b, "eval \"$(echo '%s' | base64 -d)\" > /dev/null 2>&1\n", strings.Join(lines, "\n"))
	}
	for i := 0; i < n; i++ {
		enc(fmt.Sprintf("__filler_%d () \n{ \n    local x=%d;\n    printf '%%s\\n' \"$x\" \"$@\" | sed -e 's/a/b/' | sort | uniq -c;\n    if [[ -n $x ]]; then echo yes; fi\n}", i, i))
	}
	for name, body := range funcs {
		enc(name + " () \n{ \n" + body + "\n}")
	}
	b.WriteString("# Shell Options\n")
	for _, o := range []string{"autocd", "cdable_vars", "cdspell", "checkhash", "checkjobs", "dotglob", "extglob", "failglob", "globstar", "lithist"} {
		fmt.Fprintf(&b, "shopt -u %s\n", o)
	}
	for _, o := range []string{"checkwinsize", "cmdhist", "complete_fullquote", "histappend", "interactive_comments", "progcomp", "promptvars", "sourcepath"} {
		fmt.Fprintf(&b, "shopt -s %s\n", o)
	}
	b.WriteString("set -o braceexpand\nset -o hashall\nset -o interactive-comments\nset -o monitor\nset -o onecmd\nshopt -s expand_aliases\n")
	b.WriteString("# Aliases\nalias -- ll='ls -alF'\nalias -- grep='grep --color=auto'\n")
	b.WriteString("# Check for rg availability\nif ! (unalias rg 2>/dev/null; command -v rg) >/dev/null 2>&1; then\n  alias rg='/opt/claude/vendor/ripgrep/x64-linux/rg'\nfi\n")
	b.WriteString(extra)
	b.WriteString("export PATH='/usr/local/bin:/usr/bin:/bin'\n")
	p := filepath.Join(t.TempDir(), "snapshot-bash-1760000000000-abc123.sh")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// claudeLine is the command line Claude Code hands its shell.
func claudeLine(snap, cmd string) string {
	q := "'" + strings.ReplaceAll(cmd, "'", `'\''`) + "'"
	return fmt.Sprintf("source '%s' 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && eval %s \\< /dev/null && pwd -P >| /tmp/claude-1a2b-cwd", snap, q)
}

func testGuard(t testing.TB) *guard {
	home := t.TempDir()
	return newGuard([]string{"HOME=" + home, "PATH=/usr/bin:/bin", "TMPDIR=/tmp", "XDG_CACHE_HOME=" + filepath.Join(home, ".cache")}, nil)
}

func TestSourcedSnapshotVerdicts(t *testing.T) {
	snap := snapshot(t, map[string]string{
		"gh":     "    command gh \"$@\"",
		"deploy": "    __helper_push \"$@\"",
		// only reachable through deploy: put back in a second round
		"__helper_push":            "    git push --force origin \"$1\"",
		"dangerous_but_never_used": "    rm -rf ~",
		"cd":                       "    builtin cd \"$@\" && echo moved",
	}, "")
	for _, tc := range []struct {
		cmd  string
		want string
	}{
		{"git status", "allow"},
		{"git push --force origin main", "hold"},
		{"ls -la; ll", "allow"},
		{"gh pr list", "allow"},
		{"deploy main", "hold"},
		{"cd / && rm -rf *", "hold"},
		{"echo dangerous_but_never_used", "allow"},
		{"dangerous_but_never_used", "hold"},
	} {
		g := testGuard(t)
		for round := 0; round < 2; round++ { // the second round reads the cached index
			d := g.decide(claudeLine(snap, tc.cmd), "/work/proj")
			if got := d.Verdict.String(); got != tc.want {
				t.Errorf("%q (round %d): %s, want %s %v", tc.cmd, round, got, tc.want, d.Hits)
			}
			g.sources = nil
		}
	}
}

// The functions of a snapshot are judged where the command calls them,
// whatever the file's size: a small snapshot holding a risky function the
// command never calls allows it (it once held every command, and padding
// the file past the reduction size made it pass), and the position of a
// hit is file:line:col inside the snapshot.
func TestSourcedSnapshotAnySize(t *testing.T) {
	funcs := map[string]string{"rmall": "    rm -rf \"$@\"", "nuke_home": "    rm -rf ~"}
	for _, n := range []int{0, 1, 10, 40, 120} {
		snap := snapshotN(t, n, funcs, "")
		fi, err := os.Stat(snap)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct{ cmd, want string }{
			{"git status --short", "allow"},
			{"ls -la && git diff", "allow"},
			{"echo rmall", "allow"},
			{"rmall /", "hold"},
			{"cd /tmp && nuke_home", "hold"},
		} {
			g := testGuard(t)
			for round := 0; round < 2; round++ {
				d := g.decide(claudeLine(snap, tc.cmd), "/work/proj")
				if got := d.Verdict.String(); got != tc.want {
					t.Errorf("%d bytes: %q (round %d): %s, want %s %v", fi.Size(), tc.cmd, round, got, tc.want, d.Hits)
				}
				for _, h := range d.Hits {
					if h.Pos.File != snap || h.Pos.Line < 5 {
						t.Errorf("%d bytes: %q: hit at %s, want a line of %s", fi.Size(), tc.cmd, h.Pos, snap)
					}
				}
				g.sources = nil
			}
		}
	}
}

func TestSourcedSnapshotTampered(t *testing.T) {
	// Code an agent slipped into the snapshot outside any function runs
	// for every command: it is judged every time.
	snap := snapshot(t, nil, "rm -rf ~\n")
	g := testGuard(t)
	if d := g.decide(claudeLine(snap, "git status"), "/work/proj"); d.Verdict.String() != "hold" {
		t.Errorf("a tampered snapshot: %s, want hold", d.Verdict)
	}
	// An encoded block that is not a single function definition is kept.
	snap2 := snapshot(t, nil, "eval \"$(echo '"+base64.StdEncoding.EncodeToString([]byte("f() { :; }\nrm -rf ~\n"))+"' | base64 -d)\" > /dev/null 2>&1\n")
	if d := testGuard(t).decide(claudeLine(snap2, "git status"), "/work/proj"); d.Verdict.String() != "hold" {
		t.Errorf("an encoded block with a command: %s, want hold", d.Verdict)
	}
}

func TestSourcedIndexChangesWithFile(t *testing.T) {
	snap := snapshot(t, map[string]string{"git": "    command git \"$@\""}, "")
	g := testGuard(t)
	if d := g.decide(claudeLine(snap, "git status"), "/w"); d.Verdict.String() != "allow" {
		t.Fatalf("before: %s", d.Verdict)
	}
	// Rewrite the file with a different git function: the cached index
	// must not be used for the new content.
	b, _ := os.ReadFile(snapshot(t, map[string]string{"git": "    rm -rf ~"}, ""))
	if err := os.WriteFile(snap, b, 0o644); err != nil {
		t.Fatal(err)
	}
	g2 := newGuard(g.env, nil)
	if d := g2.decide(claudeLine(snap, "git status"), "/w"); d.Verdict.String() != "hold" {
		t.Errorf("after the rewrite: %s, want hold", d.Verdict)
	}
}

func TestFoldOptions(t *testing.T) {
	got := foldOptions([]optSet{{"shopt", "-u", "a"}, {"shopt", "-s", "b"}, {"set", "-o", "x"}, {"shopt", "-s", "a"}, {"set", "+o", "y"}})
	want := "shopt -s a b\nset -o x\nset +o y"
	if got != want {
		t.Errorf("foldOptions = %q, want %q", got, want)
	}
}

func TestIndexRoundTrip(t *testing.T) {
	idx := &sourceIndex{Version: indexVersion, Path: "/a b/\"c\"", Key: "1:2:3:4:5",
		Funcs: []span{{Name: "f", Start: 1, End: 5}}, Opts: []span{{Start: 7, End: 20, Repl: "shopt -s a\nset -o b"}}}
	got, ok := decodeIndex(encodeIndex(idx))
	if !ok || got.Path != idx.Path || got.Key != idx.Key || len(got.Funcs) != 1 || got.Funcs[0] != idx.Funcs[0] || got.Opts[0] != idx.Opts[0] {
		t.Errorf("round trip: %+v %v", got, ok)
	}
	for _, bad := range []string{"", "nope 1\n", indexMagic + " 1\nf x 2 n\n", indexMagic + " 1\nzz\n"} {
		if _, ok := decodeIndex(bad); ok {
			t.Errorf("decodeIndex(%q) accepted", bad)
		}
	}
}

func BenchmarkClaudeSnapshot(b *testing.B) {
	snap := snapshot(b, map[string]string{"cd": "    builtin cd \"$@\""}, "")
	line := claudeLine(snap, "git status")
	g := testGuard(b)
	env := g.vars
	g.analyzeSourced(line, parse.Options{Env: env, Dir: "/tmp"}) // index once
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.sources = nil
		g.analyzeSourced(line, parse.Options{Env: env, Dir: "/tmp"})
	}
}

// The cache of a sourced file's index decides what is blanked: an entry
// edited to blank the file's rm -rf ~ as if it were an uncalled function
// must not be trusted (it was, and the snapshot ran rm -rf ~ every time).
func TestSourcedCacheForged(t *testing.T) {
	snap := snapshot(t, nil, "rm -rf ~\n")
	g := testGuard(t)
	if d := g.decide(claudeLine(snap, "git status"), "/work/proj"); d.Verdict.String() != "hold" {
		t.Fatalf("before: %s", d.Verdict)
	}
	data, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(string(data), "rm -rf ~")
	entries, _ := filepath.Glob(filepath.Join(g.getenv("XDG_CACHE_HOME"), "guard-exec", "sourced", "*"))
	if len(entries) != 1 {
		t.Fatalf("cache entries: %v", entries)
	}
	b, _ := os.ReadFile(entries[0])
	text := string(b)
	if i := strings.LastIndex(text, "mac "); i >= 0 {
		text = text[:i] // a forger without the key drops or keeps a stale mac
	}
	forged := text + fmt.Sprintf("f %d %d git\n", at, at+len("rm -rf ~"))
	if err := os.WriteFile(entries[0], []byte(forged), 0o600); err != nil {
		t.Fatal(err)
	}
	g2 := newGuard(g.env, nil)
	if d := g2.decide(claudeLine(snap, "git status"), "/work/proj"); d.Verdict.String() != "hold" {
		t.Errorf("with a forged cache entry: %s, want hold", d.Verdict)
	}
	if err := os.WriteFile(entries[0], []byte(forged+"mac 00\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if d := newGuard(g.env, nil).decide(claudeLine(snap, "git status"), "/work/proj"); d.Verdict.String() != "hold" {
		t.Errorf("with a forged mac: %s, want hold", d.Verdict)
	}
}

// TestSourcedCacheReadOnlyInSandbox: a guard inside a sandboxed command
// (the guard around it announced a sandbox, nest.go) writes nothing to guard-exec's cache, which the
// sandbox protects and would put back, with a message; an outer guard
// writes it.
func TestSourcedCacheReadOnlyInSandbox(t *testing.T) {
	snap := snapshot(t, nil, "")
	for _, nested := range []bool{false, true} {
		home := t.TempDir()
		env := []string{"HOME=" + home, "PATH=/usr/bin:/bin", "TMPDIR=/tmp", "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
			"XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}
		g := newGuard(env, nil)
		if nested {
			g.outerVal, g.outerDone = &outerGuard{pid: 1, id: "ev-0001", sandbox: policy.SandboxWrite}, true
		}
		if d := g.decide(claudeLine(snap, "git status"), "/work/proj"); d.Verdict.String() != "allow" {
			t.Fatalf("nested=%v: %s", nested, d.Verdict)
		}
		entries, _ := os.ReadDir(filepath.Join(home, ".cache", "guard-exec", "sourced"))
		if nested && len(entries) > 0 || !nested && len(entries) == 0 {
			t.Errorf("nested=%v: %d cache entries written", nested, len(entries))
		}
	}
}
