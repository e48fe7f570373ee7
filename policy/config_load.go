package policy

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/BurntSushi/toml"
)

// Where the layers live.
const (
	SystemConfigPath  = "/etc/guard-exec/config.toml"
	ProjectConfigName = ".guard-exec.toml"
	// MaxConfigSize bounds a configuration file; a larger one is skipped.
	MaxConfigSize = 1 << 20
)

// ConfigSource is one configuration file to read.
type ConfigSource struct {
	Layer Layer
	Path  string // absolute
	Name  string // how messages name it
}

// ConfigSources lists the files of the system, user and project layers,
// weakest first. home and xdgConfigHome are the caller's $HOME and
// $XDG_CONFIG_HOME (a relative one is ignored, as the XDG specification
// says); projectRoot is the project the working directory cwd is in.
func ConfigSources(home, xdgConfigHome, projectRoot, cwd string) []ConfigSource {
	srcs := []ConfigSource{{Layer: LayerSystem, Path: SystemConfigPath, Name: SystemConfigPath}}
	if p := UserConfigPath(home, xdgConfigHome); p != "" {
		srcs = append(srcs, ConfigSource{Layer: LayerUser, Path: p, Name: tildePath(p, home)})
	}
	if projectRoot != "" {
		p := filepath.Join(projectRoot, ProjectConfigName)
		name := p
		if cwd == projectRoot || strings.HasPrefix(cwd, projectRoot+"/") {
			if rel, err := filepath.Rel(cwd, p); err == nil {
				name = rel // .guard-exec.toml, ../.guard-exec.toml
			}
		}
		srcs = append(srcs, ConfigSource{Layer: LayerProject, Path: p, Name: name})
	}
	return srcs
}

// UserConfigPath is the user layer's file, or "" when neither variable
// gives a place for it.
func UserConfigPath(home, xdgConfigHome string) string {
	switch {
	case filepath.IsAbs(xdgConfigHome):
		return filepath.Join(xdgConfigHome, "guard-exec", "config.toml")
	case filepath.IsAbs(home):
		return filepath.Join(home, ".config", "guard-exec", "config.toml")
	}
	return ""
}

// tildePath names a file under home as ~/….
func tildePath(p, home string) string {
	if home != "" && home != "/" && strings.HasPrefix(p, home+"/") {
		return "~" + p[len(home):]
	}
	return p
}

// Problem is something wrong in a configuration file. The guard reports
// it and carries on with the value from the layers below.
type Problem struct {
	File string
	Line int // 0 when the problem is with the file as a whole
	Msg  string
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Msg)
}

// FileState says what became of one layer's file.
type FileState string

const (
	FileAbsent  FileState = "absent"
	FileLoaded  FileState = "loaded"  // read; individual keys may still have been rejected
	FileSkipped FileState = "skipped" // unreadable, too large or not TOML: the layer counts for nothing
)

// FileStatus is one layer's file and what became of it.
type FileStatus struct {
	ConfigSource
	State FileState
}

// LoadOptions says what to load.
type LoadOptions struct {
	Sources []ConfigSource
	// Home expands "~/" in allow_roots.
	Home string
	// Read reads a file; nil means ReadConfigFile. A missing file is an
	// error satisfying errors.Is(err, fs.ErrNotExist).
	Read func(src ConfigSource) ([]byte, error)
	// Checked remembers user rules whose examples passed; nil checks
	// every rule's examples on every load.
	Checked ExampleCache
}

// LoadResult is the merged configuration and what was found on the way.
type LoadResult struct {
	Config   *Config
	Files    []FileStatus
	Problems []Problem
}

// LoadConfig merges the built-in defaults with the given layers. It never
// fails: a file that cannot be read or is not TOML is reported and
// skipped, a key with a wrong type or an invalid value is reported and
// keeps the value of the layers below, and the project layer is only ever
// allowed to tighten. So whatever the files hold, the result protects at
// least as much as the defaults do — unless the system or user layer,
// which belong to people, validly asks for less.
func LoadConfig(o LoadOptions) *LoadResult {
	ld := newLoader(o)
	for _, src := range o.Sources {
		ld.loadFile(src)
	}
	ld.finish()
	// A concrete type, not interface{ Flush() }: asserting an interface
	// builds its method table on first use, which every command paid here.
	if f, ok := o.Checked.(*FileExampleCache); ok {
		f.Flush()
	}
	return ld.res
}

// loadFile reads, decodes and applies one layer.
func (ld *loader) loadFile(src ConfigSource) {
	read := ld.opts.Read
	if read == nil {
		read = ReadConfigFile
	}
	st := FileStatus{ConfigSource: src, State: FileSkipped}
	defer func() { ld.res.Files = append(ld.res.Files, st) }()
	data, err := read(src)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		st.State = FileAbsent
		return
	case err != nil:
		ld.problem(src, 0, "%s; the file is ignored", err)
		return
	}
	doc, err := decodeTOML(blankComments(data))
	if err != nil {
		var pe toml.ParseError
		line := 0
		msg := err.Error()
		if errors.As(err, &pe) {
			line, msg = pe.Position.Line, pe.Message
		}
		ld.problem(src, line, "not valid TOML (%s); the file is ignored", oneLine(msg))
		return
	}
	st.State = FileLoaded
	start := len(ld.res.Problems)
	l := &layer{loader: ld, src: src, doc: string(data)}
	l.apply(doc)
	// Report a file's problems in the order of its lines.
	probs := ld.res.Problems[start:]
	sort.SliceStable(probs, func(i, j int) bool { return probs[i].Line < probs[j].Line })
}

// blankComments empties the lines that hold only a comment, keeping the
// newlines so positions stay where they were. The decoder spends about
// 20 ns per byte of comment, and a file written by `guard-exec config
// init` is mostly comments: this takes a commented file's cost from ~75 µs
// to ~15 µs, on every command. Without multi-line strings (no triple
// quotes) a line starting with # can only be a comment, so the document
// means the same; with them it is left as it is.
func blankComments(data []byte) []byte {
	if bytes.Contains(data, []byte(`"""`)) || bytes.Contains(data, []byte("'''")) {
		return data
	}
	var out []byte
	for start := 0; start < len(data); {
		end := bytes.IndexByte(data[start:], '\n') + 1
		if end == 0 {
			end = len(data) - start
		}
		line := data[start : start+end]
		if t := bytes.TrimLeft(line, " \t"); len(t) > 0 && t[0] == '#' {
			if out == nil {
				out = append(make([]byte, 0, len(data)), data[:start]...)
			}
			if line[len(line)-1] == '\n' {
				out = append(out, '\n')
			}
		} else if out != nil {
			out = append(out, line...)
		}
		start += end
	}
	if out == nil {
		return data
	}
	return out
}

// decodeTOML decodes a document into plain values. The decoder is not
// trusted to be free of panics on every input: one would become an error.
func decodeTOML(data []byte) (doc map[string]any, err error) {
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, fmt.Errorf("the TOML decoder failed: %v", r)
		}
	}()
	doc = map[string]any{}
	_, err = toml.Decode(string(data), &doc)
	return doc, err
}

// ReadConfigFile reads one layer's file, bounded: it must be a regular
// file (a FIFO or a device would stall or flood the guard) of at most
// MaxConfigSize bytes, and a system or user file that every user may
// write is refused, since anyone could weaken the guard through it.
func ReadConfigFile(src ConfigSource) ([]byte, error) {
	data, st, err := readBounded(src.Path, MaxConfigSize)
	switch {
	case errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR):
		return nil, fs.ErrNotExist // ENOTDIR: a file where a directory of the path should be
	case errors.Is(err, errTooLarge):
		return nil, fmt.Errorf("is larger than %d KiB", MaxConfigSize>>10)
	case errors.Is(err, errNotRegular):
		return nil, errors.New("is not a regular file")
	case err != nil:
		return nil, fmt.Errorf("cannot be read: %w", err)
	case src.Layer != LayerProject && st.Mode&0o002 != 0:
		return nil, errors.New("is writable by every user")
	}
	return data, nil
}

var (
	errTooLarge   = errors.New("too large")
	errNotRegular = errors.New("not a regular file")
)

// readBounded reads a small regular file with plain system calls: open,
// fstat, read, close. (An os.File would also try to register the
// descriptor with the runtime's poller, two more calls on every command.)
// O_NONBLOCK keeps a FIFO in the file's place from stalling the open.
func readBounded(path string, max int64) ([]byte, *syscall.Stat_t, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, nil, err
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, nil, err
	}
	switch {
	case st.Mode&syscall.S_IFMT != syscall.S_IFREG:
		return nil, nil, errNotRegular
	case st.Size > max:
		return nil, nil, errTooLarge
	}
	// Read what fstat promised plus one byte, to see the end (or that
	// the file grew meanwhile, which is read up to the bound, no further).
	buf := make([]byte, st.Size+1)
	n := 0
	for {
		if n == len(buf) {
			if int64(len(buf)) > max {
				return nil, nil, errTooLarge
			}
			buf = append(buf, make([]byte, len(buf))...)
		}
		m, err := syscall.Read(fd, buf[n:])
		switch {
		case err == syscall.EINTR || err == syscall.EAGAIN:
			continue
		case err != nil:
			return nil, nil, err
		case m == 0:
			return buf[:n], &st, nil
		}
		n += m
	}
}

// oneLine makes a message from outside fit the one-line format.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSuffix(s, ".")
}
