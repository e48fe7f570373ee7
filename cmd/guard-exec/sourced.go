package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/guard-exec/guard-exec/internal/paths"
	"github.com/guard-exec/guard-exec/ledger"
	"github.com/guard-exec/guard-exec/parse"
)

// Large sourced files, analysed cheaply.
//
// Claude Code runs every command as
//
//	source SNAPSHOT 2>/dev/null || true && … && eval 'CMD' \< /dev/null && pwd -P >| FILE
//
// where SNAPSHOT is a capture of the user's shell: tens of KB of function
// definitions (each as eval "$(echo 'BASE64' | base64 -d)"), then shopt and
// set lines, aliases and PATH. Following that file faithfully costs
// hundreds of milliseconds per command — every function body decoded,
// parsed and analysed — far over the guard's budget.
//
// A function that is defined but never called runs nothing, so the
// analysis is given the file with the top-level function definitions it
// does not need blanked out (line numbers kept), and everything else as
// written. The analysis then says which of the blanked functions the
// command does call (a command named like one of them that did not run a
// function), those are put back, and the command is analysed again, until
// nothing more is needed. command_not_found_handle, which bash calls by
// itself, is always kept. Consecutive shopt and set lines are folded into
// one each, which sets the same options.
//
// Finding the definitions means parsing the whole file once; the result
// is cached in the cache directory (paths.CacheDir), keyed by the file's
// path, device, inode, size, mtime and ctime, so a changed file is indexed
// again. Each entry is authenticated with a key derived from the user's
// (key.go): an entry a command edited (to blank a line of the file as if
// it were a function nobody calls) fails its check and the file is indexed
// again; without a key nothing is cached.

// reduceMin is the size from which a sourced file is reduced; smaller
// files are analysed as they are. It is a matter of speed only: the
// functions of a sourced file are judged where they are called (parse
// does not judge the bodies of those it never calls), so reduced or not,
// a file gives the same verdicts.
const reduceMin = 4 << 10

// maxRounds bounds the rounds of putting functions back; past it every
// function is kept.
const maxRounds = 8

// implicitFuncs are functions bash calls without their name appearing.
var implicitFuncs = []string{"command_not_found_handle"}

// sourceIndex is what is known of one large file: where its top-level
// function definitions are, and the runs of option lines to fold.
type sourceIndex struct {
	Version int
	Path    string
	Key     string
	Funcs   []span
	Opts    []span
}

// span is a byte range of the file; Name is the function defined, Repl
// the folded text of an option run.
type span struct {
	Name       string
	Start, End int
	Repl       string
}

const indexVersion = 1

// sourcedFiles is the FileReader the analysis reads sourced files through.
type sourcedFiles struct {
	cacheDir string
	key      []byte // authenticates cache entries; nil: no cache
	files    map[string]*loadedFile
	keep     map[string]bool // function names put back, for every file
	all      bool            // keep every function (rounds exhausted)
	readOnly bool            // inside a sandboxed command: read the cache, never write it
}

type loadedFile struct {
	data    []byte
	idx     *sourceIndex // nil: analysed as it is
	dropped map[string]bool
}

func newSourcedFiles(getenv func(string) string, key []byte) *sourcedFiles {
	dir := paths.CacheDir(getenv)
	if dir != "" && key != nil {
		dir = filepath.Join(dir, "sourced")
	} else {
		dir = ""
	}
	sf := &sourcedFiles{cacheDir: dir, files: map[string]*loadedFile{}, keep: map[string]bool{}}
	if key != nil {
		sf.key = ledger.Derive(key, "sourced-file cache")
	}
	return sf
}

// analyzeSourced is parse.Analyze with large sourced files reduced to
// what the script uses.
func (g *guard) analyzeSourced(script string, opts parse.Options) *parse.Analysis {
	return g.withSources(opts, func(o parse.Options) *parse.Analysis { return parse.Analyze(script, o) })
}

// analyzeArgvSourced is parse.AnalyzeArgv the same way.
func (g *guard) analyzeArgvSourced(argv []string, opts parse.Options) *parse.Analysis {
	return g.withSources(opts, func(o parse.Options) *parse.Analysis { return parse.AnalyzeArgv(argv, o) })
}

func (g *guard) withSources(opts parse.Options, analyze func(parse.Options) *parse.Analysis) *parse.Analysis {
	if g.sources == nil {
		g.sources = newSourcedFiles(g.getenv, g.key())
		// Inside a sandboxed command the cache is protected: a nested
		// guard reads it and writes nothing (the write would be undone).
		g.sources.readOnly = g.outerSandboxed()
	}
	sf := g.sources
	opts.Files = sf
	if g.progs == nil {
		g.progs = &programIdentity{getenv: g.getenv}
	}
	opts.Programs = g.progs
	a := analyze(opts)
	for round := 0; ; round++ {
		need := sf.needed(a)
		if len(need) == 0 {
			return a
		}
		if round >= maxRounds {
			sf.all = true
		}
		for _, n := range need {
			sf.keep[n] = true
		}
		a = analyze(opts)
		if sf.all {
			return a
		}
	}
}

// needed lists the blanked functions the analysis shows are called.
func (sf *sourcedFiles) needed(a *parse.Analysis) []string {
	var out []string
	for _, c := range a.Commands {
		if c.Function || c.NameDynamic || sf.keep[c.Name] {
			continue
		}
		for _, f := range sf.files {
			if f.dropped[c.Name] && !slices.Contains(out, c.Name) {
				out = append(out, c.Name)
			}
		}
	}
	return out
}

// ReadFile returns the file as the analysis should see it.
func (sf *sourcedFiles) ReadFile(path string) ([]byte, error) {
	lf, ok := sf.files[path]
	if !ok {
		var err error
		if lf, err = sf.load(path); err != nil {
			return nil, err
		}
		sf.files[path] = lf
	}
	if lf.idx == nil || sf.all {
		return lf.data, nil
	}
	return lf.reduce(sf.keep), nil
}

// ReadData returns the file as it is, for the analysis' values ($(<f)).
func (sf *sourcedFiles) ReadData(path string) ([]byte, error) {
	if lf, ok := sf.files[path]; ok {
		return lf.data, nil
	}
	return osFiles{}.ReadFile(path)
}

// ReadDir lists a directory for glob expansion.
func (sf *sourcedFiles) ReadDir(path string) ([]string, error) { return osFiles{}.ReadDir(path) }

// load reads a file the way osFiles does and finds its index.
func (sf *sourcedFiles) load(path string) (*loadedFile, error) {
	data, fi, err := readScript(path)
	if err != nil {
		return nil, err
	}
	lf := &loadedFile{data: data}
	if len(data) < reduceMin {
		return lf, nil
	}
	key := fileKey(fi)
	idx := sf.cached(path, key)
	if idx == nil {
		idx = indexFile(data)
		idx.Path, idx.Key = path, key
		sf.store(idx)
	}
	if !idx.valid(len(data)) {
		return lf, nil
	}
	lf.idx = idx
	lf.dropped = map[string]bool{}
	for _, s := range idx.Funcs {
		lf.dropped[s.Name] = true
	}
	return lf, nil
}

// reduce is the file with the function definitions not in keep blanked
// and option runs folded, line numbers unchanged.
func (lf *loadedFile) reduce(keep map[string]bool) []byte {
	var cuts []span
	for _, s := range lf.idx.Funcs {
		if !keep[s.Name] && !slices.Contains(implicitFuncs, s.Name) {
			cuts = append(cuts, s)
		}
	}
	cuts = append(cuts, lf.idx.Opts...)
	slices.SortFunc(cuts, func(a, b span) int { return a.Start - b.Start })
	out := make([]byte, 0, 4096)
	pos := 0
	for _, c := range cuts {
		if c.Start < pos {
			continue
		}
		out = append(out, lf.data[pos:c.Start]...)
		pos = c.End
		if c.Repl == "" {
			// A blanked definition keeps its shape, so that positions
			// after it, on its last line too, stay where they are.
			for _, ch := range lf.data[c.Start:c.End] {
				if ch != '\n' {
					ch = ' '
				}
				out = append(out, ch)
			}
			continue
		}
		lines := bytes.Count(lf.data[c.Start:c.End], newline)
		out = append(out, c.Repl...)
		lines -= strings.Count(c.Repl, "\n")
		for ; lines > 0; lines-- {
			out = append(out, '\n')
		}
	}
	return append(out, lf.data[pos:]...)
}

var newline = []byte{'\n'}

// valid checks an index against the file it claims to describe.
func (idx *sourceIndex) valid(size int) bool {
	if idx.Version != indexVersion {
		return false
	}
	for _, list := range [][]span{idx.Funcs, idx.Opts} {
		for _, s := range list {
			if s.Start < 0 || s.End > size || s.Start > s.End {
				return false
			}
		}
	}
	return true
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func (sf *sourcedFiles) entry(path string) string {
	sum := sha256.Sum256([]byte(path))
	return filepath.Join(sf.cacheDir, hex.EncodeToString(sum[:16]))
}

func (sf *sourcedFiles) cached(path, key string) *sourceIndex {
	if sf.cacheDir == "" || key == "" {
		return nil
	}
	b, err := os.ReadFile(sf.entry(path))
	if err != nil {
		return nil
	}
	body, ok := sf.open(b)
	if !ok {
		return nil
	}
	idx, ok := decodeIndex(body)
	if !ok || idx.Path != path || idx.Key != key {
		return nil
	}
	return idx
}

// The index is stored as lines of text rather than JSON: decoding it is
// on every command's path, and a line format costs a fraction of
// reflection.
//
//	guard-exec-sourced VERSION
//	path PATH (quoted)
//	key KEY
//	f START END NAME
//	o START END REPL (quoted)
const indexMagic = "guard-exec-sourced"

func encodeIndex(idx *sourceIndex) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d\npath %s\nkey %s\n", indexMagic, idx.Version, strconv.Quote(idx.Path), idx.Key)
	for _, f := range idx.Funcs {
		fmt.Fprintf(&b, "f %d %d %s\n", f.Start, f.End, f.Name)
	}
	for _, o := range idx.Opts {
		fmt.Fprintf(&b, "o %d %d %s\n", o.Start, o.End, strconv.Quote(o.Repl))
	}
	return b.String()
}

func decodeIndex(text string) (*sourceIndex, bool) {
	idx := &sourceIndex{}
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		tag, rest, _ := strings.Cut(line, " ")
		var err error
		switch {
		case i == 0:
			if tag != indexMagic {
				return nil, false
			}
			idx.Version, err = strconv.Atoi(rest)
		case tag == "path":
			idx.Path, err = strconv.Unquote(rest)
		case tag == "key":
			idx.Key = rest
		case tag == "f" || tag == "o":
			a, r1, _ := strings.Cut(rest, " ")
			e, r2, _ := strings.Cut(r1, " ")
			sp := span{}
			if sp.Start, err = strconv.Atoi(a); err != nil {
				return nil, false
			}
			if sp.End, err = strconv.Atoi(e); err != nil {
				return nil, false
			}
			if tag == "f" {
				sp.Name = r2
				idx.Funcs = append(idx.Funcs, sp)
			} else {
				sp.Repl, err = strconv.Unquote(r2)
				idx.Opts = append(idx.Opts, sp)
			}
		default:
			return nil, false
		}
		if err != nil {
			return nil, false
		}
	}
	return idx, true
}

// store writes an index whole (temporary file, then rename) and prunes
// entries not used for a month.
func (sf *sourcedFiles) store(idx *sourceIndex) {
	if sf.cacheDir == "" || idx.Key == "" || sf.readOnly {
		return
	}
	if err := os.MkdirAll(sf.cacheDir, 0o700); err != nil {
		return
	}
	b := sf.seal(encodeIndex(idx))
	tmp, err := os.CreateTemp(sf.cacheDir, ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), sf.entry(idx.Path)) != nil {
		os.Remove(tmp.Name())
		return
	}
	prune(sf.cacheDir, 30*24*time.Hour)
}

// seal appends the entry's authentication line; open checks and removes
// it.
func (sf *sourcedFiles) seal(body string) []byte {
	return []byte(body + "mac " + ledger.MAC(sf.key, []byte(body)) + "\n")
}

func (sf *sourcedFiles) open(b []byte) (string, bool) {
	text := strings.TrimSuffix(string(b), "\n")
	i := strings.LastIndex(text, "\nmac ")
	if i < 0 || sf.key == nil {
		return "", false
	}
	body, mac := text[:i+1], text[i+len("\nmac "):]
	if !hmac.Equal([]byte(mac), []byte(ledger.MAC(sf.key, []byte(body)))) {
		return "", false
	}
	return body, true
}

func prune(dir string, age time.Duration) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > age {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// indexFile finds the top-level function definitions of a file, plain or
// in the eval "$(echo 'BASE64' | base64 -d)" form whose decoded text is a
// single function definition, and its runs of option lines. A file that
// does not parse gets an empty index: it is analysed as it is.
func indexFile(data []byte) *sourceIndex {
	idx := &sourceIndex{Version: indexVersion}
	f, err := syntax.NewParser().Parse(strings.NewReader(string(data)), "")
	if err != nil {
		return idx
	}
	var run *span
	var sets []optSet
	flush := func() {
		if run != nil {
			run.Repl = foldOptions(sets)
			idx.Opts = append(idx.Opts, *run)
		}
		run, sets = nil, nil
	}
	for _, st := range f.Stmts {
		start, end := int(st.Pos().Offset()), stmtEnd(st)
		if name := definedFunc(st); name != "" {
			flush()
			idx.Funcs = append(idx.Funcs, span{Name: name, Start: start, End: end})
			continue
		}
		line := optionLine(st)
		if line == nil {
			flush()
			continue
		}
		if run == nil {
			run = &span{Start: start}
		}
		run.End = end
		sets = append(sets, line...)
	}
	flush()
	// A run of one line gains nothing.
	idx.Opts = slices.DeleteFunc(idx.Opts, func(s span) bool { return !strings.Contains(string(data[s.Start:s.End]), "\n") })
	return idx
}

// stmtEnd is where a statement ends, its ';' included.
func stmtEnd(st *syntax.Stmt) int {
	if st.Semicolon.IsValid() {
		return int(st.Semicolon.Offset()) + 1
	}
	return int(st.End().Offset())
}

// definedFunc returns the name of the function a top-level statement only
// defines, or "".
func definedFunc(st *syntax.Stmt) string {
	if st.Negated || st.Background || st.Coprocess || hasHeredoc(st) {
		return ""
	}
	switch c := st.Cmd.(type) {
	case *syntax.FuncDecl:
		if len(st.Redirs) == 0 && c.Name != nil {
			return c.Name.Value
		}
	case *syntax.CallExpr:
		return encodedFunc(c)
	}
	return ""
}

// encodedFunc recognises eval "$(echo 'B64' | base64 -d)" and returns the
// name of the single function the decoded text defines.
func encodedFunc(c *syntax.CallExpr) string {
	if len(c.Assigns) > 0 || len(c.Args) != 2 || c.Args[0].Lit() != "eval" || len(c.Args[1].Parts) != 1 {
		return ""
	}
	dq, ok := c.Args[1].Parts[0].(*syntax.DblQuoted)
	if !ok || len(dq.Parts) != 1 {
		return ""
	}
	cs, ok := dq.Parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 || len(cs.Stmts[0].Redirs) > 0 {
		return ""
	}
	pipe, ok := cs.Stmts[0].Cmd.(*syntax.BinaryCmd)
	if !ok || pipe.Op != syntax.Pipe {
		return ""
	}
	echo, ok1 := pipe.X.Cmd.(*syntax.CallExpr)
	dec, ok2 := pipe.Y.Cmd.(*syntax.CallExpr)
	if !ok1 || !ok2 || len(pipe.X.Redirs)+len(pipe.Y.Redirs) > 0 || len(echo.Args) != 2 || echo.Args[0].Lit() != "echo" ||
		len(dec.Args) != 2 || dec.Args[0].Lit() != "base64" || (dec.Args[1].Lit() != "-d" && dec.Args[1].Lit() != "--decode") ||
		len(echo.Args[1].Parts) != 1 {
		return ""
	}
	sq, ok := echo.Args[1].Parts[0].(*syntax.SglQuoted)
	if !ok || sq.Dollar {
		return ""
	}
	text, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(sq.Value), ""))
	if err != nil {
		return ""
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(string(text)), "")
	if err != nil || len(f.Stmts) != 1 {
		return ""
	}
	if fd, ok := f.Stmts[0].Cmd.(*syntax.FuncDecl); ok && definedFunc(f.Stmts[0]) != "" {
		return fd.Name.Value
	}
	return ""
}

// optSet is one option setting: shopt -s NAME, set +o NAME, ….
type optSet struct{ cmd, flag, name string }

// optionLine recognises `shopt -s|-u NAME…` and `set -o|+o NAME` with
// literal names and nothing else, the lines a shell snapshot is made of.
func optionLine(st *syntax.Stmt) []optSet {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 || len(c.Assigns) > 0 || len(c.Args) < 3 {
		return nil
	}
	words := make([]string, len(c.Args))
	for i, w := range c.Args {
		words[i] = w.Lit()
		if i > 1 && !plainName(words[i]) {
			return nil
		}
	}
	var out []optSet
	switch {
	case words[0] == "shopt" && (words[1] == "-s" || words[1] == "-u"):
		for _, n := range words[2:] {
			out = append(out, optSet{"shopt", words[1], n})
		}
	case words[0] == "set" && (words[1] == "-o" || words[1] == "+o") && len(words) == 3:
		out = append(out, optSet{"set", words[1], words[2]})
	}
	return out
}

func plainName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// foldOptions is at most one line per kind (shopt -s, shopt -u, set -o,
// set +o) that leaves every option as the run of lines left it: each name
// keeps the last setting it was given. Lines are joined without a final
// newline, so the folded text never has more lines than the run.
func foldOptions(sets []optSet) string {
	last := map[optSet]string{}
	var order []optSet
	for _, s := range sets {
		k := optSet{cmd: s.cmd, name: s.name}
		if _, seen := last[k]; !seen {
			order = append(order, k)
		}
		last[k] = s.flag
	}
	group := map[string][]string{}
	for _, k := range order {
		g := k.cmd + " " + last[k]
		group[g] = append(group[g], k.name)
	}
	var lines []string
	for _, g := range []string{"shopt -s", "shopt -u"} {
		if len(group[g]) > 0 {
			lines = append(lines, g+" "+strings.Join(group[g], " "))
		}
	}
	for _, flag := range []string{"-o", "+o"} {
		if names := group["set "+flag]; len(names) > 0 {
			l := "set"
			for _, n := range names {
				l += " " + flag + " " + n
			}
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}
