package policy

import (
	"path/filepath"
	"slices"
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

// writer says, for one program, which of its operands are write targets
// and what kind. One table for every program: the boundary, credential
// and self-defence rules all judge what it yields. The operands and the
// option values are those the program's row in the program table sorts
// out (its RoleData operands, Command.OptionValues, Command.Flag).
type writer struct {
	// when limits the table to the mode in which the program writes
	// (sed -i, rsync without -n); nil means always.
	when     func(c *parse.Command) bool
	ops      targetOps
	kind     writeKind
	noFollow bool
	// extra handles what the table cannot say (dd of=, tar's modes).
	extra func(x *Ctx, c *parse.Command, ops []parse.Word, ws []write) []write
}

// targetOps selects which operands are targets.
type targetOps uint8

const (
	opsNone targetOps = iota
	opsAll            // every operand: rm FILE…, touch FILE…
	opsDest           // cp/mv/install/ln: the last operand, or -t DIR
	opsLast           // rsync SRC… DEST
)

// writerRows is the write-target table, by program name after wrapper
// peeling. Programs absent from it write nothing the boundary judges
// (package managers write their caches; that is routine). It is static
// data, read by writerOf: a map of it was built by every command's first
// decision, in a fresh process each command's.
var writerRows = [...]struct {
	name string
	w    writer
}{
	{"cp", writer{ops: opsDest, kind: wWrite}},
	{"mv", writer{ops: opsDest, kind: wWrite, noFollow: true, extra: mvSources}},
	{"install", writer{ops: opsDest, kind: wWrite, noFollow: true, extra: installDirs}},
	{"ln", writer{ops: opsDest, kind: wWrite, noFollow: true}},
	{"rsync", writer{ops: opsLast, kind: wInto, when: func(c *parse.Command) bool { return !c.Flag("dry-run") }, extra: rsyncFileDest}},
	{"shred", writer{ops: opsAll, kind: wModify}},
	{"truncate", writer{ops: opsAll, kind: wWrite}},
	{"touch", writer{ops: opsAll, kind: wTouch}},
	{"mkdir", writer{ops: opsAll, kind: wMkdir, noFollow: true}},
	{"chmod", writer{extra: chmodTargets}},
	{"chown", writer{extra: chownTargets}},
	{"chgrp", writer{extra: chownTargets}},
	// dd of=FILE is a written role of its row.
	// sed -i and perl -i: the files after the program, which their
	// rows give RoleRead.
	{"sed", writer{when: func(c *parse.Command) bool { return c.Flag("edits") }, extra: editsInPlace}},
	{"perl", writer{when: func(c *parse.Command) bool { return c.Flag("edits") }, extra: editsInPlace}},
	{"dos2unix", writer{ops: opsAll, kind: wModify}},
	{"unix2dos", writer{ops: opsAll, kind: wModify}},
	{"patch", writer{extra: patchTargets}}, // -o and -r are written roles of its row
	{"curl", writer{extra: curlRemoteName}},
	{"wget", writer{extra: wgetDefault}},
	{"tar", writer{extra: tarTargets}},
	{"unzip", writer{extra: unzipTargets}},
	{"git", writer{extra: gitTargets}},
	{"crontab", writer{extra: crontabTargets}},
	{"ssh-keygen", writer{extra: keygenTargets}},
	{"find", writer{extra: findTargets}},
	{"systemctl", writer{extra: serviceTargets}},
	{"launchctl", writer{extra: serviceTargets}},
	{"at", writer{extra: atTargets}},
	{"direnv", writer{extra: direnvTargets}},
	{"zip", writer{extra: zipTargets}},
	{"batch", writer{extra: atTargets}},
}

// writerOf returns the row of writerRows for a program, or nil.
func writerOf(name string) *writer {
	for i := range writerRows {
		if writerRows[i].name == name {
			return &writerRows[i].w
		}
	}
	return nil
}

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
	wr := writerOf(c.Name)
	if wr == nil {
		return ws
	}
	if wr.when != nil && !wr.when(c) {
		return ws
	}
	ops := c.Operands(parse.RoleData)
	kind := wr.kind
	add := func(k writeKind, t Target) {
		ws = append(ws, write{kind: k, t: t, follow: !wr.noFollow && k != wDelete && k != wMkdir})
	}
	switch wr.ops {
	case opsAll:
		for _, op := range ops {
			add(kind, x.target(c, op))
		}
	case opsDest:
		for _, t := range x.destTargets(c, ops, c.Name == "ln") {
			add(kind, t)
		}
	case opsLast:
		if n := len(ops); n > 1 && !remoteOperand(ops[n-1].Value) {
			add(kind, x.target(c, ops[n-1]))
		}
	}
	if wr.extra != nil {
		ws = wr.extra(x, c, ops, ws)
	}
	return ws
}

// noNames is a names filter that matches no file: the tree delete takes
// nothing of what is below its path.
var noNames = []string{"/"}

// valueWord makes an option's value a word; the value is dynamic when it
// holds an unknown part.
func valueWord(v string) parse.Word {
	return parse.Word{Value: v, Dynamic: strings.Contains(v, parse.Unknown)}
}

// destTargets are the files cp, mv, install and ln create: the last
// operand, or each source's name inside it when it is a directory (-t
// DIR, a trailing slash, several sources, or an existing directory).
func (x *Ctx) destTargets(c *parse.Command, ops []parse.Word, ln bool) []Target {
	if d := lastOption(c, "-t"); d != "" {
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
	if !dt.Known || dt.Glob || c.Flag("no-target-dir") {
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
// (rm -r), or one the row says takes a tree (tar --remove-files), takes
// the tree below the path.
func roleWrites(x *Ctx, c *parse.Command, ws []write) []write {
	n := 0
	for i := range c.Roles {
		if r := c.Roles[i].Role; r == parse.RoleDeleted || r == parse.RoleWritten {
			n++
		}
	}
	ws = slices.Grow(ws, n)
	for i := range c.Roles {
		ra := &c.Roles[i]
		if ra.Role == parse.RoleDeleted {
			w := write{kind: wDelete, t: x.target(c, ra.Word)}
			if c.Flag("recursive") || ra.Lang == "tree" {
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
