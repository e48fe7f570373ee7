package policy

import (
	"path/filepath"
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// writeKind says what a command does to a path it writes.
type writeKind uint8

const (
	wWrite  writeKind = iota + 1 // content created or replaced: >, cp DEST, tee, curl -o
	wAppend                      // content added, the file created when missing: >>, tee -a
	wModify                      // content edited in place; the file must exist: sed -i, patch
	wDelete                      // removed: rm, unlink, rmdir, the source of mv
	wMeta                        // permissions or ownership changed: chmod, chown
	wTouch                       // created when missing, else only its times change
	wMkdir                       // a directory created
	wInto                        // a directory that receives files named by the command: tar -x -C, unzip -d, rsync
	wCreate                      // a new file or directory, never an existing one replaced: git clone DIR, wget URL
)

// A write is one place a command changes.
type write struct {
	kind writeKind
	t    Target
	// follow is set when a symlink in the last component is written
	// through (cp, >, tee); rm, mv, ln and mkdir act on the link itself.
	follow bool
	// recursive marks a recursive delete (rm -r, find -delete), whose
	// blast radius the filesystem rules judge.
	recursive bool
	// tree is set when the whole tree under the path goes (rm -r, find
	// -delete, mv of a directory): what is below it goes too.
	tree bool
	// persist marks a write that installs something that runs later
	// without being asked (a crontab, an enabled service), whatever path
	// it lands in.
	persist bool
}

// writer says, for one program, which of its operands and option values
// are write targets and what kind. One table for every program: the
// boundary, credential and self-defence rules all judge what it yields.
type writer struct {
	spec OptSpec
	// when limits the table to the mode in which the program writes
	// (sed -i, tar -x); nil means always.
	when func(a *Args) bool
	ops  operands
	kind writeKind
	// kindOf picks the kind from the options (tee -a appends).
	kindOf   func(a *Args) writeKind
	noFollow bool
	// opts are options whose values are write targets.
	opts []optTarget
	// extra handles what the table cannot say (dd of=, tar's modes).
	extra func(x *Ctx, c *parse.Command, a *Args, ws []write) []write
}

// operands selects which operands are targets.
type operands uint8

const (
	opsNone       operands = iota
	opsAll                 // every operand: rm FILE…, touch FILE…
	opsAfterFirst          // chmod MODE FILE…, chown OWNER FILE…
	opsDest                // cp/mv/install/ln: the last operand, or -t DIR
	opsLast                // rsync SRC… DEST
)

// optTarget is an option whose value is a write target.
type optTarget struct {
	short byte
	long  string
	kind  writeKind
}

var (
	cpSpec    = OptSpec{Short: "tS", Long: []string{"target-directory", "suffix"}}
	lnSpec    = OptSpec{Short: "tS", Long: []string{"target-directory", "suffix"}}
	instSpec  = OptSpec{Short: "mogStZ", Long: []string{"mode", "owner", "group", "suffix", "target-directory", "strip-program"}}
	touchSpec = OptSpec{Short: "drt", Long: []string{"date", "reference", "time"}}
	curlSpec  = OptSpec{
		Short: "AbcCdDeEFHKmoPQrTtuUwxXyYz",
		Long: []string{"user-agent", "cookie", "cookie-jar", "continue-at", "data", "data-ascii", "data-binary",
			"data-raw", "data-urlencode", "dump-header", "referer", "cert", "form", "form-string", "header",
			"config", "max-time", "output", "output-dir", "ftp-port", "quote", "range", "upload-file",
			"telnet-option", "user", "proxy-user", "write-out", "proxy", "request", "speed-time", "speed-limit",
			"time-cond", "url", "json", "trace", "trace-ascii", "stderr", "libcurl", "etag-save", "etag-compare",
			"key", "cacert", "capath", "connect-timeout", "retry", "resolve", "connect-to", "interface",
			"oauth2-bearer", "unix-socket", "aws-sigv4", "variable"},
	}
	wgetSpec = OptSpec{
		Short: "OoaPeUtTwQlADRiIXB",
		Long: []string{"output-document", "output-file", "append-output", "directory-prefix", "execute",
			"user-agent", "tries", "timeout", "wait", "quota", "level", "accept", "reject", "domains",
			"include-directories", "exclude-directories", "input-file", "base", "header", "post-data",
			"post-file", "body-data", "body-file", "method", "user", "password", "load-cookies", "save-cookies"},
	}
	rsyncSpec = OptSpec{
		Short: "efTBM",
		Long: []string{"rsh", "filter", "temp-dir", "block-size", "remote-option", "exclude", "include",
			"files-from", "exclude-from", "include-from", "rsync-path", "partial-dir", "backup-dir",
			"compare-dest", "copy-dest", "link-dest", "chmod", "chown", "log-file", "password-file", "port",
			"timeout", "bwlimit", "suffix", "max-size", "min-size", "out-format", "info", "debug"},
	}
	tarSpec = OptSpec{
		Short: "fCTXbHKNgVLF",
		Long: []string{"file", "directory", "files-from", "exclude-from", "exclude", "format",
			"use-compress-program", "owner", "group", "mode", "transform", "xform", "newer", "after-date",
			"label", "blocking-factor", "starting-file", "listed-incremental", "tape-length", "info-script"},
	}
)

// writers is the write-target table, by program name after wrapper
// peeling. Programs absent from it write nothing the boundary judges
// (package managers write their caches; that is routine).
var writers = map[string]*writer{
	"cp":      {spec: cpSpec, ops: opsDest, kind: wWrite},
	"mv":      {spec: cpSpec, ops: opsDest, kind: wWrite, noFollow: true, extra: mvSources},
	"install": {spec: instSpec, ops: opsDest, kind: wWrite, noFollow: true, extra: installDirs},
	"ln":      {spec: lnSpec, ops: opsDest, kind: wWrite, noFollow: true},
	"rsync":   {spec: rsyncSpec, ops: opsLast, kind: wInto},
	"rm":      {ops: opsAll, kind: wDelete, noFollow: true},
	"rmdir":   {ops: opsAll, kind: wDelete, noFollow: true},
	"unlink":  {ops: opsAll, kind: wDelete, noFollow: true},
	"shred": {spec: OptSpec{Short: "ns", Long: []string{"iterations", "size", "random-source"}},
		ops: opsAll, kind: wModify},
	"truncate": {spec: OptSpec{Short: "sr", Long: []string{"size", "reference"}}, ops: opsAll, kind: wWrite},
	"touch":    {spec: touchSpec, ops: opsAll, kind: wTouch},
	"mkdir":    {spec: OptSpec{Short: "m", Long: []string{"mode"}}, ops: opsAll, kind: wMkdir, noFollow: true},
	"chmod":    {extra: chmodTargets},
	"chown":    {spec: OptSpec{Long: []string{"from", "reference"}}, ops: opsAfterFirst, kind: wMeta},
	"chgrp":    {spec: OptSpec{Long: []string{"reference"}}, ops: opsAfterFirst, kind: wMeta},
	"tee":      {ops: opsAll, kindOf: teeKind},
	"dd":       {extra: ddTargets},
	"sed": {spec: OptSpec{Short: "efl", Long: []string{"expression", "file", "line-length"}},
		when: func(a *Args) bool { return a.Has("i", "in-place") }, extra: scriptThenFiles("ef", "expression", "file")},
	"perl": {spec: OptSpec{Short: "eE"}, when: func(a *Args) bool { return a.Short("i") },
		extra: scriptThenFiles("eE")},
	"dos2unix": {ops: opsAll, kind: wModify},
	"unix2dos": {ops: opsAll, kind: wModify},
	"patch": {spec: OptSpec{Short: "oidpBrDFVYzg", Long: []string{"output", "input", "directory", "strip",
		"prefix", "reject-file", "ifdef", "fuzz", "version-control", "basename-prefix", "suffix", "get"}},
		opts: []optTarget{{'o', "output", wWrite}, {'r', "reject-file", wWrite}}, extra: patchTargets},
	"sort": {spec: OptSpec{Short: "oktTS", Long: []string{"output", "key", "field-separator", "temporary-directory",
		"buffer-size", "files0-from", "parallel", "batch-size", "compress-program", "sort", "random-source"}},
		opts: []optTarget{{'o', "output", wWrite}}},
	"curl": {spec: curlSpec, opts: []optTarget{
		{'o', "output", wWrite}, {'D', "dump-header", wWrite}, {'c', "cookie-jar", wWrite},
		{0, "output-dir", wInto}, {0, "trace", wWrite}, {0, "trace-ascii", wWrite}, {0, "stderr", wWrite},
		{0, "libcurl", wWrite}, {0, "etag-save", wWrite}}, extra: curlRemoteName},
	"wget": {spec: wgetSpec, opts: []optTarget{
		{'O', "output-document", wWrite}, {'o', "output-file", wWrite}, {'a', "append-output", wAppend},
		{0, "save-cookies", wWrite}}, extra: wgetDefault},
	"tar":        {spec: tarSpec, extra: tarTargets},
	"unzip":      {spec: OptSpec{Short: "dP"}, extra: unzipTargets},
	"git":        {spec: gitGlobal, extra: gitTargets},
	"crontab":    {spec: OptSpec{Short: "u"}, extra: crontabTargets},
	"ssh-keygen": {spec: OptSpec{Short: "abCDEFfIJjMmNnOPRrSstVwYZz"}, extra: keygenTargets},
	"find":       {extra: findTargets},
	"go":         {extra: goTargets},
	"systemctl":  {extra: serviceTargets},
	"launchctl":  {extra: serviceTargets},
	"at":         {extra: atTargets},
	"zip": {spec: OptSpec{Short: "bnPtxi", Long: []string{"temp-path", "suffixes", "password", "exclude", "include"}},
		extra: zipTargets},
	"batch": {extra: atTargets},
}

func init() {
	for _, cc := range []string{"cc", "gcc", "g++", "c++", "clang", "clang++"} {
		writers[cc] = &writer{extra: ccTargets}
	}
}

// writes lists every place a command writes: its write redirections and
// what the table says of its arguments.
func (x *Ctx) writes(c *parse.Command) []write {
	var ws []write
	for i := range c.Redirs {
		r := &c.Redirs[i]
		if !r.Write || r.Target.Value == "" {
			continue
		}
		k := wWrite
		switch {
		case r.Append:
			k = wAppend
		case r.Read: // <> opens for reading and writing, creating, not truncating
			k = wAppend
		}
		ws = append(ws, write{kind: k, t: x.target(c, r.Target), follow: true})
	}
	if c.NameDynamic || c.Function {
		return ws
	}
	wr := writers[c.Name]
	if wr == nil {
		return ws
	}
	a := ParseArgs(c.Args, wr.spec)
	if wr.when != nil && !wr.when(a) {
		return ws
	}
	kind := wr.kind
	if wr.kindOf != nil {
		kind = wr.kindOf(a)
	}
	add := func(k writeKind, t Target) {
		ws = append(ws, write{kind: k, t: t, follow: !wr.noFollow && k != wDelete && k != wMkdir})
	}
	switch wr.ops {
	case opsAll:
		for _, op := range a.Operands {
			add(kind, x.target(c, op))
		}
	case opsAfterFirst:
		if len(a.Operands) > 1 {
			for _, op := range a.Operands[1:] {
				add(kind, x.target(c, op))
			}
		}
	case opsDest:
		for _, t := range x.destTargets(c, a, c.Name == "ln") {
			add(kind, t)
		}
	case opsLast:
		if n := len(a.Operands); n > 1 && !remoteOperand(a.Operands[n-1].Value) {
			add(kind, x.target(c, a.Operands[n-1]))
		}
	}
	for _, o := range wr.opts {
		for _, v := range optValues(a, o.short, o.long) {
			if v != "-" {
				add(o.kind, x.target(c, valueWord(v)))
			}
		}
	}
	if wr.extra != nil {
		ws = wr.extra(x, c, a, ws)
	}
	if c.Name == "rm" && a.Has("rR", "recursive") {
		for i := range ws {
			if ws[i].kind == wDelete {
				ws[i].recursive, ws[i].tree = true, true
			}
		}
	}
	return ws
}

// optValues returns the values of a short and a long option.
func optValues(a *Args, short byte, long string) []string {
	var vs []string
	if short != 0 {
		vs = append(vs, a.ShortValues(short)...)
	}
	if long != "" {
		vs = append(vs, a.LongValues(long)...)
	}
	return vs
}

// lastValue is the last value given to an option, or "".
func lastValue(a *Args, short byte, long string) string {
	vs := optValues(a, short, long)
	if len(vs) == 0 {
		return ""
	}
	return vs[len(vs)-1]
}

// valueWord makes an option's value a word; the value is dynamic when it
// holds an unknown part.
func valueWord(v string) parse.Word {
	return parse.Word{Value: v, Dynamic: strings.Contains(v, parse.Unknown)}
}

// destTargets are the files cp, mv, install and ln create: the last
// operand, or each source's name inside it when it is a directory (-t
// DIR, a trailing slash, several sources, or an existing directory).
func (x *Ctx) destTargets(c *parse.Command, a *Args, ln bool) []Target {
	ops := a.Operands
	if d := lastValue(a, 't', "target-directory"); d != "" {
		return x.inside(c, x.target(c, valueWord(d)), ops)
	}
	if len(ops) == 0 {
		return nil
	}
	if len(ops) == 1 {
		if ln { // ln TARGET makes a link named after it in the working directory
			return x.inside(c, x.target(c, parse.Word{Value: "."}), ops)
		}
		return nil
	}
	dest, srcs := ops[len(ops)-1], ops[:len(ops)-1]
	dt := x.target(c, dest)
	if !dt.Known || dt.Glob || a.Has("T", "no-target-directory") {
		return []Target{dt}
	}
	if len(srcs) > 1 || strings.HasSuffix(dest.Value, "/") || x.isDir(dt) {
		return x.inside(c, dt, srcs)
	}
	return []Target{dt}
}

// inside names each source's file in directory dir. A source whose name is
// not known lands somewhere in dir.
func (x *Ctx) inside(_ *parse.Command, dir Target, srcs []parse.Word) []Target {
	if !dir.Known {
		return []Target{dir}
	}
	out := make([]Target, 0, len(srcs))
	for _, s := range srcs {
		base := filepath.Base(s.Value)
		if !s.Literal() || base == "/" || base == "." || base == ".." {
			out = append(out, Target{Word: dir.Word, Path: dir.Path, raw: dir.raw, Known: true, Glob: true})
			continue
		}
		raw := strings.TrimRight(dir.raw, "/") + "/" + base
		out = append(out, Target{Word: s, Path: filepath.Clean(raw), raw: raw, Known: true})
	}
	return out
}

// isDir reports whether a target is an existing directory.
func (x *Ctx) isDir(t Target) bool {
	p, ok := x.lookup(t.raw)
	if !ok {
		return false
	}
	fi, err := x.fs().Lstat(p)
	return err == nil && fi.IsDir()
}

// remoteOperand reports whether a copy operand names another machine:
// [user@]host:path or rsync://host/path. A colon after a slash is part of
// a local path.
func remoteOperand(v string) bool {
	if strings.HasPrefix(v, "rsync://") {
		return true
	}
	i := strings.IndexByte(v, ':')
	if i <= 0 {
		return false
	}
	return !strings.ContainsRune(v[:i], '/')
}

func teeKind(a *Args) writeKind {
	if a.Has("a", "append") {
		return wAppend
	}
	return wWrite
}

// mvSources: moving a file away deletes it where it was.
func mvSources(x *Ctx, c *parse.Command, a *Args, ws []write) []write {
	srcs := a.Operands
	if lastValue(a, 't', "target-directory") == "" {
		if len(srcs) < 2 {
			return ws
		}
		srcs = srcs[:len(srcs)-1]
	}
	for _, s := range srcs {
		ws = append(ws, write{kind: wDelete, t: x.target(c, s), tree: true})
	}
	return ws
}

// installDirs: install -d creates its operands as directories.
func installDirs(x *Ctx, c *parse.Command, a *Args, ws []write) []write {
	if !a.Has("d", "directory") {
		return ws
	}
	ws = ws[:0]
	for _, op := range a.Operands {
		ws = append(ws, write{kind: wMkdir, t: x.target(c, op)})
	}
	return ws
}

// chmodTargets: chmod's mode may look like an option (chmod -x f), so its
// words are read by hand: known flags, then the mode unless --reference
// gave one, then the files.
func chmodTargets(x *Ctx, c *parse.Command, _ *Args, ws []write) []write {
	haveMode := false
	for i := 0; i < len(c.Args); i++ {
		v := c.Args[i].Value
		switch {
		case v == "--":
			for _, w := range c.Args[i+1:] {
				if !haveMode {
					haveMode = true
					continue
				}
				ws = append(ws, write{kind: wMeta, t: x.target(c, w), follow: true})
			}
			return ws
		case strings.HasPrefix(v, "--reference="):
			haveMode = true
		case v == "--reference" && i+1 < len(c.Args):
			haveMode = true
			i++
		case strings.HasPrefix(v, "--"):
		case !haveMode && isChmodFlags(v):
		case !haveMode:
			haveMode = true
		default:
			ws = append(ws, write{kind: wMeta, t: x.target(c, c.Args[i]), follow: true})
		}
	}
	return ws
}

// isChmodFlags reports whether a word is a cluster of chmod's own flags
// (-R, -v, -c, -f) rather than a mode such as -x or -w.
func isChmodFlags(v string) bool {
	if len(v) < 2 || v[0] != '-' {
		return false
	}
	for _, r := range v[1:] {
		if !strings.ContainsRune("Rvcf", r) {
			return false
		}
	}
	return true
}

// ddTargets: dd of=FILE.
func ddTargets(x *Ctx, c *parse.Command, _ *Args, ws []write) []write {
	for _, w := range c.Args {
		if v, ok := strings.CutPrefix(w.Value, "of="); ok && v != "" {
			w.Value = v
			ws = append(ws, write{kind: wWrite, t: x.target(c, w), follow: true})
		}
	}
	return ws
}

// scriptThenFiles: sed and perl take their program as the first operand
// unless an option gave it; the operands after it are the edited files.
func scriptThenFiles(shorts string, longs ...string) func(*Ctx, *parse.Command, *Args, []write) []write {
	return func(x *Ctx, c *parse.Command, a *Args, ws []write) []write {
		ops := a.Operands
		if !a.Has(shorts, longs...) && len(ops) > 0 {
			ops = ops[1:]
		}
		for _, op := range ops {
			ws = append(ws, write{kind: wModify, t: x.target(c, op), follow: true})
		}
		return ws
	}
}

// patchTargets: patch FILE edits FILE; -d DIR works in DIR.
func patchTargets(x *Ctx, c *parse.Command, a *Args, ws []write) []write {
	if len(a.Operands) > 0 && lastValue(a, 'o', "output") == "" {
		ws = append(ws, write{kind: wModify, t: x.target(c, a.Operands[0]), follow: true})
	}
	if d := lastValue(a, 'd', "directory"); d != "" {
		ws = append(ws, write{kind: wInto, t: x.target(c, valueWord(d))})
	}
	return ws
}

// curlRemoteName: -O saves each URL under its last path segment, in
// --output-dir or the working directory, replacing what is there; -J
// takes the name from the server, which cannot be known.
func curlRemoteName(x *Ctx, c *parse.Command, a *Args, ws []write) []write {
	if !a.Has("OJ", "remote-name", "remote-name-all", "remote-header-name") {
		return ws
	}
	dir := lastValue(a, 0, "output-dir")
	if dir == "" {
		dir = "."
	}
	if a.Has("J", "remote-header-name") {
		return append(ws, write{kind: wInto, t: x.target(c, valueWord(dir))})
	}
	for _, u := range append(a.Operands, urlWords(a.LongValues("url"))...) {
		if name := urlName(u.Value, ""); name != "" {
			ws = append(ws, write{kind: wWrite, t: x.target(c, valueWord(dir+"/"+name)), follow: true})
		}
	}
	return ws
}

// wgetDefault: without -O, wget saves each URL under its last path
// segment (index.html for none) in -P DIR or the working directory, and
// never replaces a file: it picks name.1 instead.
func wgetDefault(x *Ctx, c *parse.Command, a *Args, ws []write) []write {
	if a.Has("O", "output-document", "spider") {
		return ws
	}
	dir := lastValue(a, 'P', "directory-prefix")
	if dir == "" {
		dir = "."
	}
	for _, u := range a.Operands {
		if name := urlName(u.Value, "index.html"); name != "" {
			ws = append(ws, write{kind: wCreate, t: x.target(c, valueWord(dir+"/"+name)), follow: true})
		}
	}
	return ws
}

func urlWords(vs []string) []parse.Word {
	out := make([]parse.Word, len(vs))
	for i, v := range vs {
		out[i] = valueWord(v)
	}
	return out
}

// urlName is the file name a download takes from its URL: the last path
// segment, without query or fragment; empty gives dflt. A name the
// analysis cannot know, or one that is no file name, gives "".
func urlName(u, dflt string) string {
	if strings.Contains(u, parse.Unknown) {
		return ""
	}
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
		if j := strings.IndexByte(u, '/'); j >= 0 {
			u = u[j:]
		} else {
			u = ""
		}
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	name := u[strings.LastIndexByte(u, '/')+1:]
	if name == "" {
		name = dflt
	}
	if name == "." || name == ".." {
		return ""
	}
	return name
}

// tarTargets: extracting writes into -C DIR (or the working directory);
// creating writes the archive -f FILE. The old form puts the letters in
// the first word without a dash (tar xzf a.tgz -C /).
func tarTargets(x *Ctx, c *parse.Command, a *Args, ws []write) []write {
	if len(c.Args) > 0 {
		if first := c.Args[0].Value; first != "" && first[0] != '-' && isLetters(first) {
			args := append([]parse.Word{{Value: "-" + first, Pos: c.Args[0].Pos}}, c.Args[1:]...)
			a = ParseArgs(args, tarSpec)
		}
	}
	switch {
	case a.Has("x", "extract", "get"):
		dir := lastValue(a, 'C', "directory")
		if dir == "" {
			dir = "."
		}
		ws = append(ws, write{kind: wInto, t: x.target(c, valueWord(dir))})
	case a.Has("cru", "create", "append", "update"):
		if f := lastValue(a, 'f', "file"); f != "" && f != "-" && !remoteOperand(f) {
			ws = append(ws, write{kind: wWrite, t: x.target(c, valueWord(f)), follow: true})
		}
	}
	return ws
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if (s[i] < 'a' || s[i] > 'z') && (s[i] < 'A' || s[i] > 'Z') {
			return false
		}
	}
	return true
}

// unzipTargets: unzip writes into -d DIR, else the working directory;
// -l, -t, -v, -p and -Z only read.
func unzipTargets(x *Ctx, c *parse.Command, a *Args, ws []write) []write {
	if a.Short("ltvpZ") {
		return ws
	}
	dir := lastValue(a, 'd', "")
	if dir == "" {
		dir = "."
	}
	return append(ws, write{kind: wInto, t: x.target(c, valueWord(dir))})
}

var gitCloneSpec = OptSpec{Short: "bocujn", Long: []string{"branch", "origin", "config", "upload-pack", "jobs",
	"depth", "reference", "reference-if-able", "separate-git-dir", "template", "filter", "shallow-since",
	"shallow-exclude", "server-option", "bundle-uri", "ref-format"}}

// gitTargets: git clone URL [DIR] creates DIR, else a directory named
// after the URL, in the working directory or git -C's. git config is
// judged by setting, not as a file write (boundary.go).
func gitTargets(x *Ctx, c *parse.Command, _ *Args, ws []write) []write {
	sub, rest := gitSub(c)
	if sub != "clone" {
		return ws
	}
	a := ParseArgs(rest, gitCloneSpec)
	base := "."
	if d := ParseArgs(c.Args, gitGlobal).ShortValues('C'); len(d) > 0 {
		base = d[len(d)-1]
	}
	switch len(a.Operands) {
	case 0:
		return ws
	case 1:
		name := strings.TrimSuffix(urlName(strings.TrimRight(a.Operands[0].Value, "/"), ""), ".git")
		if i := strings.LastIndexByte(name, ':'); i >= 0 { // host:repo
			name = name[i+1:]
		}
		if name == "" {
			return append(ws, write{kind: wInto, t: x.target(c, valueWord(base))})
		}
		return append(ws, write{kind: wCreate, t: x.target(c, valueWord(base+"/"+name))})
	}
	dir := a.Operands[1]
	if !filepath.IsAbs(dir.Value) && base != "." {
		dir.Value = base + "/" + dir.Value
	}
	return append(ws, write{kind: wCreate, t: x.target(c, dir)})
}

// crontabTargets: installing (crontab FILE, crontab -), editing (-e) or
// removing (-r) the user's crontab changes what runs on a schedule.
func crontabTargets(x *Ctx, c *parse.Command, a *Args, ws []write) []write {
	if a.Short("l") && !a.Short("er") {
		return ws
	}
	return append(ws, write{kind: wWrite, persist: true, t: Target{Word: parse.Word{Value: "crontab"}}})
}

// keygenTargets: ssh-keygen -f FILE writes a key pair there, unless the
// mode only reads the file (-l, -y, -F, -L, -Q, -B).
func keygenTargets(x *Ctx, c *parse.Command, a *Args, ws []write) []write {
	if a.Short("lyFLQBeiD") {
		return ws
	}
	f := lastValue(a, 'f', "")
	if f == "" {
		return ws
	}
	t := x.target(c, valueWord(f))
	ws = append(ws, write{kind: wWrite, t: t, follow: true})
	if t.Known && !a.Short("R") {
		pub := valueWord(f + ".pub")
		ws = append(ws, write{kind: wWrite, t: x.target(c, pub), follow: true})
	}
	return ws
}

// findTargets: find's -delete removes what it finds under its starting
// points; -fprint FILE and friends write FILE.
func findTargets(x *Ctx, c *parse.Command, _ *Args, ws []write) []write {
	var starts []parse.Word
	i := 0
	for ; i < len(c.Args); i++ {
		v := c.Args[i].Value
		if v == "-H" || v == "-L" || v == "-P" {
			continue
		}
		if strings.HasPrefix(v, "-") || v == "(" || v == "!" || v == "\\(" {
			break
		}
		starts = append(starts, c.Args[i])
	}
	if len(starts) == 0 {
		starts = []parse.Word{{Value: "."}}
	}
	for ; i < len(c.Args); i++ {
		switch c.Args[i].Value {
		case "-delete":
			for _, s := range starts {
				ws = append(ws, write{kind: wDelete, t: x.target(c, s), recursive: true, tree: true})
			}
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if i+1 < len(c.Args) {
				ws = append(ws, write{kind: wWrite, t: x.target(c, c.Args[i+1]), follow: true})
			}
		}
	}
	return ws
}

// goTargets: go build -o FILE, go test -c -o FILE.
func goTargets(x *Ctx, c *parse.Command, _ *Args, ws []write) []write {
	if len(c.Args) == 0 {
		return ws
	}
	switch c.Args[0].Value {
	case "build", "test", "install":
	default:
		return ws
	}
	return dashO(x, c, c.Args[1:], ws)
}

// ccTargets: cc -o FILE (or -oFILE).
func ccTargets(x *Ctx, c *parse.Command, _ *Args, ws []write) []write {
	return dashO(x, c, c.Args, ws)
}

func dashO(x *Ctx, c *parse.Command, args []parse.Word, ws []write) []write {
	for i, w := range args {
		v := w.Value
		switch {
		case (v == "-o" || v == "--o") && i+1 < len(args):
			ws = append(ws, write{kind: wWrite, t: x.target(c, args[i+1]), follow: true})
		case strings.HasPrefix(v, "-o="):
			w.Value = v[3:]
			ws = append(ws, write{kind: wWrite, t: x.target(c, w), follow: true})
		}
	}
	return ws
}

// serviceTargets: enabling a service (systemctl enable, launchctl load)
// makes it start at every boot or login.
func serviceTargets(_ *Ctx, c *parse.Command, _ *Args, ws []write) []write {
	for _, w := range c.Args {
		switch w.Value {
		case "enable", "reenable", "link", "edit", "add-wants", "add-requires", "set-default", "preset",
			"load", "bootstrap":
			return append(ws, write{kind: wWrite, persist: true, t: Target{Word: w}})
		}
	}
	return ws
}

// atTargets: at and batch schedule a command to run later, unless they
// only list (-l), remove (-r, -d) or show (-c) jobs.
func atTargets(_ *Ctx, c *parse.Command, _ *Args, ws []write) []write {
	a := ParseArgs(c.Args, OptSpec{Short: "fqtM"})
	if a.Short("lrdc") {
		return ws
	}
	return append(ws, write{kind: wWrite, persist: true, t: Target{Word: parse.Word{Value: c.Name}}})
}

// zipTargets: zip ARCHIVE FILE… writes the archive.
func zipTargets(x *Ctx, c *parse.Command, a *Args, ws []write) []write {
	if len(a.Operands) == 0 || a.Operands[0].Value == "-" {
		return ws
	}
	return append(ws, write{kind: wWrite, t: x.target(c, a.Operands[0]), follow: true})
}
