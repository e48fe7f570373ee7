package policy

import (
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// fdValueOpts are fd's options that take a value as the next argument
// (as in parse).
var fdValueOpts = map[string]bool{
	"-e": true, "--extension": true, "-t": true, "--type": true, "-E": true, "--exclude": true,
	"-d": true, "--max-depth": true, "--min-depth": true, "--exact-depth": true, "-S": true, "--size": true,
	"--changed-within": true, "--changed-before": true, "--newer": true, "--older": true, "-o": true, "--owner": true,
	"-c": true, "--color": true, "-j": true, "--threads": true, "--max-results": true, "--base-directory": true,
	"--search-path": true, "--path-separator": true, "--ignore-file": true, "--format": true,
	"--max-buffer-time": true, "--batch-size": true, "--and": true, "--hyperlink": true,
}

// fdSearch reads fd's pattern and search paths ("." when none), and
// whether its options narrow what it lists. ok is false when a path or
// the base directory is not literal.
func fdSearch(f *parse.Command) (roots []parse.Word, filtered, ok bool) {
	var pos []parse.Word
	base := ""
	for i := 0; i < len(f.Args); i++ {
		a := f.Args[i]
		v := a.Value
		switch {
		case v == "-x" || v == "--exec" || v == "-X" || v == "--exec-batch":
			for i++; i < len(f.Args) && f.Args[i].Value != ";"; i++ {
			}
		case fdValueOpts[v] && i+1 < len(f.Args):
			i++
			switch v {
			case "--search-path":
				roots = append(roots, f.Args[i])
			case "--base-directory":
				if !f.Args[i].Literal() {
					return nil, false, false
				}
				base = f.Args[i].Value
			case "-e", "--extension", "-t", "--type", "-S", "--size", "--changed-within", "--changed-before",
				"--newer", "--older", "-o", "--owner", "--min-depth", "--exact-depth", "--and":
				filtered = true
			}
		case strings.HasPrefix(v, "-") && v != "-":
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) > 0 {
		switch pos[0].Value {
		case "", ".", "^", ".*", "*":
		default:
			filtered = true
		}
		roots = append(roots, pos[1:]...)
	}
	if len(roots) == 0 {
		roots = []parse.Word{{Value: ".", Pos: f.Pos}}
	}
	for i, r := range roots {
		if !r.Literal() {
			return nil, false, false
		}
		if base != "" && !strings.HasPrefix(r.Value, "/") {
			roots[i].Value = base + "/" + r.Value
		}
	}
	return roots, filtered, true
}

// fdRootPlaces classifies what fd lists: entries below its search paths
// (never the paths themselves), all of their contents when the pattern
// matches everything.
func (x *Ctx) fdRootPlaces(f *parse.Command) []Place {
	roots, filtered, ok := fdSearch(f)
	if !ok {
		return []Place{PlaceUnknown}
	}
	var out []Place
	for _, r := range roots {
		d := abs(x.dirOf(f), r.Value)
		switch {
		case d == "":
			out = append(out, PlaceUnknown)
		case filtered:
			out = append(out, x.childPlace(d, ""))
		default:
			out = append(out, x.placeOfPath(d, true))
		}
	}
	return out
}

// fdDirs returns the directories fd searches, or nil.
func (x *Ctx) fdDirs(f *parse.Command) []string {
	roots, _, ok := fdSearch(f)
	if !ok {
		return nil
	}
	var dirs []string
	for _, r := range roots {
		d := abs(x.dirOf(f), r.Value)
		if d == "" {
			return nil
		}
		dirs = append(dirs, d)
	}
	return dirs
}

// fdAt finds the fd (or fdfind) command at pos, depth levels deep.
func (x *Ctx) fdAt(pos parse.Pos, depth int) *parse.Command {
	if f := x.commandAt("fd", pos, depth); f != nil {
		return f
	}
	return x.commandAt("fdfind", pos, depth)
}
