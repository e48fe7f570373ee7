package policy

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/guard-exec/guard-exec/parse"
)

// The fixed world every rule example is judged in.
const (
	testHome    = "/home/user"
	testProject = "/home/user/project"
)

// fakeFS is a filesystem of listed paths and symlinks, so examples about
// existing files and links do not depend on the machine.
type fakeFS struct {
	files map[string]bool   // existing paths (dirs included)
	links map[string]string // symlink → target
}

type fakeInfo struct {
	name string
	dir  bool
}

func (i fakeInfo) Name() string { return filepath.Base(i.name) }
func (i fakeInfo) Size() int64  { return 0 }
func (i fakeInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o755
	}
	return 0o644
}
func (i fakeInfo) ModTime() time.Time { return time.Time{} }
func (i fakeInfo) IsDir() bool        { return i.dir }
func (i fakeInfo) Sys() any           { return nil }

func (f *fakeFS) Lstat(name string) (fs.FileInfo, error) {
	if f.links[name] != "" {
		return linkInfo{fakeInfo{name: name}}, nil // as the real Lstat: the link itself
	}
	// A listed path is a directory when another is below it; the parents
	// of listed paths exist too, as directories.
	for p := range f.files {
		if strings.HasPrefix(p, strings.TrimSuffix(name, "/")+"/") {
			return fakeInfo{name: name, dir: true}, nil
		}
	}
	if f.files[name] {
		return fakeInfo{name: name}, nil
	}
	return nil, os.ErrNotExist
}

func (f *fakeFS) EvalSymlinks(name string) (string, error) {
	parts := strings.Split(strings.TrimPrefix(name, "/"), "/")
	cur := "/"
	for _, p := range parts {
		cur = filepath.Join(cur, p)
		if t, ok := f.links[cur]; ok {
			cur = t
		}
	}
	if cur != "/" && !f.files[cur] {
		return "", os.ErrNotExist
	}
	return cur, nil
}

func newTestFS() *fakeFS { return newWorldFS(testHome, testProject) }

// newWorldFS is the fake filesystem of a world with the given home and
// project directories.
func newWorldFS(home, project string) *fakeFS {
	f := &fakeFS{files: map[string]bool{}, links: map[string]string{}}
	for _, p := range []string{
		"/", "/etc", "/etc/hosts", "/etc/os-release", "/usr", "/usr/bin", "/tmp", "/var", "/var/tmp",
		home, home + "/.ssh", home + "/.ssh/id_ed25519", home + "/.bashrc",
		home + "/notes.txt", home + "/.cache", project, project + "/build",
		project + "/.git", project + "/README.md",
		// Added for the blind corpus (see the header of blind.tsv): files
		// agents really overwrite, read or send, so the difference between
		// creating and overwriting outside the project can be judged.
		home + "/.ssh/id_ed25519.pub", home + "/.ssh/id_rsa", home + "/.ssh/known_hosts",
		home + "/.ssh/authorized_keys", home + "/.aws/credentials", home + "/.kube/config",
		home + "/.npmrc", home + "/.profile", home + "/.zshrc", home + "/.bash_history",
		home + "/.gitconfig", home + "/.config/guard-exec/config.toml",
		home + "/.claude/settings.json", project + "/package.json", project + "/.env.example",
		project + "/.claude/settings.json", project + "/.guard-exec/ledger.jsonl",
	} {
		f.files[p] = true
	}
	f.links[project+"/keys"] = home + "/.ssh"
	return f
}

func testCtx() *Ctx { return worldCtx(testHome, testProject, "user") }

// worldCtx is the decision context of a fixed world: the project, the
// home directory and its caches, the temp dirs, a small environment.
func worldCtx(home, project, user string) *Ctx {
	return &Ctx{
		Cwd:        project,
		Project:    project,
		Home:       home,
		WriteRoots: []string{project, "/tmp", "/var/tmp", home + "/.cache", home + "/.npm", home + "/go/pkg/mod", home + "/.cargo/registry"},
		TempDirs:   []string{"/tmp", "/var/tmp"},
		Env:        map[string]string{"HOME": home, "PWD": project, "TMPDIR": "/tmp", "PATH": "/usr/bin:/bin", "USER": user},
		FS:         newWorldFS(home, project),
	}
}

func analyze(script string) *parse.Analysis {
	x := testCtx()
	return parse.Analyze(script, parse.Options{Env: x.Env, Dir: x.Cwd})
}

func hitIDs(d *Decision) []string {
	var ids []string
	for _, h := range d.Hits {
		ids = append(ids, h.Rule.ID)
	}
	return ids
}

func has(ids []string, id string) bool {
	for _, i := range ids {
		if i == id {
			return true
		}
	}
	return false
}

// TestRuleExamples runs every rule's own examples through the real parser:
// each example must hit the rule, each counter-example must not.
func TestRuleExamples(t *testing.T) {
	e := NewEngine(Builtin())
	for _, r := range e.Rules() {
		for _, ex := range r.Examples {
			d := e.Decide(analyze(ex), testCtx())
			if ids := hitIDs(d); !has(ids, r.ID) {
				t.Errorf("%s: example %q did not match (hits %v)", r.ID, ex, ids)
			}
		}
		for _, ex := range r.NotExamples {
			d := e.Decide(analyze(ex), testCtx())
			if ids := hitIDs(d); has(ids, r.ID) {
				t.Errorf("%s: counter-example %q matched", r.ID, ex)
			}
		}
	}
}

// anyProgramAllowed lists the command rules that must look at every
// command (a redirection to a device can follow any program); each costs
// every command a little, so the list stays short.
var anyProgramAllowed = map[string]bool{
	"write-block-device":   true,
	"sysrq-trigger":        true,
	"privilege-escalation": true,
}

var idPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// TestRulesAreData checks the catalogue's shape: stable kebab-case ids,
// unique, with a message, a hint and examples.
func TestRulesAreData(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Builtin() {
		if !idPattern.MatchString(r.ID) {
			t.Errorf("rule id %q is not kebab-case", r.ID)
		}
		if seen[r.ID] {
			t.Errorf("rule id %q appears twice", r.ID)
		}
		seen[r.ID] = true
		if r.Message == "" || r.Hint == "" || r.Family == "" {
			t.Errorf("%s: message, hint and family are required", r.ID)
		}
		if strings.HasSuffix(r.Message, ".") || strings.HasSuffix(r.Hint, ".") {
			t.Errorf("%s: messages are one line without a trailing period", r.ID)
		}
		if m := r.Message; m != "" && unicode.IsUpper([]rune(m)[0]) {
			t.Errorf("%s: messages start in lower case (they follow \"guard-exec: held: ID: \")", r.ID)
		}
		if strings.ContainsAny(r.Message+r.Hint, "\n\r") {
			t.Errorf("%s: message and hint are one line each", r.ID)
		}
		// Analysis and loop rules judge the analysis and the history, not
		// a command line: they have no examples to run.
		if r.Family != "analysis" && r.Family != "loop" && (len(r.Examples) < 2 || len(r.NotExamples) < 2) {
			t.Errorf("%s: a rule needs at least two examples that must match and two that must not", r.ID)
		}
		if r.Family != "analysis" && r.Family != "loop" && r.Command == nil && r.Dynamic == nil && r.Script == nil && r.finding == fNone {
			t.Errorf("%s: a rule needs a matcher", r.ID)
		}
		if r.Command != nil && len(r.Programs) == 0 && !anyProgramAllowed[r.ID] {
			t.Errorf("%s: a command rule must be indexed by Programs, or be listed in anyProgramAllowed", r.ID)
		}
		if r.Raw != "" {
			regexp.MustCompile(r.Raw)
		}
	}
}
