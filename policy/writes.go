package policy

import (
	"path/filepath"
	"strings"
	"sync"

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
	// tighten marks a permission change that only takes access away
	// (chmod 600, chmod go-rwx): outside the roots it is a fix, not a risk.
	tighten bool
	// selfOnly marks a delete that only the self-defence rules judge: one
	// whose other effects the program's own rules already weigh (find
	// -exec rm, rsync --delete, git stash --all, git clean -x).
	selfOnly bool
	// names, when set, are the only names a tree delete takes below its
	// path (find -name PATTERN): patterns, as find matches them.
	names []string
}

// writer says, for one program, which of its targetOps and option values
// are write targets and what kind. One table for every program: the
// boundary, credential and self-defence rules all judge what it yields.
type writer struct {
	spec parse.OptSpec
	// specOf, when set, gives spec on first use (a program table row).
	specOf func() parse.OptSpec
	// when limits the table to the mode in which the program writes
	// (sed -i, tar -x); nil means always.
	when func(c *parse.Command, a *parse.Args) bool
	ops  targetOps
	kind writeKind
	// kindOf picks the kind from the options (tee -a appends).
	kindOf   func(a *parse.Args) writeKind
	noFollow bool
	// opts are options whose values are write targets.
	opts []optTarget
	// extra handles what the table cannot say (dd of=, tar's modes).
	extra func(x *Ctx, c *parse.Command, a *parse.Args, ws []write) []write
}

// notDryRun: rsync -n/--dry-run only lists what it would do.
func notDryRun(_ *parse.Command, a *parse.Args) bool { return !a.Has("n", "dry-run") }

// targetOps selects which operands are targets.
type targetOps uint8

const (
	opsNone       targetOps = iota
	opsAll                  // every operand: rm FILE…, touch FILE…
	opsAfterFirst           // chmod MODE FILE…, chown OWNER FILE…
	opsDest                 // cp/mv/install/ln: the last operand, or -t DIR
	opsLast                 // rsync SRC… DEST
)

// optTarget is an option whose value is a write target.
type optTarget struct {
	short byte
	long  string
	kind  writeKind
}

var (
	lnSpec    = parse.OptSpec{Short: "tS", Long: []string{"target-directory", "suffix"}}
	instSpec  = tableSpec("install")
	touchSpec = parse.OptSpec{Short: "drt", Long: []string{"date", "reference", "time"}}
	// curl's, wget's and tar's options are the program table's, which
	// also gives their output files the written role (roleWrites).
	curlSpec = tableSpec("curl")
	wgetSpec = tableSpec("wget")
	tarSpec  = tableSpec("tar")
)

// tableSpec returns the options of a program table row, read on first
// use: a row is compiled when first looked up, and a command that names
// none of these programs should not pay for them.
func tableSpec(name string) func() parse.OptSpec {
	return sync.OnceValue(func() parse.OptSpec { return parse.LookupProgram(name).Spec() })
}

// writers is the write-target table, by program name after wrapper
// peeling. Programs absent from it write nothing the boundary judges
// (package managers write their caches; that is routine).
var writers = sync.OnceValue(func() map[string]*writer {
	ws := map[string]*writer{
		"cp":       {specOf: tableSpec("cp"), ops: opsDest, kind: wWrite},
		"mv":       {specOf: tableSpec("mv"), ops: opsDest, kind: wWrite, noFollow: true, extra: mvSources},
		"install":  {specOf: instSpec, ops: opsDest, kind: wWrite, noFollow: true, extra: installDirs},
		"ln":       {spec: lnSpec, ops: opsDest, kind: wWrite, noFollow: true},
		"rsync":    {specOf: rsyncSpec, ops: opsLast, kind: wInto, when: notDryRun, extra: rsyncFileDest},
		"shred":    {specOf: tableSpec("shred"), ops: opsAll, kind: wModify},
		"truncate": {specOf: tableSpec("truncate"), ops: opsAll, kind: wWrite},
		"touch":    {spec: touchSpec, ops: opsAll, kind: wTouch},
		"mkdir":    {spec: parse.OptSpec{Short: "m", Long: []string{"mode"}}, ops: opsAll, kind: wMkdir, noFollow: true},
		"chmod":    {extra: chmodTargets},
		"chown":    {specOf: tableSpec("chown"), ops: opsAfterFirst, kind: wMeta},
		"chgrp":    {specOf: tableSpec("chgrp"), ops: opsAfterFirst, kind: wMeta},
		"dd":       {extra: ddTargets},
		"sed": {spec: parse.OptSpec{Short: "efl", Long: []string{"expression", "file", "line-length"}},
			when: func(c *parse.Command, _ *parse.Args) bool { return c.Flag("edits") }, extra: scriptThenFiles("ef", "expression", "file")},
		"perl": {spec: parse.OptSpec{Short: "eE"}, when: func(_ *parse.Command, a *parse.Args) bool { return a.Short("i") },
			extra: scriptThenFiles("eE")},
		"dos2unix": {ops: opsAll, kind: wModify},
		"unix2dos": {ops: opsAll, kind: wModify},
		"patch": {spec: parse.OptSpec{Short: "oidpBrDFVYzg", Long: []string{"output", "input", "directory", "strip",
			"prefix", "reject-file", "ifdef", "fuzz", "version-control", "basename-prefix", "suffix", "get"}},
			opts: []optTarget{{'o', "output", wWrite}, {'r', "reject-file", wWrite}}, extra: patchTargets},
		"curl":       {specOf: curlSpec, extra: curlRemoteName},
		"wget":       {specOf: wgetSpec, extra: wgetDefault},
		"tar":        {specOf: tarSpec, extra: tarTargets},
		"unzip":      {spec: parse.OptSpec{Short: "dP"}, extra: unzipTargets},
		"git":        {extra: gitTargets},
		"crontab":    {specOf: tableSpec("crontab"), extra: crontabTargets},
		"ssh-keygen": {spec: parse.OptSpec{Short: "abCDEFfIJjMmNnOPRrSstVwYZz"}, extra: keygenTargets},
		"find":       {extra: findTargets},
		"go":         {extra: goTargets},
		"systemctl":  {extra: serviceTargets},
		"launchctl":  {extra: serviceTargets},
		"at":         {extra: atTargets},
		"direnv":     {extra: direnvTargets},
		"zip": {spec: parse.OptSpec{Short: "bnPtxi", Long: []string{"temp-path", "suffixes", "password", "exclude", "include"}},
			extra: zipTargets},
		"batch": {extra: atTargets},
	}
	for _, cc := range []string{"cc", "gcc", "g++", "c++", "clang", "clang++"} {
		ws[cc] = &writer{extra: ccTargets}
	}
	return ws
})

// writes lists every place a command writes: its write redirections and
// what the table says of its arguments.
func (x *Ctx) writes(c *parse.Command) []write {
	var ws []write
	for i := range c.Redirs {
		r := &c.Redirs[i]
		if !r.Write || r.Target.Value == "" || r.Pipe {
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
	ws = roleWrites(x, c, ws)
	wr := writers()[c.Name]
	if wr == nil {
		return ws
	}
	spec := wr.spec
	if wr.specOf != nil {
		spec = wr.specOf()
	}
	a := parse.ParseArgs(c.Args, spec)
	if wr.when != nil && !wr.when(c, a) {
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
	return ws
}

// noNames is a names filter that matches no file: the tree delete takes
// nothing of what is below its path.
var noNames = []string{"/"}

// optValues returns the values of a short and a long option.
func optValues(a *parse.Args, short byte, long string) []string {
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
func lastValue(a *parse.Args, short byte, long string) string {
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
func (x *Ctx) destTargets(c *parse.Command, a *parse.Args, ln bool) []Target {
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

// roleWrites adds the files the program table says the command writes
// or deletes. A delete by a command given a flag meaning "recursive"
// (rm -r) takes the tree below the path.
func roleWrites(x *Ctx, c *parse.Command, ws []write) []write {
	for _, ra := range c.Roles {
		if ra.Role == parse.RoleDeleted {
			w := write{kind: wDelete, t: x.target(c, ra.Word)}
			if c.Flag("recursive") {
				w.recursive, w.tree = true, true
				if v := ra.Word.Value; v == "." || v == ".." || strings.HasSuffix(v, "/.") || strings.HasSuffix(v, "/..") {
					w.names = noNames // rm refuses to remove . and ..
				}
			}
			ws = append(ws, w)
			continue
		}
		if ra.Role != parse.RoleWritten || ra.Word.Value == "-" {
			continue
		}
		k := wWrite
		switch {
		case ra.Lang == "append", ra.Lang == "" && c.Flag("append"): // tee -a
			k = wAppend
		case ra.Lang == "into":
			k = wInto
		}
		ws = append(ws, write{kind: k, t: x.target(c, ra.Word), follow: k != wInto})
	}
	return ws
}
