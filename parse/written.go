package parse

import (
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
	if len(r.files) == 0 && c.Name != "tee" && c.Name != "curl" && c.Name != "wget" && c.Name != "cp" && c.Name != "mv" {
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
	case "curl", "wget":
		for i, a := range c.Args {
			v := a.Value
			var out string
			switch {
			case (v == "-o" || v == "--output" || v == "-O" && c.Name == "wget" || v == "--output-document") && i+1 < len(c.Args):
				out = c.Args[i+1].Value
			case strings.HasPrefix(v, "--output="), strings.HasPrefix(v, "--output-document="):
				_, out, _ = strings.Cut(v, "=")
			case strings.HasPrefix(v, "-o") && len(v) > 2 && c.Name == "curl":
				out = v[2:]
			}
			if out != "" && out != "-" {
				r.write(fr.wordPath(c, Word{Value: out}), &written{writer: c})
			}
		}
	case "cp", "mv":
		ops := operands(c.Args)
		if len(ops) == 2 {
			src, dst := fr.wordPath(c, ops[0]), fr.wordPath(c, ops[1])
			if w := r.files[src]; w != nil {
				r.write(dst, w)
			} else if dst != "" && r.files[dst] != nil {
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

// execFile follows a script the command line wrote and then runs by its
// path (./x.sh): by its #! line, as a shell script otherwise.
func (fr *frame) execFile(c *Command, args []arg) bool {
	if !strings.Contains(c.Path, "/") || fr.r.files == nil {
		return false
	}
	full := resolvePath(c.Dir, c.Path)
	w := fr.r.files[full]
	if w == nil {
		return false
	}
	if !w.known {
		fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: c.Path, Feeders: writers(w), Pos: c.Pos})
		return true
	}
	interp := shebang(w.text)
	switch {
	case strings.HasPrefix(interp, "python"), strings.HasPrefix(interp, "pypy"):
		fr.scanProgram(c, langPython, "python file", w.text, 0)
	case interp == "node" || interp == "nodejs" || interp == "deno" || interp == "bun":
		fr.scanProgram(c, langJS, "node file", w.text, 0)
	case strings.HasPrefix(interp, "perl"):
		fr.scanProgram(c, langPerl, "perl file", w.text, 0)
	case strings.HasPrefix(interp, "ruby"):
		fr.scanProgram(c, langRuby, "ruby file", w.text, 0)
	case strings.HasPrefix(interp, "php"):
		fr.scanProgram(c, langPHP, "php file", w.text, 0)
	default:
		st := fr.childState(c)
		st.args = append([]string{c.Path}, values(args[1:])...)
		st.argsKnown = true
		fr.nest(nesting{sink: c, via: "exec file", text: w.text, pos: posMap{at: c.Pos}, kind: DynSource, st: st, stdin: c.Stdin, dialect: Bash, user: c.User})
	}
	return true
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
