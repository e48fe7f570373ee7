package parse

import (
	"path"
	"strconv"
	"strings"
)

// git takes configuration from more places than its -c options, and runs
// what their code keys say (core.pager, alias.NAME='!…') wherever the
// setting came from:
//
//   - GIT_CONFIG_COUNT=N with GIT_CONFIG_KEY_i and GIT_CONFIG_VALUE_i, and
//     GIT_CONFIG_PARAMETERS ('key'='value' or 'key=value', quoted as git
//     quotes them), which is how git passes -c on to the gits it starts;
//   - --config-env KEY=VAR, the value of the variable VAR;
//   - the files GIT_CONFIG_GLOBAL and GIT_CONFIG_SYSTEM name (unless
//     GIT_CONFIG_NOSYSTEM), and ~/.gitconfig or $XDG_CONFIG_HOME/git/config
//     when the line moves HOME or XDG_CONFIG_HOME, and the files their
//     include.path and includeIf.*.path name, -c include.path=FILE too.
//
// A setting from the environment is read as the same -c. A file that
// exists is read with git's config syntax and its settings are the
// file's -c; one that is not there gives nothing (git skips it), and one
// that cannot be read or parsed, or is named by a value not known, is
// unknown code. The repository's own .git/config is, like its hooks, the
// project's, not judged here.

// gitSetting is one configuration setting git gets: KEY=VALUE in word,
// and where it came from, for Via ("-c", "GIT_CONFIG_PARAMETERS", a
// file's path).
type gitSetting struct {
	word arg
	from string
}

// maxGitIncludes is how deep git follows include.path (its own limit).
const maxGitIncludes = 10

// gitEnvSettings returns the settings c's environment and its
// --config-env options give git, after those of its -c options.
func (fr *frame) gitEnvSettings(c *Command, configs []arg, configEnv []arg) []gitSetting {
	var out []gitSetting
	for _, cf := range configs {
		out = append(out, gitSetting{cf, "-c"})
	}
	at := func(s string) arg { return arg{Word: Word{Value: s, Dynamic: hasUnknown(s), Pos: c.Pos}} }
	for _, ce := range configEnv {
		key, name, ok := strings.Cut(ce.Value, "=")
		if !ok || hasUnknown(name) {
			continue
		}
		if v, ok := fr.envOf(c, name); ok {
			out = append(out, gitSetting{at(key + "=" + v), "--config-env"})
		} else if !hasUnknown(key) && gitCodeKey(strings.ToLower(key)) {
			// A variable the line does not set: its value is not known.
			out = append(out, gitSetting{at(key + "=" + Unknown), "--config-env"})
		}
	}
	if v, ok := fr.envOf(c, "GIT_CONFIG_PARAMETERS"); ok {
		for _, kv := range gitConfigParameters(v) {
			out = append(out, gitSetting{at(kv), "GIT_CONFIG_PARAMETERS"})
		}
	}
	if v, ok := fr.envOf(c, "GIT_CONFIG_COUNT"); ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if hasUnknown(v) {
			n, err = 64, nil // every pair the line sets may count
		}
		for i := 0; err == nil && i < min(n, 64); i++ {
			k, kok := fr.envOf(c, "GIT_CONFIG_KEY_"+strconv.Itoa(i))
			val, vok := fr.envOf(c, "GIT_CONFIG_VALUE_"+strconv.Itoa(i))
			if !kok && !vok {
				continue
			}
			if !vok {
				val = Unknown
			}
			if !kok {
				k = Unknown
			}
			out = append(out, gitSetting{at(k + "=" + val), "GIT_CONFIG_COUNT"})
		}
	}
	files := []struct{ env, file string }{{"GIT_CONFIG_SYSTEM", ""}, {"HOME", ".gitconfig"}, {"XDG_CONFIG_HOME", "git/config"}, {"GIT_CONFIG_GLOBAL", ""}}
	var fromFiles []gitSetting
	var walk includeWalk
	for _, f := range files {
		v, ok := fr.envOf(c, f.env)
		if !ok || v == "" {
			continue
		}
		if f.env == "GIT_CONFIG_SYSTEM" {
			if _, off := fr.envOf(c, "GIT_CONFIG_NOSYSTEM"); off {
				continue
			}
		}
		if f.file != "" {
			if hasUnknown(v) {
				continue // a place not known: what is there is not either
			}
			v = strings.TrimSuffix(v, "/") + "/" + f.file
		}
		fromFiles = fr.gitConfigFile(c, c.Dir, v, f.env, fromFiles, 0, &walk)
	}
	// The files come first and -c last, as git reads them; the order
	// matters only for hooksPath, which the last setting gives.
	out = append(fromFiles, out...)
	for i := 0; i < len(out); i++ {
		key, val, _ := strings.Cut(out[i].word.Value, "=")
		key = strings.ToLower(key)
		if key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path") {
			if out[i].from == "-c" || out[i].from == "--config-env" || out[i].from == "GIT_CONFIG_PARAMETERS" || out[i].from == "GIT_CONFIG_COUNT" {
				out = fr.gitConfigFile(c, c.Dir, val, key, out, 0, &walk)
			}
		}
	}
	return out
}

// includeWalk is what one command's reading of its configuration files
// shares: once an include chain is deeper than git follows, git fails
// and nothing more is read.
type includeWalk struct{ tooDeep bool }

// gitConfigFile reads the configuration file p (relative to dir) and
// appends its settings, and those of the files it includes, to out. A
// file that is not there gives nothing; one that cannot be read or
// parsed, or a name not known, is unknown code.
func (fr *frame) gitConfigFile(c *Command, dir, p, via string, out []gitSetting, depth int, walk *includeWalk) []gitSetting {
	if strings.HasPrefix(p, "~/") {
		home, ok := fr.envOf(c, "HOME")
		if !ok {
			home, ok = fr.st.lookup("HOME").value()
		}
		if !ok || home == "" {
			home = Unknown
		}
		p = home + p[1:]
	}
	unknown := func(writer *Command) []gitSetting {
		fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: p, Feeders: withWriter(nil, writer), Pos: c.Pos})
		return out
	}
	if walk.tooDeep {
		return out
	}
	if depth > maxGitIncludes {
		// git stops with an error here, and so ends an include cycle;
		// the analysis says once that it did not follow, and reads no
		// more of this command's files.
		walk.tooDeep = true
		return unknown(nil)
	}
	text, state, writer := fr.readConfigFile(dir, p)
	switch state {
	case fileMissing:
		return out
	case fileUnreadable:
		return unknown(writer)
	}
	// Each file read is work the analysis pays for: files that include
	// each other many times would otherwise be read their fan-out to the
	// tenth power. Once the budget is spent the rest is unknown
	// (DynTooDeep).
	if !fr.spend(1+len(text)/64, c.Pos) {
		return out
	}
	entries, ok := parseGitConfig(text)
	if !ok {
		return unknown(nil)
	}
	full := resolvePath(dir, p)
	for _, kv := range entries {
		if fr.r.exhausted || walk.tooDeep {
			break
		}
		out = append(out, gitSetting{arg{Word: Word{Value: kv, Dynamic: hasUnknown(kv), Pos: c.Pos}}, full})
		key, val, _ := strings.Cut(kv, "=")
		if key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path") {
			out = fr.gitConfigFile(c, path.Dir(full), val, full, out, depth+1, walk)
		}
	}
	return out
}

// readConfigFile reads a file a program takes settings from: what the
// line wrote there, else the file on disk (readRun). /dev/null is empty.
// The writer is the command that wrote the file when what it wrote is
// not known.
func (fr *frame) readConfigFile(dir, p string) (string, fileState, *Command) {
	full := resolvePath(dir, p)
	switch {
	case hasUnknown(p) || full == "":
		return "", fileUnreadable, nil
	case full == "/dev/null":
		return "", fileRead, nil
	}
	if w := fr.r.files[full]; w != nil {
		if !w.known {
			return "", fileUnreadable, w.writer
		}
		return w.text, fileRead, nil
	}
	text, st := fr.readRun(full)
	return text, st, nil
}

// gitConfigParameters splits GIT_CONFIG_PARAMETERS into KEY=VALUE
// settings: each is 'KEY'='VALUE' or, in the older form, 'KEY=VALUE',
// quoted as git's sq_quote quotes (a quote inside closes the string,
// comes as \' and opens it again), separated by spaces. What does not
// read that way is one setting with an unknown key, as git would refuse
// or misread it.
func gitConfigParameters(s string) []string {
	var out []string
	i := 0
	quoted := func() (string, bool) {
		if i >= len(s) || s[i] != '\'' {
			return "", false
		}
		var b strings.Builder
		i++
		for {
			j := strings.IndexByte(s[i:], '\'')
			if j < 0 {
				return "", false
			}
			b.WriteString(s[i : i+j])
			i += j + 1
			if strings.HasPrefix(s[i:], `\''`) {
				b.WriteByte('\'')
				i += 3
				continue
			}
			return b.String(), true
		}
	}
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
		if i >= len(s) {
			return out
		}
		key, ok := quoted()
		if !ok {
			return append(out, Unknown+"="+s[i:])
		}
		if i < len(s) && s[i] == '=' {
			i++
			val, ok := quoted()
			if !ok {
				return append(out, key+"="+Unknown)
			}
			key += "=" + val
		}
		out = append(out, key)
	}
}

// parseGitConfig reads a configuration file as git does: [section],
// [section "subsection"] (and the old [section.subsection]) headers, NAME
// = VALUE lines (a NAME alone is true), # and ; comments, "…" quoting,
// the escapes \" \\ \n \t \b and a backslash at the end of a line going
// on to the next. It returns the settings as KEY=VALUE, KEY with the
// section and name lower-cased, and false for text git would refuse.
func parseGitConfig(text string) ([]string, bool) {
	var out []string
	section := ""
	s := strings.TrimPrefix(text, "\ufeff")
	i := 0
	isSpace := func(b byte) bool { return b == ' ' || b == '\t' || b == '\r' }
	for i < len(s) {
		ch := s[i]
		switch {
		case ch == '\n' || isSpace(ch):
			i++
		case ch == '#' || ch == ';':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case ch == '[':
			var ok bool
			if section, i, ok = gitSectionHeader(s, i+1); !ok {
				return nil, false
			}
		case ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z':
			j := i
			for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9' || s[j] == '-') {
				j++
			}
			name := strings.ToLower(s[i:j])
			if section != "" {
				name = section + "." + name // git takes a name before any section as it is
			}
			i = j
			for i < len(s) && isSpace(s[i]) {
				i++
			}
			if i >= len(s) || s[i] == '\n' || s[i] == '#' || s[i] == ';' {
				out = append(out, name+"=true")
				continue
			}
			if s[i] != '=' {
				return nil, false
			}
			i++
			var val strings.Builder
			inQuote, spaces := false, 0
		value:
			for i < len(s) {
				b := s[i]
				switch {
				case b == '\n':
					if inQuote {
						return nil, false
					}
					break value
				case !inQuote && (b == '#' || b == ';'):
					for i < len(s) && s[i] != '\n' {
						i++
					}
					break value
				case !inQuote && isSpace(b):
					if val.Len() > 0 {
						spaces++
					}
					i++
					continue
				}
				for ; spaces > 0; spaces-- {
					val.WriteByte(' ')
				}
				switch {
				case b == '"':
					inQuote = !inQuote
				case b == '\\':
					if i+1 >= len(s) {
						return nil, false
					}
					i++
					switch s[i] {
					case '\n':
					case '\r':
						if i+1 < len(s) && s[i+1] == '\n' {
							i++
						}
					case 'n':
						val.WriteByte('\n')
					case 't':
						val.WriteByte('\t')
					case 'b':
						val.WriteByte('\b')
					case '"', '\\':
						val.WriteByte(s[i])
					default:
						return nil, false
					}
				default:
					val.WriteByte(b)
				}
				i++
			}
			out = append(out, name+"="+val.String())
		default:
			return nil, false
		}
	}
	return out, true
}

// gitSectionHeader reads a section header from s[i:], just after its
// "[": NAME] or NAME "SUB"] (\" and \\ escaped in SUB, which keeps its
// case). It returns the section as KEY's prefix and where the header
// ends.
func gitSectionHeader(s string, i int) (string, int, bool) {
	j := i
	for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9' || s[j] == '-' || s[j] == '.') {
		j++
	}
	name := strings.ToLower(s[i:j])
	if name == "" || j >= len(s) {
		return "", 0, false
	}
	if s[j] == ']' {
		return name, j + 1, true
	}
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if j >= len(s) || s[j] != '"' || strings.Contains(name, ".") {
		return "", 0, false
	}
	var sub strings.Builder
	for j++; j < len(s); j++ {
		switch s[j] {
		case '\n':
			return "", 0, false
		case '\\':
			if j+1 < len(s) {
				j++
				sub.WriteByte(s[j])
			}
		case '"':
			if j+1 < len(s) && s[j+1] == ']' {
				return name + "." + sub.String(), j + 2, true
			}
			return "", 0, false
		default:
			sub.WriteByte(s[j])
		}
	}
	return "", 0, false
}
