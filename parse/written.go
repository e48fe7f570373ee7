package parse

import (
	"errors"
	"io/fs"
	"path"
	"strings"
)

// Files the script writes before running them. An agent may write a
// script with a heredoc and run it in the same command line
// ("cat > x.sh <<'EOF' … EOF; bash x.sh"); the file does not exist yet
// when the line is analysed, so the analysis keeps what the script wrote
// and follows it from there. Contents that are not known (curl -o x.sh,
// cmd > x.sh) are remembered with the command that wrote them: running
// the file is then a Dynamic fact fed by that command.

// written is what the script wrote to a path.
type written struct {
	text   string
	known  bool
	writer *Command
	// alias is the program the file is a copy of or a link to (cp
	// /usr/bin/rm /tmp/del): running it runs that program.
	alias string
}

// maxWritten bounds the text kept for written files.
const maxWritten = MaxScript

func (r *root) write(path string, w *written) {
	if path == "" {
		return
	}
	if r.files == nil {
		r.files = make(map[string]*written)
	}
	r.files[path] = w
}

func (r *root) appendTo(path string, w *written) {
	old := r.files[path]
	if old == nil {
		// Appending to a file that existed: its start is not known.
		r.write(path, &written{writer: w.writer})
		return
	}
	if old.known && w.known && len(old.text)+len(w.text) <= maxWritten {
		r.write(path, &written{text: old.text + w.text, known: true, writer: w.writer})
		return
	}
	r.write(path, &written{writer: w.writer})
}

// recordWrites notes the files a command writes: its stdout redirected
// to a file, tee's operands, the output files of curl, wget and cp.
func (fr *frame) recordWrites(c *Command) {
	r := fr.r
	content := &written{text: c.out, known: c.outKnown && len(c.out) <= maxWritten, writer: c}
	if c.Name == "cat" && len(c.Redirs) > 0 {
		// cat /usr/bin/rm > x: a copy of the program.
		if ops := operands(c.Args); len(ops) == 1 {
			if prog := programCopy(ops[0], c.FeedersOf(argIndex(c, ops[0]))); prog != "" {
				content = &written{writer: c, alias: prog}
			}
		}
	}
	for _, rd := range c.Redirs {
		if !rd.Write || rd.Path == "" || rd.Fd != 1 && rd.Op != "&>" && rd.Op != "&>>" {
			continue
		}
		if rd.Append {
			r.appendTo(rd.Path, content)
		} else {
			r.write(rd.Path, content)
		}
	}
	// A file the program table says the command writes (curl -o, wget
	// -O, tar --index-file), or one a downloader names after the URL
	// (curl -O, wget without -O): its contents are not known.
	for _, ra := range c.Roles {
		if ra.Role == RoleWritten && ra.Path != "" && ra.Word.Value != "-" && ra.Lang != "into" {
			r.write(ra.Path, &written{writer: c})
		}
	}
	for _, p := range fr.urlNamed(c) {
		r.write(p, &written{writer: c})
	}
	if len(r.files) == 0 && c.Name != "tee" && c.Name != "cp" && c.Name != "mv" && c.Name != "ln" && c.Name != "install" && c.Name != "rsync" && c.Name != "dd" {
		return
	}
	switch c.Name {
	case "tee":
		text, known := stdinText(c)
		appendMode := hasFlag(c.Args, "-a", "--append")
		for _, f := range operands(c.Args) {
			if p := fr.wordPath(c, f); p != "" {
				w := &written{text: text, known: known, writer: c}
				if appendMode {
					r.appendTo(p, w)
				} else {
					r.write(p, w)
				}
			}
		}
	case "dd":
		// dd if=/usr/bin/rm of=x: a copy of the program, as cp's.
		var src, dst Word
		for _, w := range c.Args {
			if v, ok := strings.CutPrefix(w.Value, "if="); ok && w.Literal() {
				src = Word{Value: v, Pos: w.Pos}
			}
			if v, ok := strings.CutPrefix(w.Value, "of="); ok && w.Literal() {
				dst = Word{Value: v, Pos: w.Pos}
			}
		}
		if p := fr.wordPath(c, dst); p != "" && src.Value != "" {
			if prog := programCopy(src, nil); prog != "" {
				r.write(p, &written{writer: c, alias: prog})
			} else if w := r.files[fr.wordPath(c, src)]; w != nil {
				r.write(p, w)
			}
		}
	case "cp", "mv", "ln", "install", "rsync":
		ops := operands(c.Args)
		if len(ops) == 2 {
			src, dst := fr.wordPath(c, ops[0]), fr.wordPath(c, ops[1])
			switch w := r.files[src]; {
			case w != nil:
				r.write(dst, w)
			case dst == "":
			case programCopy(ops[0], c.FeedersOf(argIndex(c, ops[0]))) != "":
				r.write(dst, &written{writer: c, alias: programCopy(ops[0], c.FeedersOf(argIndex(c, ops[0])))})
			case !ops[0].Literal() || r.files[dst] != nil:
				// A copy of something not known: running it runs unknown code.
				r.write(dst, &written{writer: c})
			}
		}
	}
}

func (fr *frame) wordPath(c *Command, w Word) string {
	if !w.Literal() {
		return ""
	}
	return resolvePath(c.Dir, w.Value)
}

// readScript reads a script the command runs: one the script itself wrote,
// else through Options.Files. writer is the command that wrote contents
// that are not known.
func (fr *frame) readScript(dir, p string) (text string, ok bool, writer *Command) {
	if hasUnknown(p) {
		return "", false, nil
	}
	full := resolvePath(dir, p)
	if full == "" {
		return "", false, nil
	}
	if w := fr.r.files[full]; w != nil {
		return w.text, w.known, w.writer
	}
	if fr.r.opts.Files == nil {
		return "", false, nil
	}
	b, err := fr.r.opts.Files.ReadFile(full)
	if err != nil || len(b) > MaxScript {
		return "", false, nil
	}
	return string(b), true, nil
}

// DataReader is implemented by an Options.Files whose ReadFile may give a
// script as the analysis should follow it rather than as it is (a large
// sourced file reduced to the functions used): ReadData gives the bytes
// as they are, for files read as data ($(<file), cat file, read < file).
type DataReader interface {
	ReadData(path string) ([]byte, error)
}

// readData reads a file whose contents become a value: what the line
// wrote there, else the file as it is.
func (fr *frame) readData(dir, p string) (string, bool) {
	if hasUnknown(p) {
		return "", false
	}
	full := resolvePath(dir, p)
	if full == "" {
		return "", false
	}
	if w := fr.r.files[full]; w != nil {
		return w.text, w.known
	}
	var b []byte
	var err error
	switch fs := fr.r.opts.Files.(type) {
	case nil:
		return "", false
	case DataReader:
		b, err = fs.ReadData(full)
	default:
		b, err = fs.ReadFile(full)
	}
	if err != nil || len(b) > MaxScript {
		return "", false
	}
	return string(b), true
}

// diskFile returns, for a script the command runs from the file p, where
// positions inside its text map and the file's name: into the file itself,
// line and column, when it is read from disk; at the outer word at when it
// is one the script itself wrote (its text is the script's) or unknown.
func (fr *frame) diskFile(dir, p string, at Pos) (posMap, string) {
	full := resolvePath(dir, p)
	if full == "" || hasUnknown(p) || fr.r.files[full] != nil || fr.r.opts.Files == nil {
		return posMap{at: at}, ""
	}
	return posMap{exact: true, base: Pos{File: full, Line: 1, Col: 1}, at: at}, full
}

// execFile follows a script run by its path (./x.sh): one the command
// line wrote, or one on disk that Options.Files reads. It is analysed by
// its #! line, as a shell script when it has none; a file that is not
// text is a program like any other. A file on disk that cannot be read
// or is too large is unknown code.
func (fr *frame) execFile(c *Command, args []arg) bool {
	if !strings.Contains(c.Path, "/") || hasUnknown(c.Path) {
		return false
	}
	full := resolvePath(c.Dir, c.Path)
	w := fr.r.files[full]
	if w == nil && fr.r.opts.Programs != nil && full != "" {
		name, binary := fr.r.opts.Programs.ProgramAt(full)
		if name != "" && name != c.Name {
			c.Name = name
			fr.follow(c, args)
			return true
		}
		if name != "" || binary {
			return false // a compiled program: nothing to read
		}
	}
	if w == nil {
		text, st := fr.readRun(full)
		switch st {
		case fileMissing:
			return false
		case fileUnreadable:
			fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: c.Path, Pos: c.Pos})
			return true
		}
		if !isText(text) {
			return false
		}
		w = &written{text: text, known: true}
	}
	if w.alias != "" {
		if c.Name == w.alias {
			return false // already judged as the program it copies
		}
		c.Name = w.alias
		fr.follow(c, args)
		return true
	}
	if !w.known {
		fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: c.Path, Feeders: writers(w), Pos: c.Pos})
		return true
	}
	interp := shebang(w.text)
	if lang, ok := scriptLang(interp); ok {
		fr.r.codeBase = path.Dir(full)
		fr.scanProgram(c, lang, interp+" file", w.text, 0)
		return true
	}
	st := fr.childState(c)
	st.args = append([]string{c.Path}, values(args[1:])...)
	st.argsKnown = true
	fr.nest(nesting{sink: c, via: "exec file", text: w.text, pos: posMap{at: c.Pos}, kind: DynSource, st: st, stdin: c.Stdin, dialect: Bash, user: c.User})
	return true
}

// scriptLang is the interpreter language of a #! name.
func scriptLang(interp string) (langID, bool) {
	switch {
	case strings.HasPrefix(interp, "python"), strings.HasPrefix(interp, "pypy"):
		return langPython, true
	case interp == "node" || interp == "nodejs" || interp == "deno" || interp == "bun":
		return langJS, true
	case strings.HasPrefix(interp, "perl"):
		return langPerl, true
	case strings.HasPrefix(interp, "ruby"):
		return langRuby, true
	case strings.HasPrefix(interp, "php"):
		return langPHP, true
	case interp == "Rscript":
		return langR, true
	}
	return 0, false
}

// isText reports whether a file's start looks like a script rather than
// a compiled program: no NUL byte in its first kilobytes.
func isText(s string) bool {
	return strings.IndexByte(s[:min(len(s), 4096)], 0) < 0
}

// fileState is what reading a file the command runs found.
type fileState uint8

const (
	fileMissing    fileState = iota // not there (or no Options.Files): nothing to read
	fileRead                        // read in full
	fileUnreadable                  // there, but unreadable, too large or not a file
)

// readRun reads a file on disk that a command runs, through
// Options.Files.
func (fr *frame) readRun(full string) (string, fileState) {
	if full == "" || fr.r.opts.Files == nil {
		return "", fileMissing
	}
	b, err := fr.r.opts.Files.ReadFile(full)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fileMissing
	case err != nil || len(b) > MaxScript:
		return "", fileUnreadable
	}
	return string(b), fileRead
}

// scriptFile follows a script an interpreter runs (python x.py, node
// x.js): one the line wrote, else one on disk.
func (fr *frame) scriptFile(c *Command, lang langID, name string, f arg) {
	if urlValue(f.Value) {
		// deno run https://…, bun https://…: code from the network, run
		// as it arrives (Dynamic.Remote).
		fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: f.Value, Remote: true, Pos: c.Pos})
		return
	}
	full := fr.wordPath(c, f.Word)
	if full != "" {
		fr.r.codeBase = path.Dir(full) // its imports are beside it
	}
	if w := fr.r.files[full]; w != nil {
		if w.known {
			fr.scanProgram(c, lang, name+" file", w.text, 0)
		} else if w.writer != nil {
			fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: f.Value, Feeders: []*Command{w.writer}, Pos: c.Pos})
		}
		return
	}
	switch text, st := fr.readRun(full); st {
	case fileRead:
		fr.scanProgram(c, lang, name+" file", text, 0)
	case fileUnreadable:
		fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: f.Value, Pos: c.Pos})
	}
}

func writers(w *written) []*Command {
	if w == nil || w.writer == nil {
		return nil
	}
	return []*Command{w.writer}
}

// shebang returns the interpreter named by a #! line ("/usr/bin/env
// python3" gives python3), or "".
func shebang(text string) string {
	if !strings.HasPrefix(text, "#!") {
		return ""
	}
	line, _, _ := strings.Cut(text[2:], "\n")
	f := strings.Fields(line)
	if len(f) == 0 {
		return ""
	}
	name := basename(f[0])
	if name == "env" {
		for _, x := range f[1:] {
			if !strings.HasPrefix(x, "-") {
				return basename(x)
			}
		}
	}
	return name
}

// programBinDirs are the directories programs are installed in: a file
// copied or linked from one is that program.
var programBinDirs = []string{"/bin/", "/usr/bin/", "/sbin/", "/usr/sbin/", "/usr/local/bin/", "/usr/local/sbin/", "/opt/homebrew/bin/", "/snap/bin/"}

// programCopy names the program a cp/ln/install source is: a file in a
// bin directory, a program the analysis knows by name, or the output of
// which/command -v/type -P NAME.
func programCopy(src Word, feeders []*Command) string {
	if src.Literal() {
		for _, d := range programBinDirs {
			if strings.HasPrefix(src.Value, d) && !strings.Contains(src.Value[len(d):], "/") {
				return src.Value[len(d):]
			}
		}
		if b := basename(src.Value); sinkOf(b) != nil || wrapperOf(b) != nil || LookupProgram(b) != nil {
			if strings.Contains(src.Value, "/") {
				return b
			}
		}
		return ""
	}
	if src.Known() != "" || strings.Trim(src.Value, Unknown) != "" {
		return ""
	}
	for _, f := range feeders {
		ops := operands(f.Args)
		switch {
		case f.Name == "which" && len(ops) == 1, f.Name == "command" && hasFlag(f.Args, "-v") && len(ops) == 1,
			f.Name == "type" && hasFlag(f.Args, "-P", "-p") && len(ops) == 1:
			if ops[0].Literal() {
				return basename(ops[0].Value)
			}
		}
	}
	return ""
}

// argIndex is the index of w in c.Args, or -1.
func argIndex(c *Command, w Word) int {
	for i, a := range c.Args {
		if a.Pos == w.Pos && a.Value == w.Value {
			return i
		}
	}
	return -1
}

// urlNamed returns the files a downloader names after the URLs it
// fetches: curl -O (in --output-dir), and wget without -O (in -P's
// directory; index.html for a URL that ends in /). A name the server
// gives (curl -J) cannot be known.
func (fr *frame) urlNamed(c *Command) []string {
	var dir, dflt string
	switch {
	case c.Row == "curl" && c.Flag("names-from-url") && !c.Flag("names-from-server"):
		dir = "."
		for _, ra := range c.Roles {
			if ra.Opt == "--output-dir" && ra.Word.Literal() {
				dir = ra.Word.Value
			}
		}
	case c.Row == "wget" && !c.Flag("spider"):
		dir, dflt = ".", "index.html"
		for _, ra := range c.Roles {
			switch {
			case ra.Opt == "-O":
				return nil
			case ra.Opt == "-P" && ra.Word.Literal():
				dir = ra.Word.Value
			}
		}
	default:
		return nil
	}
	var out []string
	for _, ra := range c.Roles {
		if ra.Role != RoleData || ra.Opt != "" && ra.Opt != "--url" {
			continue
		}
		if name := URLName(ra.Word.Value, dflt); name != "" {
			if p := resolvePath(c.Dir, dir+"/"+name); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// URLName is the name a downloader saves a URL under: its path's last
// segment, without the query and fragment; dflt for a URL that names no
// file (wget's index.html); "" when that cannot be known.
func URLName(u, dflt string) string {
	if hasUnknown(u) {
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
