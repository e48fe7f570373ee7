package parse

import (
	"strings"
)

// Some commands print a path that is not known but whose place is:
// mktemp prints the name of a file or directory it just made in the temp
// dir. A substitution of one of them gives that path with Unknown for
// the random part ("$(mktemp -d)" is "/tmp/tmp.…"), so what is done with
// it is judged where it is ("rm -rf "$tmp"" deletes a fresh temp dir).

// substPath returns the path printed by the commands of a substitution
// when their output is not data but a path of known place.
func (fr *frame) substPath(got []*Command) (string, bool) {
	var last *Command
	for _, c := range got {
		if c.pipedOut {
			continue
		}
		if last != nil {
			return "", false // more than one command prints
		}
		last = c
	}
	if last == nil || last.Name != "mktemp" || last.Remote != "" || redirectsStdout(last.Redirs) {
		return "", false
	}
	if !onlyWrappers(last, "command", "nohup", "time", "nice", "timeout") {
		return "", false
	}
	return fr.mktempPath(last)
}

// mktempPath works out where GNU or BSD mktemp creates its file: with no
// template, tmp.XXXXXXXXXX in the temp dir; with -p DIR/--tmpdir[=DIR]
// the template is relative to DIR (or the temp dir when none is given);
// with -t it is a name in the temp dir ($TMPDIR first, then -p's DIR);
// otherwise the template is relative to the working directory, or
// absolute. The trailing Xs are the unknown part.
func (fr *frame) mktempPath(c *Command) (string, bool) {
	var template *Word
	dir, inTmp, tFlag := "", false, false
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		v := a.Value
		switch {
		case !a.Literal():
			return "", false
		case strings.HasPrefix(v, "--tmpdir="):
			dir, inTmp = strings.TrimPrefix(v, "--tmpdir="), true
		case v == "--tmpdir":
			inTmp = true // the optional value must be attached
		case strings.HasPrefix(v, "--suffix="), v == "--directory", v == "--dry-run", v == "--quiet":
		case v == "--suffix":
			i++
		case strings.HasPrefix(v, "--"):
			return "", false // an option not known here
		case strings.HasPrefix(v, "-") && len(v) > 1:
			for j := 1; j < len(v); j++ {
				switch v[j] {
				case 'd', 'u', 'q':
				case 't':
					tFlag = true
				case 'p':
					inTmp = true
					if j+1 < len(v) {
						dir = v[j+1:]
					} else if i+1 < len(c.Args) && c.Args[i+1].Literal() {
						i++
						dir = c.Args[i].Value
					} else {
						return "", false
					}
					j = len(v)
				default:
					return "", false
				}
			}
		case template != nil:
			return "", false // mktemp takes one template
		default:
			template = &c.Args[i]
		}
	}
	name := "tmp.XXXXXXXXXX"
	if template == nil {
		inTmp = true
	} else {
		name = template.Value
	}
	tmp, set, ok := fr.tmpDir(c)
	if !ok {
		return "", false
	}
	base := c.Dir
	switch {
	case tFlag && !set && dir != "":
		base = dir
	case tFlag:
		base = tmp
	case inTmp && dir == "":
		base = tmp
	case inTmp:
		base = dir
	}
	// The random part is the last run of Xs; GNU mktemp keeps what
	// follows it as a suffix (out.XXXXXX.json).
	end := strings.LastIndex(name, "XXX")
	if end < 0 || strings.Contains(name[end:], "/") {
		return "", false // mktemp refuses a template with fewer than 3 Xs
	}
	end += 3
	start := len(strings.TrimRight(name[:end], "X"))
	suffix := name[end:]
	if strings.Contains(suffix, "/") {
		return "", false
	}
	p := resolvePath(base, name[:start]+"X")
	if p == "" {
		return "", false
	}
	return p[:len(p)-1] + Unknown + suffix, true
}

// tmpDir is the temp dir mktemp uses: $TMPDIR when set and not empty
// (set), else /tmp.
func (fr *frame) tmpDir(c *Command) (dir string, set, ok bool) {
	v, isSet := fr.lookup("TMPDIR").value()
	for _, a := range c.Assigns {
		if a.Name == "TMPDIR" {
			v, isSet = a.Value.Value, true
		}
	}
	switch {
	case hasUnknown(v):
		return "", false, false
	case !isSet || v == "":
		return "/tmp", false, true
	}
	return v, true, true
}
