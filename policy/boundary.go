package policy

import (
	"path/filepath"
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// finding is one outcome of the boundary pass; each is one rule.
type finding uint8

const (
	fNone finding = iota
	fOverwrite
	fDelete
	fCreate
	fPerm
	fSystem
	fPersist
	fGitConfig
	fCredRead
	fCredWrite
	fCredExfil
	fEnvExfil
	fSecretElsewhere
	fSelfConfig
	fSelfLedger
	fSelfLedgerReach
	fSelfCache
	fSelfKey
	fSelfShim
	fSelfAgent
	fSelfProject
	fSelfProjectDrop
	fSelfEnv
	fSelfCommand
	fSelfBinary
	fSelfKill
	fUnknownWrite
	nFindings
)

// boundaryState is the boundary pass over one analysis: every command's
// writes, reads and sends are judged once, and each rule of the boundary,
// credential and self-defence families reads its own list of spans.
type boundaryState struct {
	a *parse.Analysis
	// found are the findings' spans in the order they were found: a
	// decision has few (most have none), and an array by finding was
	// 1.7 KB to allocate and clear for every command.
	found  []foundSpan
	taints map[*parse.Command]taint // what each command's output carries, when anything
	files  map[string]taint         // files a tainted command wrote (cp key /tmp/k), resolved
	// netWriters are commands with a /dev/tcp or /dev/udp operand.
	netWriters map[*parse.Command]bool
	// staged are the paths git add put in the index earlier in the
	// script: a later git push sends them (cp ~/.ssh/id_rsa k; git add
	// k; git commit; git push).
	staged []Target

	dirs      *PathCache           // resolved directories when Ctx.Paths is nil (paths.go)
	looked    map[string]dirLookup // paths resolved in this decision (Ctx.lookup)
	lstated   map[string]bool      // paths Lstat'ed, links not followed, in this decision (Ctx.locate)
	rootsDone bool
	roots     []string // write roots with symlinks resolved, when they differ
	self      *selfSet
}

func (x *Ctx) state() *boundaryState {
	if x.bnd == nil {
		x.bnd = &boundaryState{}
	}
	return x.bnd
}

// boundary runs the pass over a once and returns its findings.
func (x *Ctx) boundary(a *parse.Analysis) *boundaryState {
	b := x.state()
	if b.a == a {
		return b
	}
	b.a, b.found, b.taints, b.files, b.netWriters, b.staged = a, b.found[:0], nil, nil, nil, nil
	for _, c := range a.Commands {
		if c.Remote != "" {
			continue // its paths are another machine's
		}
		ws := x.writes(c)
		for _, w := range ws {
			b.add(x.judgeWrite(w), c)
			if netPath(w.t.Path) {
				if b.netWriters == nil {
					b.netWriters = map[*parse.Command]bool{}
				}
				b.netWriters[c] = true // tee /dev/tcp/h/p sends what it reads
			}
		}
		if c.Name == "git" && gitConfigCode(c) {
			b.add(fGitConfig, c)
		}
		if c.Name == "git" && gitConfigSystem(c) {
			b.add(fSystem, c)
		}
		read, code := x.readTaint(c), taint(0)
		if src := interpCode(c); src != "" {
			code = codeTaint(src)
			if codePersists(src) {
				b.add(fPersist, c)
			}
		}
		// A printed token read by the script itself ($(aws configure
		// export-credentials)) never reaches the agent's screen.
		shown := secretPrinter(c) && c.Context&parse.InCmdSubst == 0
		if read != 0 || code&taintCred != 0 || shown {
			b.add(fCredRead, c)
		}
		if x.readsKey(c) {
			b.add(fSelfKey, c)
		}
		if t := x.outTaint(c, read|x.archiveTaint(c), code) | b.upstreamTaint(c); t != 0 {
			if b.taints == nil {
				b.taints = map[*parse.Command]taint{}
			}
			b.taints[c] = t
			x.taintWrites(b, ws, t)
		}
		if selfCommand(c) {
			b.add(fSelfCommand, c)
		}
		if selfKill(c) {
			b.add(fSelfKill, c)
		}
		if selfBinaryLookup(c, ws) {
			b.add(fSelfBinary, c)
		}
		if selfEnvCommand(c) {
			b.add(fSelfEnv, c)
		}
	}
	for _, as := range a.Assignments {
		// Prefixes (VAR=x cmd) are found on their command, with env's.
		if !as.Prefix && isSelfVar(as.Name) {
			b.found = append(b.found, foundSpan{fSelfEnv, Span{Text: as.Name + "=…", Pos: as.Pos}})
		}
	}
	x.exfil(a, b)
	return b
}

// add records a finding for a command, once per command.
func (b *boundaryState) add(f finding, c *parse.Command) {
	if f == fNone {
		return
	}
	for i := len(b.found) - 1; i >= 0; i-- {
		if fs := &b.found[i]; fs.f == f {
			if fs.span.Pos == c.Pos && fs.span.Text == c.Span {
				return
			}
			break
		}
	}
	b.found = append(b.found, foundSpan{f, Span{Text: c.Span, Pos: c.Pos}})
}

// foundSpan is one span of a finding.
type foundSpan struct {
	f    finding
	span Span
}

// spans returns the spans of finding f, in the order they were found.
func (b *boundaryState) spans(f finding) []Span {
	var out []Span
	for i := range b.found {
		if b.found[i].f == f {
			out = append(out, b.found[i].span)
		}
	}
	return out
}

// matches reports whether a Command rule matches c: its Command, on a
// command of its row when it has one.
func (r *Rule) matches(x *Ctx, c *parse.Command) bool {
	return (r.row == "" || c.Row == r.row) && r.Command(x, c)
}

// scriptSpans are a Script rule's spans: its finding's, for a boundary
// rule (Rule.finding).
func (r *Rule) scriptSpans(x *Ctx, a *parse.Analysis) []Span {
	if r.finding != fNone {
		return x.boundary(a).spans(r.finding)
	}
	return r.Script(x, a)
}

// judgeWrite gives a write its one finding, the most specific first:
// guard-exec's own files, credential stores, persistence points, then the
// allowed roots, system directories, and outside the roots what the write
// does to what is there.
func (x *Ctx) judgeWrite(w write) finding {
	if w.persist {
		return fPersist
	}
	if t, ok := x.assumedTarget(w.t); ok {
		w.t = t
	}
	if alts := w.t.Word.Alternatives(); alts != nil && !w.t.Known && w.t.Under == "" {
		return x.judgeAlts(w, alts)
	}
	t := w.t
	if w.kind == wDelete && t.Word.Made && !t.Known {
		// A path the script made itself (mktemp's, mkdir's of one it
		// found absent): deleting it removes only the script's own work,
		// wherever it is, even in a temp dir that is also the home.
		return fNone
	}
	if t.Known && skipDevice(t.Path) {
		return fNone // before resolving: /dev/stderr leads to /proc/self/fd/2 and on to a pipe
	}
	var p string
	exists := false
	// plants is false for a write below a known directory that cannot
	// plant anything there: a directory, an empty file or a removal
	// (mkdir or rm -rf /tmp/run-$$ where the home is below /tmp).
	plants := true
	switch {
	case t.Known:
		p, exists = x.locate(t, w.follow)
		if t.Glob {
			exists = true // a pattern names files that are there
		}
	case t.Under != "":
		// Somewhere below a known directory: judge it as files landing
		// there.
		p = x.resolve(t.Under)
		plants = w.kind != wMkdir && w.kind != wTouch && w.kind != wDelete
		switch w.kind {
		case wMkdir, wTouch:
		case wModify:
			// An edit in place (find .. -exec sed -i … {} +) changes
			// files that are there: only an existing file can be edited.
			exists = true
		default:
			w.kind = wInto
		}
	default:
		return x.unknownWrite(w)
	}
	if skipDevice(p) {
		return fNone
	}
	if w.selfOnly {
		if x.reachesSelf(p, w) {
			return fSelfLedgerReach
		}
		return fNone
	}
	if f := x.selfWrite(p, w, exists); f != fNone {
		return f
	}
	if x.credWrite(p, w) {
		return fCredWrite
	}
	if plants && x.persistWrite(p, w) {
		return fPersist
	}
	if x.inWriteRoots(p) || x.routineFile(p) {
		return fNone
	}
	if x.systemPath(p) {
		if w.recursive {
			return fNone // rm -r and find -delete there are the filesystem rules' to judge
		}
		return fSystem
	}
	if w.kind == wInto && x.holdsSystem(p) {
		// Unknown files landing in / (tar -x -C /, rsync x/ /) can
		// replace anything in /etc or /usr.
		return fSystem
	}
	return outside(w, exists)
}

// assumedTarget returns, for a target unknown only because code the
// analysis cannot see ran before it (parse.Word.Assumed), the target its
// assumed value names: bats' `teardown >>"$BATS_OUT"` after it sources the
// test file. The unseen code is dynamic-exec's to report; anything it could
// write through the variable it could write itself. Only an absolute value
// is taken: the working directory after unseen code is not known.
func (x *Ctx) assumedTarget(t Target) (Target, bool) {
	a := t.Word.Assumed
	if t.Known || t.Under != "" || !filepath.IsAbs(a) {
		return t, false
	}
	w := t.Word
	w.Value, w.Dynamic, w.Assumed = a, strings.Contains(a, parse.Unknown), ""
	return x.target(&parse.Command{}, w), true
}

// judgeAlts judges a write to a variable that is one of a few values
// (parse.Word.Alts: `>>"$LOG"` where one path set LOG=/dev/null and the
// other "$dir/run.log") by each value: the first finding that is more than
// a warning about creating a file, else that warning, else none. A
// relative value is judged as one whose directory is not known, as after
// a cd the analysis cannot follow.
func (x *Ctx) judgeAlts(w write, alts []string) finding {
	found := fNone
	for _, a := range alts {
		aw := w
		word := w.t.Word
		word.Value, word.Dynamic, word.Alts, word.Assumed = a, strings.Contains(a, parse.Unknown), nil, ""
		aw.t = x.target(&parse.Command{}, word)
		switch f := x.judgeWrite(aw); {
		case f == fNone:
		case f != fCreate:
			return f
		default:
			found = f
		}
	}
	return found
}

// unknownWrite judges a write whose target has no known directory
// ("$(dirname $PWD)/.bashrc", "$(git rev-parse --git-dir)/hooks/x",
// "$(cat lp)"): every write is judged by one rule, whatever its target.
// The known tail is tried where it would be protected (under the home,
// the project, its .git, the working directory): a tail that names a
// persistence point, a credential store or guard-exec's own files there
// is that finding. A target with nothing known at all could be any of
// them and is held; a tail that names nothing protected is allowed (the
// unknown part is taken not to climb out with "..").
func (x *Ctx) unknownWrite(w write) finding {
	switch w.kind {
	case wDelete, wMeta, wTouch, wMkdir, wModify:
		// rm and chmod of unknown paths are the filesystem rules';
		// sed -i and perl -pi edit files that are there
		// (perl -pi … $(git ls-files)).
		return fNone
	}
	v := w.t.Word.Value
	i := strings.LastIndex(v, parse.Unknown)
	if i < 0 {
		return fNone
	}
	rest := strings.TrimLeft(v[i+len(parse.Unknown):], "/")
	if strings.Trim(v, parse.Unknown) == "" {
		if w.t.Word.Unseen {
			// Only code the analysis could not see names it; that code
			// is dynamic-exec's to judge (assumedTarget says why).
			return fNone
		}
		return fUnknownWrite
	}
	if rest == "" || strings.Contains(rest, "..") {
		return fNone
	}
	if pythonStartupHook(v) {
		return fPersist // a .pth or sitecustomize.py in a computed directory
	}
	for _, base := range []string{x.Home, x.Project, x.Project + "/.git", x.Cwd} {
		if base == "" || base == "/.git" {
			continue
		}
		p := filepath.Join(base, rest)
		if f := x.selfWrite(p, w, true); f != fNone {
			return f
		}
		if x.credWrite(p, w) {
			return fCredWrite
		}
		if x.persistWrite(p, w) {
			return fPersist
		}
	}
	return fNone
}

// ciFiles are the environment variables naming files a CI runner reads
// back after a step (GitHub Actions); steps append to them routinely.
var ciFiles = []string{"GITHUB_ENV", "GITHUB_OUTPUT", "GITHUB_PATH", "GITHUB_STEP_SUMMARY", "GITHUB_STATE"}

// routineFile reports whether p is a file outside the roots that ordinary
// work writes: ~/.ssh/known_hosts (ssh-keyscan >> it in every CI job that
// clones over ssh) and the CI runner's step files.
func (x *Ctx) routineFile(p string) bool {
	if x.Home != "" && p == x.Home+"/.ssh/known_hosts" {
		return true
	}
	for _, v := range ciFiles {
		if f := x.Env[v]; filepath.IsAbs(f) && (p == filepath.Clean(f) || p == x.resolve(f)) {
			return true
		}
	}
	return false
}

// outside judges a write outside the allowed roots by what it does to
// what is there: destroying or changing an existing file is held,
// creating one only warned about.
func outside(w write, exists bool) finding {
	switch w.kind {
	case wDelete:
		if exists && !w.recursive {
			return fDelete
		}
	case wWrite, wAppend, wModify:
		if exists {
			return fOverwrite
		}
		if w.kind != wModify {
			return fCreate
		}
	case wMeta:
		if exists && !w.tighten {
			return fPerm
		}
	case wTouch, wMkdir:
		if !exists {
			return fCreate
		}
	case wInto, wCreate:
		return fCreate
	}
	return fNone
}

// skipDevice reports whether a write goes to a device or descriptor the
// boundary leaves alone: /dev/null, /dev/stderr, /dev/fd/N, /dev/tty.
// Network pseudo-files (/dev/tcp, /dev/udp) are judged as sends.
func skipDevice(p string) bool {
	return within(p, "/dev") || within(p, "/proc") && procFd(p)
}

// persistWrite reports whether a write plants something that runs later.
// Deleting a hook or a profile is not planting; creating an empty file or
// directory is not either.
func (x *Ctx) persistWrite(p string, w write) bool {
	switch w.kind {
	case wDelete, wTouch, wMkdir:
		return false
	case wMeta:
		// chmod 600 ~/.ssh/config fixes a permission; chmod +x on a hook
		// arms it.
		return gitCodePath(p) && strings.Contains(p, "/hooks")
	}
	if x.persistencePoint(p) {
		return true
	}
	// Unknown files landing in a directory that holds persistence points
	// (tar -x -C ~, cp -r dotfiles/. ~/). A system directory is held as
	// one anyway.
	return (w.kind == wInto || w.kind == wWrite) && x.holdsPersistence(p) && !x.systemPath(p)
}
