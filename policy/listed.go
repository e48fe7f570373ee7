package policy

import "github.com/guard-exec/guard-exec/parse"

// listedPlace judges an argument that is, as a whole, the output of a
// substitution listing paths: "rm -rf $(find . -name __pycache__)"
// deletes what find lists under its roots, judged like find -delete
// there. ok is false when the word has other parts or its feeders are
// not only finds and line filters.
func (x *Ctx) listedPlace(c *parse.Command, w parse.Word) (Place, bool) {
	if w.Value != parse.Unknown {
		return 0, false
	}
	finds := listingFinds(c.FeedersOfWord(w))
	if len(finds) == 0 {
		return 0, false
	}
	var ps []Place
	for _, f := range finds {
		ps = append(ps, x.findRootPlaces(f, true)...)
	}
	return x.worst(ps), true
}

// listingFinds returns the finds among feeders when every feeder is a
// find that prints only paths or a line filter; nil otherwise. A find
// that runs commands or formats its output (-exec, -printf, -ls) may
// print anything.
func listingFinds(feeders []*parse.Command) []*parse.Command {
	var finds []*parse.Command
	for _, f := range feeders {
		switch {
		case f.Name == "find" && len(f.Wrappers) == 0 && f.Remote == "" && findPrintsPaths(f):
			finds = append(finds, f)
		case lineFilters()[f.Name] && f.Name != "cat" && f.Name != "tee":
			// cat and tee could add a file's lines to the list
		default:
			return nil
		}
	}
	return finds
}

// findPrintsPaths reports whether find prints only the paths it finds:
// its actions (their meanings, which parse records) neither run, write
// nor format.
func findPrintsPaths(f *parse.Command) bool {
	return !f.Flag("runs") && !f.Flag("writes") && !f.Flag("formats")
}
