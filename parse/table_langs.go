package parse

import (
	"strings"
	"sync"
)

// Converters for the code languages of the program table that are not an
// interpreter's (table.go): each finds what the code runs and reports it
// to a codeRun. They read the common shapes; what they cannot read that
// could run something is reported as unknown code, never as nothing.

const maxLangDepth = 4

// vimCode reads Ex commands (vim -c, +CMD, --cmd; ex -c): ":!cmd",
// "r !cmd", "w !cmd", ":terminal cmd", ":lua …", ":py3 …", ":exe '…'",
// and system()/jobstart() calls in expressions.
func vimCode(cr *codeRun, text string) {
	for _, line := range strings.Split(text, "\n") {
		vimCmd(cr, line, 0)
	}
}

var vimModifiers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"silent": true, "silent!": true, "sil": true, "sil!": true, "noautocmd": true, "noa": true,
		"keepalt": true, "keepjumps": true, "keepmarks": true, "lockmarks": true, "unsilent": true,
		"vertical": true, "vert": true, "topleft": true, "botright": true, "tab": true, "hide": true,
		"confirm": true, "browse": true, "sandbox": false,
	}
})

func vimCmd(cr *codeRun, s string, depth int) {
	if depth > maxLangDepth {
		return
	}
	for {
		s = strings.TrimLeft(s, " \t:")
		// A range: 1,$ % '<,'> .,+3
		s = strings.TrimLeft(s, "0123456789,.$%;+-")
		for strings.HasPrefix(s, "'") && len(s) > 1 {
			s = strings.TrimLeft(s[2:], ",;")
		}
		s = strings.TrimLeft(s, " \t")
		word, rest, _ := strings.Cut(s, " ")
		if !vimModifiers()[word] {
			break
		}
		s = rest
	}
	vimExprCalls(cr, s)
	if rest, ok := strings.CutPrefix(s, "!"); ok {
		cr.shell(rest)
		return
	}
	n := 0
	for n < len(s) && (s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z' || s[n] >= '0' && s[n] <= '9' && n > 0) {
		n++
	}
	name := s[:n]
	rest := strings.TrimLeft(strings.TrimPrefix(s[n:], "!"), " \t")
	switch name {
	case "r", "re", "rea", "read", "w", "wr", "wri", "writ", "write", "up", "update", "wq", "x", "xit":
		if i := strings.Index(rest, "!"); i >= 0 && strings.TrimSpace(rest[:i]) == "" || strings.HasPrefix(rest, "++") && i >= 0 {
			cr.shell(rest[i+1:])
			return
		}
	case "te", "ter", "term", "termi", "termin", "termina", "terminal":
		for strings.HasPrefix(rest, "++") {
			_, rest, _ = strings.Cut(rest, " ")
		}
		cr.shell(rest)
		return
	case "lua", "luado", "luafile":
		if name == "lua" {
			cr.code("lua", strings.TrimPrefix(rest, "<<"))
		}
		return
	case "py", "py3", "python", "python3", "pyx", "pythonx", "pydo", "py3do":
		cr.code("python", rest)
		return
	case "perl", "pe", "perldo":
		cr.code("perl", rest)
		return
	case "rub", "ruby", "rubydo":
		cr.code("ruby", rest)
		return
	case "exe", "exec", "execute":
		if lit, ok := quotedLiteral(rest); ok {
			vimCmd(cr, lit, depth+1)
		} else if rest != "" {
			cr.unknown(rest)
		}
		return
	case "norm", "normal":
		// Keys typed in normal mode may enter a ":" command line.
		if i := strings.Index(rest, ":"); i >= 0 {
			vimCmd(cr, strings.TrimRight(rest[i:], "\r"), depth+1)
		}
		return
	case "make", "mak", "grep", "gr", "lmake":
		cr.argv(append([]string{name}, strings.Fields(rest)...))
		return
	}
	if i := strings.IndexByte(s, '|'); i >= 0 {
		vimCmd(cr, s[i+1:], depth+1)
	}
}

// vimExprCalls runs the shell strings of system(), systemlist(),
// jobstart() and termopen() calls in an expression.
func vimExprCalls(cr *codeRun, s string) {
	for _, fn := range []string{"system(", "systemlist(", "jobstart(", "termopen(", "os.execute("} {
		for rest := s; ; {
			i := strings.Index(rest, fn)
			if i < 0 {
				break
			}
			rest = rest[i+len(fn):]
			if lit, ok := quotedLiteral(strings.TrimSpace(rest)); ok {
				cr.shell(lit)
			} else {
				cr.unknown(rest)
			}
		}
	}
}

// quotedLiteral reads a leading '…' or "…" string (vim, elisp and Tcl
// quoting are alike enough: backslash escapes in double quotes).
func quotedLiteral(s string) (string, bool) {
	if len(s) < 2 || s[0] != '\'' && s[0] != '"' {
		return "", false
	}
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch {
		case s[i] == q:
			return b.String(), true
		case s[i] == '\\' && q == '"' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		default:
			b.WriteByte(s[i])
		}
	}
	return "", false
}

// gdbCode reads gdb commands (-ex, -iex, --eval-command, a -x file):
// "shell CMD", "!CMD", "pipe … | CMD", "python …", "make …".
func gdbCode(cr *codeRun, text string) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "!"); ok {
			cr.shell(rest)
			continue
		}
		name, rest, _ := strings.Cut(line, " ")
		switch name {
		case "shell", "she", "shel":
			cr.shell(rest)
		case "pipe", "|":
			if _, sh, ok := strings.Cut(rest, "|"); ok {
				cr.shell(sh)
			}
		case "python", "py", "python-interactive", "pi":
			cr.code("python", rest)
		case "make":
			cr.argv(append([]string{"make"}, strings.Fields(rest)...))
		}
	}
}

// elispCode reads Emacs Lisp (emacs --eval, -l FILE): the process and
// file functions with literal strings.
func elispCode(cr *codeRun, text string) {
	type fn struct {
		shellAt int    // the argument that is a shell string, or -1
		progAt  int    // the program for argv calls, or -1
		argsAt  int    // where its arguments start
		synth   string // a file operation: "rm", "rm -r"
	}
	fns := map[string]fn{
		"shell-command": {0, -1, 0, ""}, "shell-command-to-string": {0, -1, 0, ""},
		"async-shell-command": {0, -1, 0, ""}, "call-process-shell-command": {0, -1, 0, ""},
		"process-file-shell-command": {0, -1, 0, ""}, "start-process-shell-command": {2, -1, 0, ""},
		"start-file-process-shell-command": {2, -1, 0, ""}, "call-process": {-1, 0, 4, ""},
		"process-file": {-1, 0, 4, ""}, "process-lines": {-1, 0, 1, ""}, "start-process": {-1, 2, 3, ""},
		"start-file-process": {-1, 2, 3, ""}, "delete-directory": {-1, -1, 0, "rm -r"}, "delete-file": {-1, -1, 0, "rm"},
		"eshell-command": {0, -1, 0, ""},
	}
	for i := 0; i < len(text); i++ {
		if text[i] != '(' {
			continue
		}
		j := i + 1
		for j < len(text) && text[j] != ' ' && text[j] != ')' && text[j] != '\n' && text[j] != '(' {
			j++
		}
		f, ok := fns[text[i+1:j]]
		if !ok {
			continue
		}
		args := elispArgs(text[j:])
		get := func(k int) (string, bool) {
			if k < 0 || k >= len(args) || args[k] == "" || args[k][0] != '"' {
				return "", false
			}
			return args[k][1:], true
		}
		switch {
		case f.shellAt >= 0:
			if s, ok := get(f.shellAt); ok {
				cr.shell(s)
			} else {
				cr.unknown(text[i:])
			}
		case f.progAt >= 0:
			prog, ok := get(f.progAt)
			if !ok {
				cr.unknown(text[i:])
				continue
			}
			argv := []string{prog}
			for k := f.argsAt; k < len(args); k++ {
				s, ok := get(k)
				if !ok {
					s = Unknown
				}
				argv = append(argv, s)
			}
			cr.argv(argv)
		default:
			p, ok := get(0)
			if !ok {
				p = Unknown
			}
			p = cr.fr.expandTilde(p) // expand-file-name's ~
			cmd := f.synth
			if cmd == "rm -r" && (len(args) < 2 || args[1] == "nil") {
				cmd = "rmdir"
			}
			cr.argv(append(strings.Fields(cmd), p))
		}
	}
}

// elispArgs reads the arguments of a form up to its closing paren: a
// string is returned with a leading '"' and its text; anything else as
// written ("nil", "t", "(…)").
func elispArgs(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == '\n' || c == '\t':
			i++
		case c == ')':
			return out
		case c == '"':
			var b strings.Builder
			b.WriteByte('"')
			i++
			for i < len(s) && s[i] != '"' {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				b.WriteByte(s[i])
				i++
			}
			i++
			out = append(out, b.String())
		case c == '(':
			end := skipBalanced(s, i, '(', ')')
			if end <= i {
				return out
			}
			out = append(out, s[i:end])
			i = end
		default:
			j := i
			for j < len(s) && s[j] != ' ' && s[j] != ')' && s[j] != '\n' {
				j++
			}
			out = append(out, s[i:j])
			i = j
		}
	}
	return out
}

// tclCode reads Tcl (expect -c, an expect script): exec and spawn run a
// program, system a shell string, "file delete" removes; the bodies of
// braces and [command substitutions] are read too.
func tclCode(cr *codeRun, text string) { tclScript(cr, text, 0) }

func tclScript(cr *codeRun, text string, depth int) {
	if depth > maxLangDepth {
		return
	}
	for _, cmd := range tclCommands(text) {
		var words []string
		for _, w := range cmd {
			if strings.HasPrefix(w.text, "[") || w.braced || strings.Contains(w.text, "[") {
				body := w.text
				if !w.braced {
					if i := strings.IndexByte(body, '['); i >= 0 {
						body = strings.TrimSuffix(body[i+1:], "]")
					}
				}
				tclScript(cr, body, depth+1)
			}
			words = append(words, w.text)
		}
		if len(words) == 0 {
			continue
		}
		switch words[0] {
		case "exec", "spawn", "open":
			rest := words[1:]
			for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
				if rest[0] == "--" {
					rest = rest[1:]
					break
				}
				rest = rest[1:]
			}
			if words[0] == "open" {
				// open "|cmd args" runs a pipeline.
				if len(rest) > 0 && strings.HasPrefix(rest[0], "|") {
					cr.shell(rest[0][1:])
				}
				continue
			}
			if len(rest) > 0 && rest[len(rest)-1] == "&" {
				rest = rest[:len(rest)-1]
			}
			piped := false
			for _, w := range rest {
				if w == "|" || strings.HasPrefix(w, ">") || strings.HasPrefix(w, "<") || strings.HasPrefix(w, "2>") {
					piped = true
				}
			}
			if piped {
				cr.shell(strings.Join(rest, " "))
			} else {
				cr.argv(rest)
			}
		case "system":
			cr.shell(strings.Join(words[1:], " "))
		case "file":
			if len(words) > 2 && words[1] == "delete" {
				cr.argv(append([]string{"rm", "-rf"}, words[2:]...))
			}
		case "eval", "uplevel":
			tclScript(cr, strings.Join(words[1:], " "), depth+1)
		}
	}
}

type tclWord struct {
	text   string
	braced bool
}

// tclCommands splits Tcl text into commands of words: newlines and ";"
// end a command, "…" and {…} group (braces nest), "#" starts a comment
// where a command starts.
func tclCommands(s string) [][]tclWord {
	var cmds [][]tclWord
	var cur []tclWord
	end := func() {
		if len(cur) > 0 {
			cmds = append(cmds, cur)
			cur = nil
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n' || c == ';':
			end()
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i += 2
		case c == '#' && len(cur) == 0:
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '{':
			j := skipBalanced(s, i, '{', '}')
			end := j
			if j > i+1 && s[j-1] == '}' {
				end = j - 1
			}
			cur = append(cur, tclWord{text: s[i+1 : max(end, i+1)], braced: true})
			i = max(j, i+1)
		case c == '"':
			var b strings.Builder
			i++
			for i < len(s) && s[i] != '"' {
				if s[i] == '\\' && i+1 < len(s) {
					i++
					switch s[i] {
					case 'n':
						b.WriteByte('\n')
						i++
						continue
					}
				}
				b.WriteByte(s[i])
				i++
			}
			i++
			cur = append(cur, tclWord{text: b.String()})
		default:
			j := i
			depth := 0
			for j < len(s) {
				if s[j] == '[' {
					depth++
				} else if s[j] == ']' && depth > 0 {
					depth--
				} else if depth == 0 && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == ';') {
					break
				}
				j++
			}
			cur = append(cur, tclWord{text: s[i:j]})
			i = j
		}
	}
	end()
	return cmds
}

// gitExtCode reads a git remote URL: ext::CMD ARGS runs CMD (with "% "
// a space inside a word, "%%" a percent sign, "%s" the service name).
func gitExtCode(cr *codeRun, url string) {
	rest, ok := strings.CutPrefix(url, "ext::")
	if !ok {
		return
	}
	var words []string
	var b strings.Builder
	inWord := false
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case c == '%' && i+1 < len(rest):
			i++
			switch rest[i] {
			case ' ':
				b.WriteByte(' ')
			case '%':
				b.WriteByte('%')
			case 's', 'S':
				b.WriteString("git-upload-pack")
			default:
				b.WriteString(Unknown)
			}
			inWord = true
		case c == ' ':
			if inWord {
				words = append(words, b.String())
				b.Reset()
				inWord = false
			}
		default:
			b.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, b.String())
	}
	cr.argv(words)
}

// lessCommands reads less's +CMD, commands as typed at its prompt:
// movements and counts (G, g, 50, m, ') are passed over; "!" runs the
// rest of the line with the shell, and "|" followed by a mark pipes to
// the rest; a search (/, ?, &), a colon command or E (examine) takes
// the rest of the line as its text. A newline ends a command.
func lessCommands(cr *codeRun, text string) {
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r", "\n"), "\n") {
	scan:
		for i := 0; i < len(line); i++ {
			switch line[i] {
			case '!':
				cr.shell(line[i+1:])
				break scan
			case '|':
				if i+2 <= len(line) {
					cr.shell(line[min(i+2, len(line)):])
				}
				break scan
			case '/', '?', '&', ':', 'E':
				break scan
			case 'm', 'M', '\'', '-', '_':
				i++ // a mark's letter, an option's letter
			}
		}
	}
}

// lessOpenCode reads LESSOPEN and LESSCLOSE: "|cmd %s", "||cmd %s",
// "|-cmd %s" or "cmd %s"; every form runs cmd by the shell, with %s the
// file's name.
func lessOpenCode(cr *codeRun, v string) {
	v = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(v, "|"), "|"), "-")
	cr.shell(strings.ReplaceAll(v, "%s", "file"))
}
