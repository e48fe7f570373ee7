// Package transparency reads the table of benign command lines that the transparency
// tests run through bash and through the guard, comparing stdout, stderr and exit
// status byte for byte. The format is described at the top of
// testdata/transparency/commands.txt.
//
// A differential test runs every case twice, the same way each time except for the
// program: `bash ARGS` and `guard-exec ARGS`, where ARGS is c.BashArgs(), the
// environment is the test's plus c.Env, stdin is c.StdinFile (or /dev/null when it
// returns nil; open a fresh one per run, the command may read it), and stdout and
// stderr are files, once separate and once the same file (2>&1). argv[0] of bash
// should be "bash", as when it is found on PATH: $0 and bash's error messages show
// it. Compare lengths and SHA-256 sums rather than holding both outputs: one case
// writes 100 MB.
package transparency

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Case is one row of the table.
type Case struct {
	Name      string
	Line      int      // line number in the table, for messages
	Script    string   // the -c script
	Flags     []string // shell options before -c ("-e", "-o", "pipefail")
	Args      []string // operands after the script: $0, $1, …
	Env       []string // extra KEY=VALUE for the command's environment
	Stdin     []byte   // the command's stdin, when HasStdin
	HasStdin  bool     // false: stdin is /dev/null
	StdinSize int64    // when > 0, stdin is this many bytes of generated text instead
	// Warns names the rule of a warning guard-exec prints first, on a line
	// of its own, before output that is otherwise bash's byte for byte
	// (a line the guard could not parse: it says it did not check it).
	Warns string
	// File, when set, makes the case a script file run by name: Script is
	// written to a file of that name in a directory PATH names first
	// (Environ), and the shell gets File as its operand instead of -c
	// Script, finding it on PATH as bash does.
	File string
}

// BashArgs is the argument list after argv[0]: Flags, "-c", Script, Args;
// for a File case, Flags, File, Args.
func (c Case) BashArgs() []string {
	args := append([]string(nil), c.Flags...)
	if c.File != "" {
		args = append(args, c.File)
	} else {
		args = append(args, "-c", c.Script)
	}
	return append(args, c.Args...)
}

// Environ is the case's extra environment (KEY=VALUE, to append to the
// test's own). For a File case it first writes the script to dir/File and
// adds PATH with dir first; dir must not be the runs' working directory,
// so that the shell has to look the file up on PATH.
func (c Case) Environ(dir string) ([]string, error) {
	env := append([]string(nil), c.Env...)
	if c.File == "" {
		return env, nil
	}
	if err := os.WriteFile(filepath.Join(dir, c.File), []byte(c.Script), 0o644); err != nil {
		return nil, err
	}
	return append(env, "PATH="+dir+string(filepath.ListSeparator)+os.Getenv("PATH")), nil
}

// WriteStdin writes the case's stdin to w.
func (c Case) WriteStdin(w io.Writer) error {
	if c.StdinSize <= 0 {
		_, err := w.Write(c.Stdin)
		return err
	}
	const line = "abcdefghijklmnopqrstuvwxyz0123456789\n"
	chunk := bytes.Repeat([]byte(line), 64<<10/len(line))
	for left := c.StdinSize; left > 0; {
		n := min(left, int64(len(chunk)))
		if _, err := w.Write(chunk[:n]); err != nil {
			return err
		}
		left -= n
	}
	return nil
}

// StdinFile writes the case's stdin to a new file in dir and opens it for reading;
// nil, nil when the case has no stdin.
func (c Case) StdinFile(dir string) (*os.File, error) {
	if !c.HasStdin {
		return nil, nil
	}
	f, err := os.CreateTemp(dir, c.Name+"-stdin-*")
	if err != nil {
		return nil, err
	}
	if err := c.WriteStdin(f); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Load reads the table at path.
func Load(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cases, err := Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	return cases, nil
}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// Parse reads a table. Errors name the line: "12: …".
func Parse(r io.Reader) ([]Case, error) {
	var cases []Case
	seen := make(map[string]int)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		c, err := parseLine(text)
		if err != nil {
			return nil, fmt.Errorf("%d: %w", n, err)
		}
		if prev, dup := seen[c.Name]; dup {
			return nil, fmt.Errorf("%d: case %q already defined on line %d", n, c.Name, prev)
		}
		seen[c.Name], c.Line = n, n
		cases = append(cases, c)
	}
	return cases, sc.Err()
}

// parseLine reads `NAME [KEY=VALUE ...] :: SCRIPT` or `NAME [KEY=VALUE ...] script=QUOTED`.
func parseLine(text string) (Case, error) {
	name, rest, _ := strings.Cut(text, " ")
	if !nameRE.MatchString(name) {
		return Case{}, fmt.Errorf("bad case name %q", name)
	}
	c := Case{Name: name}
	hasScript := false
	for {
		rest = strings.TrimLeft(rest, " \t")
		if rest == "::" || strings.HasPrefix(rest, ":: ") {
			if hasScript {
				return c, fmt.Errorf("%s: both script= and ::", name)
			}
			c.Script = strings.TrimPrefix(strings.TrimPrefix(rest, "::"), " ")
			return c, nil
		}
		if rest == "" {
			if !hasScript {
				return c, fmt.Errorf("%s: no script (missing \" :: \")", name)
			}
			return c, nil
		}
		key, value, tail, err := option(rest)
		if err != nil {
			return c, fmt.Errorf("%s: %w", name, err)
		}
		rest = tail
		if err := c.set(key, value); err != nil {
			return c, fmt.Errorf("%s: %w", name, err)
		}
		hasScript = hasScript || key == "script"
	}
}

// option splits KEY=VALUE off the front of s; VALUE is a Go-quoted string or a word.
func option(s string) (key, value, rest string, err error) {
	key, after, ok := strings.Cut(s, "=")
	if !ok || key == "" || strings.ContainsAny(key, " \t") {
		return "", "", "", fmt.Errorf("expected KEY=VALUE or \" :: \" at %q", s)
	}
	if strings.HasPrefix(after, `"`) {
		q, err := strconv.QuotedPrefix(after)
		if err != nil {
			return "", "", "", fmt.Errorf("%s: bad quoted value: %w", key, err)
		}
		value, _ = strconv.Unquote(q)
		return key, value, after[len(q):], nil
	}
	value, rest, _ = strings.Cut(after, " ")
	return key, value, rest, nil
}

func (c *Case) set(key, value string) error {
	switch key {
	case "arg":
		c.Args = append(c.Args, value)
	case "flag":
		c.Flags = append(c.Flags, value)
	case "env":
		if !strings.Contains(value, "=") {
			return fmt.Errorf("env=%q: want KEY=VALUE", value)
		}
		c.Env = append(c.Env, value)
	case "stdin":
		c.Stdin, c.HasStdin = []byte(value), true
	case "stdin-size":
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil || n <= 0 {
			return fmt.Errorf("stdin-size=%q: want a positive number", value)
		}
		c.StdinSize, c.HasStdin = n, true
	case "script":
		c.Script = value
	case "warns":
		c.Warns = value
	case "file":
		if value == "" || strings.ContainsAny(value, "/ ") {
			return fmt.Errorf("file=%q: want a file name without a slash", value)
		}
		c.File = value
	default:
		return fmt.Errorf("unknown option %q", key)
	}
	return nil
}
