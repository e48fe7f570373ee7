package policy

import "github.com/guard-exec/guard-exec/parse"

// fdSearch returns what fd lists, from the roles parse gave its
// arguments: the search paths, and whether its pattern or options narrow
// the entries. ok is false when a path is not literal.
func fdSearch(f *parse.Command) (roots []parse.Word, filtered, ok bool) {
	for _, r := range f.Roles {
		switch r.Role {
		case parse.RoleListed:
			if !r.Word.Literal() {
				return nil, false, false
			}
			roots = append(roots, r.Word)
		case parse.RoleFilter:
			filtered = true
		}
	}
	return roots, filtered, len(roots) > 0
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
