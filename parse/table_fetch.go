package parse

import "strings"

// Rows of the downloaders that curl's and wget's rows (table_rows.go) do
// not cover. They name the file they write from the URL unless -o names
// it; policy asks which file a download wrote (curl -o x.sh; sh x.sh).

var fetchRows = []Program{
	{Name: "aria2c", Args: "*:data", Opts: "-o|--out=written -d|--dir=data -i|--input-file=data"},
	{Name: "fetch", Args: "*:data", Opts: "-o=written"},
}

// curlConfig reads a curl config file (curl -K FILE, --config FILE) as
// the options it gives, read with curl's row as if written on the line
// where -K is: output = ~/.bashrc writes there, upload-file = ~/.ssh/k
// sends it, config = OTHER reads another. The syntax is curl's: one
// option a line, its name with or without dashes, its value after
// spaces, "=" or ":", in double quotes (with \", \\, \t, \n, \r, \v) or
// up to the first space; "#" starts a comment line.
func curlConfig(cr *codeRun, text string) {
	p := LookupProgram("curl")
	args := []arg{{Word: Word{Value: "curl", Pos: cr.at.Pos}}}
	word := func(s string) arg { return arg{Word: Word{Value: s, Pos: cr.at.Pos, Dynamic: hasUnknown(s)}} }
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || line[0] == '#' {
			continue
		}
		end := strings.IndexAny(line, " \t=:")
		if end < 0 {
			end = len(line)
		}
		name, rest := line[:end], strings.TrimLeft(line[end:], " \t")
		if rest != "" && (rest[0] == '=' || rest[0] == ':') {
			rest = strings.TrimLeft(rest[1:], " \t")
		}
		if !strings.HasPrefix(name, "-") {
			name = "--" + name
		}
		args = append(args, word(name))
		if rest == "" {
			continue
		}
		if o, _, _ := p.option(name); o == nil || !o.value {
			continue // a flag; what follows it on the line is ignored
		}
		args = append(args, word(curlConfigValue(rest)))
	}
	cr.fr.applyRow(cr.c, p, args, 1, cr.via)
}

// curlConfigValue reads an option's value in a curl config line.
func curlConfigValue(s string) string {
	if s[0] != '"' {
		if i := strings.IndexAny(s, " \t"); i >= 0 {
			return s[:i]
		}
		return s
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			break
		}
		if c == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 't':
				c = '\t'
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 'v':
				c = '\v'
			default:
				c = s[i]
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}
