package policy

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/parse"
)

// Place says where a path argument of a destructive command lands, from
// harmless to worst. Destructive rules (recursive rm, find -delete, chmod
// -R, mv) judge their operands by it, so they agree on what "outside the
// project" means.
type Place uint8

const (
	// PlaceInside is inside the project or another allowed write root
	// (the temp dirs, user caches, configured roots), below its top.
	PlaceInside Place = iota
	// PlaceProjectTop is everything in the project root at once: ".",
	// "*", "./*", or a dynamic name directly under the root.
	PlaceProjectTop
	// PlaceProjectRoot is the project directory itself, or its .git.
	PlaceProjectRoot
	// PlaceOutside is a path outside the allowed roots: elsewhere in the
	// home directory, another user's files, a mounted volume.
	PlaceOutside
	// PlaceSystem is a system directory or something in one.
	PlaceSystem
	// PlaceParent is a directory above the project.
	PlaceParent
	// PlaceHome is the home directory itself or everything in it.
	PlaceHome
	// PlaceRoot is "/" or everything in it.
	PlaceRoot
	// PlaceUnknown cannot be known statically: a dynamic word, an
	// unknown working directory, input a sink supplies at run time.
	PlaceUnknown
)

var placeNames = [...]string{"inside", "project-top", "project-root", "outside", "system", "parent", "home", "root", "unknown"}

func (p Place) String() string { return placeNames[p] }

// Dangerous reports whether destroying p destroys work that is not the
// project's own, or cannot be known not to.
func (p Place) Dangerous() bool { return p >= PlaceOutside }

// Broad reports whether p is a tree whose loss breaks the machine or the
// user's account, not just some files: the root, system directories,
// the home directory, a parent of the project, or an unknown place.
func (p Place) Broad() bool { return p >= PlaceSystem }

// systemTop reports whether name is the first component of a system
// directory. A switch, not a map: a map literal is built at package init,
// which every command pays.
func systemTop(name string) bool {
	switch name {
	case "bin", "boot", "dev", "etc", "lib", "lib32", "lib64",
		"libx32", "opt", "proc", "root", "run", "sbin", "snap",
		"srv", "sys", "usr", "var", "home", "Users", "nix",
		"Library", "System", "Applications", "private", "Volumes",
		"mnt", "media":
		return true
	}
	return false
}

// isSystem reports whether the absolute, clean path p is in a system
// directory.
func isSystem(p string) bool {
	top, _, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	return systemTop(top)
}

// placeOfPath classifies an absolute, clean path. whole is set when the
// operation takes everything in p (a glob "p/*"): the project's contents
// are then PlaceProjectTop rather than the project itself.
func (x *Ctx) placeOfPath(p string, whole bool) Place {
	return x.placeOfReal(x.resolve(p), whole)
}

// placeOfReal is placeOfPath for a path whose links are resolved already.
func (x *Ctx) placeOfReal(p string, whole bool) Place {
	home, proj := x.realPath(x.Home), x.realPath(x.usableProject())
	switch {
	case p == "/":
		return PlaceRoot
	case home != "" && p == home:
		return PlaceHome
	case proj != "" && within(proj, p) && p != proj:
		return PlaceParent
	case proj != "" && p == proj:
		if whole {
			return PlaceProjectTop
		}
		return PlaceProjectRoot
	case proj != "" && (p == proj+"/.git" || gitHistory(p, proj+"/.git/")):
		return PlaceProjectRoot
	case proj != "" && within(p, proj):
		return PlaceInside // before system paths: a project may live in /srv or /usr/src
	case x.inTempOrCache(p):
		return PlaceInside
	case isSystem(p) && !(home != "" && within(p, home)):
		return PlaceSystem
	}
	return PlaceOutside
}

// gitHistory reports whether p holds the repository's history: its
// objects, refs or reflogs (not lock files, hooks or an interrupted
// rebase's state, which agents clean up routinely).
func gitHistory(p, gitDir string) bool {
	rest, ok := strings.CutPrefix(p, gitDir)
	if !ok {
		return false
	}
	top, _, _ := strings.Cut(rest, "/")
	switch top {
	case "objects", "refs", "logs", "packed-refs", "HEAD", "modules", "worktrees":
		return true
	}
	return false
}

// usableProject is the project root when it can serve as a write root for
// destructive operations: a project that is "/" or the home directory
// (a shell started in ~ outside any repository), or a system directory
// itself (/usr, /etc), would make everything look like the agent's own
// work.
func (x *Ctx) usableProject() string {
	p := x.Project
	if p == "" || p == "/" || p == x.Home || (x.Home != "" && within(x.Home, p)) || isSystemTree(p) {
		return ""
	}
	return p
}

// inTempOrCache reports whether the resolved path p is in a write root
// other than the project (temp dirs, caches, configured roots).
func (x *Ctx) inTempOrCache(p string) bool {
	if !x.tempsDone {
		x.tempsDone = true
		for _, r := range x.WriteRoots {
			if r == x.Project || r == "/" || r == "" || r == x.Home {
				continue
			}
			x.temps = append(x.temps, x.realPath(r))
		}
	}
	for _, r := range x.temps {
		if within(p, r) {
			return true
		}
	}
	return false
}

// realPath is p, one of the roots (home, project, write roots), with
// symlinks resolved, cached for the decision. The roots are directories,
// so they are resolved through the directory cache, as resolvedRoots
// does: with Ctx.Paths set, a batch of decisions pays their Lstats once,
// not each of some fifteen roots on every command that writes.
func (x *Ctx) realPath(p string) string {
	if p == "" {
		return ""
	}
	if r, ok := x.real[p]; ok {
		return r
	}
	if x.real == nil {
		x.real = map[string]string{}
	}
	r, _ := x.lookupDir(filepath.Clean(p), 0)
	x.real[p] = r
	return r
}

// dirOf is the directory c runs in, or "" when it is not known. The
// analysis is given the caller's directory, so an empty Dir means a cd it
// could not follow ("cd "$X" && rm -rf *"): relative paths are unknown.
func (x *Ctx) dirOf(c *parse.Command) string { return c.Dir }

// abs makes a path absolute against dir; "" when it cannot.
func abs(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, p)
}

// place classifies one path operand of c.
func (x *Ctx) place(c *parse.Command, w parse.Word) Place {
	p := x.placeOf(c, w)
	if p == PlaceUnknown && x.confined {
		return PlaceInside // sandbox.go: the kernel keeps it inside the roots
	}
	return p
}

func (x *Ctx) placeOf(c *parse.Command, w parse.Word) Place {
	if c.Remote != "" {
		// A fresh container's files are the image's, except what it
		// mounts (places_container.go).
		if ms, ok := x.runMounts(c); ok {
			return x.containerPlace(c, w, ms)
		}
		// Another machine's files: not ours to judge by our paths, but a
		// recursive delete of its root is as bad there as here.
		return x.remotePlace(c, w)
	}
	if nw, ok := inPartDir(c, w); ok {
		if c.DirMade && !parse.Climbs(w.Value) && !w.Dynamic {
			// Inside a directory the script made: only its own work.
			return PlaceInside
		}
		return x.placeOf(c, nw)
	}
	switch {
	case w.Made:
		// A path the script made itself: only its own work is there.
		return PlaceInside
	case w.AllOf != "" && !w.Dynamic:
		// One of the entries * matched: together they are the
		// directory's contents, whatever it holds today.
		return x.placeOfPath(w.AllOf, true)
	case w.Dynamic && c.Placeholder && strings.HasPrefix(w.Value, parse.Unknown) && c.FeedersOfWord(w) == nil:
		// The path starts with what the sink supplies ("{}", "{}/sub");
		// a known prefix ("$HOME/{}") is judged by that prefix instead.
		return x.placeholderPlace(c, w)
	case w.Dynamic && filepath.IsAbs(w.Assumed):
		// Unknown only because unseen code ran before it: judged by the
		// value it had (boundary.go's assumedTarget says why).
		nw := w
		nw.Value, nw.Dynamic, nw.Assumed = w.Assumed, strings.Contains(w.Assumed, parse.Unknown), ""
		return x.placeOf(c, nw)
	case w.Dynamic:
		if p, ok := x.listedPlace(c, w); ok {
			return p
		}
		return x.dynamicPlace(c, w)
	case w.Glob:
		return x.globPlace(c, w.Value)
	}
	p := abs(x.dirOf(c), w.Value)
	if p == "" {
		return PlaceUnknown
	}
	// "." names the directory's contents as far as rm and find are
	// concerned (rm refuses to remove "." itself).
	return x.placeOfPath(p, isDot(w.Value))
}

// inPartDir returns, for a relative operand of a command whose directory
// is partly known (parse.Command.DirPart: after cd "$TMPDIR/t-$$"), the
// operand as that directory joined with it: `cd /tmp/t-$$ && rm -rf *` is
// judged as `rm -rf /tmp/t-$$/*`.
func inPartDir(c *parse.Command, w parse.Word) (parse.Word, bool) {
	if c.Dir != "" || c.DirPart == "" || w.Value == "" || filepath.IsAbs(w.Value) || w.Made {
		return w, false
	}
	nw := w
	nw.Value, nw.Dynamic, nw.Assumed, nw.Alts = c.DirPart+"/"+w.Value, true, "", nil
	return nw, true
}

func isDot(v string) bool {
	return v == "." || v == "./" || strings.HasSuffix(v, "/.") || strings.HasSuffix(v, "/./")
}

// remotePlace judges a path on another host by its text alone: there is
// no project there, so absolute paths are judged as the root, system
// paths, temp dirs or elsewhere, and relative ones are judged from the
// remote directory when a cd made it known, and otherwise not judged
// (they are under the remote user's directory).
func (x *Ctx) remotePlace(c *parse.Command, w parse.Word) Place {
	v := w.Value
	switch {
	case w.Dynamic:
		k := w.Known()
		if k == "" {
			return PlaceUnknown
		}
		v = k[:strings.LastIndexByte(k, '/')+1]
		if v == "" {
			v = "."
		}
	case w.Glob:
		v = globBase(v)
	}
	if !filepath.IsAbs(v) {
		if c.Dir == "" {
			return PlaceInside
		}
		v = filepath.Join(c.Dir, v)
	}
	switch p := filepath.Clean(v); {
	case p == "/":
		return PlaceRoot
	case p == "/tmp" || strings.HasPrefix(p, "/tmp/") || strings.HasPrefix(p, "/var/tmp/"):
		return PlaceInside
	case remoteCore()[topOf(p)]:
		return PlaceSystem
	case depth(p) <= 2:
		// /srv/app, /home/deploy, /opt/app: a whole application or
		// account directory of that machine.
		return PlaceOutside
	case within(p, "/var/lib") && !within(p, "/var/lib/apt/lists"):
		// /var/lib/postgresql/data, /var/lib/mysql/ibdata1: the state of
		// that machine's services at any depth. The package lists are
		// the exception, an index apt update fetches again.
		return PlaceOutside
	}
	// Deeper paths on another machine (/srv/app/releases/old,
	// /app/tmp/cache) are that machine's working files: there is no
	// project there to measure them against.
	return PlaceInside
}

// remoteCore are the operating system's own directories, held on any
// machine at any depth.
var remoteCore = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"bin": true, "boot": true, "dev": true, "etc": true, "lib": true, "lib32": true, "lib64": true,
		"libx32": true, "proc": true, "sbin": true, "sys": true, "usr": true, "System": true, "Library": true,
	}
})

func topOf(p string) string {
	top, _, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	return top
}

// depth counts the components of an absolute clean path: /a/b is 2.
func depth(p string) int { return strings.Count(strings.TrimSuffix(p, "/"), "/") }

// globPlace classifies a pattern. A last component that matches every
// name ("*", ".*") takes all of its directory; anything more specific
// ("*.o", "build-*") takes some entries inside it.
func (x *Ctx) globPlace(c *parse.Command, pat string) Place {
	i := strings.IndexAny(pat, "*?[")
	if i < 0 { // an extended glob only: !(x), @(x|y), +(x)
		i = len(pat)
	}
	start := strings.LastIndexByte(pat[:i], '/') + 1
	dir := pat[:start]
	comp := pat[start:]
	deeper := false // "*/node_modules" takes only what is below the match
	if j := strings.IndexByte(comp, '/'); j >= 0 {
		deeper = strings.Trim(comp[j:], "/") != ""
		comp = comp[:j]
	}
	if dir == "" {
		dir = "."
	}
	d := abs(x.dirOf(c), dir)
	if d == "" {
		return PlaceUnknown
	}
	switch comp {
	case "*", ".*", "*.*", "?*", ".?*", "..?*":
		if !deeper {
			return x.placeOfPath(d, true)
		}
	}
	return x.childPlace(d, strings.Trim(comp, "*?[]"))
}

// childPlace classifies an unknown entry of dir whose name starts with stem.
// The entry stands for any name, so only dir is resolved (once per
// decision however many globs look in it): an Lstat of the placeholder
// name asks the filesystem about a file nobody named. rm -rf ~/{a..z}*
// made 26 of them.
func (x *Ctx) childPlace(dir, stem string) Place {
	if stem == "" {
		stem = "_"
	}
	rd, _ := x.lookupDir(filepath.Clean(dir), 0)
	return x.placeOfReal(filepath.Join(rd, stem+"\x01"), false)
}

// dynamicPlace classifies a word with unknown parts by what is known
// before them: "/tmp/$X" is somewhere in /tmp, "build/$X" somewhere in
// build, "$HOME/$X" anywhere in the home directory, "$X" anywhere at all.
// A known part ending in "/" may be all there is ("$DIR/" with DIR empty
// is the directory itself).
func (x *Ctx) dynamicPlace(c *parse.Command, w parse.Word) Place {
	k := w.Known()
	if k == "" {
		return PlaceUnknown
	}
	if strings.Contains(w.Value[len(k):], "/..") {
		return PlaceUnknown // "$(mktemp -d)/.." climbs out of what the prefix names
	}
	slash := strings.LastIndexByte(k, '/')
	dir, stem := ".", k
	if slash >= 0 {
		dir, stem = k[:slash+1], k[slash+1:]
	}
	d := abs(x.dirOf(c), dir)
	if d == "" {
		return PlaceUnknown
	}
	if stem == "" {
		return x.placeOfPath(d, true)
	}
	if strings.Trim(stem, ".") == "" {
		return PlaceUnknown // "." or ".." followed by anything
	}
	return x.childPlace(d, stem)
}

// placeholderPlace classifies an argument a sink supplies at run time:
// the paths find -exec passes are under find's roots; xargs passes what
// its input holds, known when the input is literal data or comes from a
// command that lists paths.
func (x *Ctx) placeholderPlace(c *parse.Command, w parse.Word) Place {
	// The sink that supplies the argument may be further out than the
	// last step: find -exec sh -c 'rm -rf "$1"' _ {} reaches rm through
	// sh -c. A placeholder with a known suffix ("{}/sub") is still under
	// the root.
	for i := len(c.Via) - 1; i >= 0; i-- {
		via := c.Via[i]
		switch {
		case strings.HasPrefix(via.Sink, "find "):
			f := x.commandAt("find", via.Pos, i)
			if f == nil {
				return PlaceUnknown
			}
			return x.worst(x.findRootPlaces(f, true))
		case strings.HasPrefix(via.Sink, "fd "):
			f := x.fdAt(via.Pos, i)
			if f == nil {
				return PlaceUnknown
			}
			return x.worst(x.fdRootPlaces(f))
		case via.Sink == "xargs":
			if fed := x.xargsRan(c, i); fed != nil {
				return x.xargsPlace(fed, w)
			}
			return PlaceUnknown
		}
	}
	return PlaceUnknown
}

// placeholderDirs returns the directories the run-time arguments of a
// sink land in, when they can be known: find's roots for find -exec and
// for xargs fed by find, the lister's directory for xargs fed by ls, git
// or grep listing relative paths. nil when the arguments could be
// anywhere.
func (x *Ctx) placeholderDirs(c *parse.Command) []string {
	var src *parse.Command
	for i := len(c.Via) - 1; i >= 0 && src == nil; i-- {
		via := c.Via[i]
		switch {
		case strings.HasPrefix(via.Sink, "find "):
			src = x.commandAt("find", via.Pos, i)
			if src == nil {
				return nil
			}
		case strings.HasPrefix(via.Sink, "fd "):
			if f := x.fdAt(via.Pos, i); f != nil {
				return x.fdDirs(f)
			}
			return nil
		case via.Sink == "xargs":
			if fed := x.xargsRan(c, i); fed != nil {
				src = x.xargsSource(fed)
			}
			if src == nil {
				return nil
			}
		}
	}
	if src == nil {
		return nil
	}
	if src.Name != "find" {
		if d := x.dirOf(src); d != "" {
			return []string{d}
		}
		return nil
	}
	var dirs []string
	for _, r := range findRoots(src) {
		if !r.Literal() {
			return nil
		}
		d := abs(x.dirOf(src), r.Value)
		if d == "" {
			return nil
		}
		dirs = append(dirs, d)
	}
	return dirs
}

// xargsSource is the command whose output xargs turns into arguments,
// when it lists paths: find, or a lister of relative paths through line
// filters.
func (x *Ctx) xargsSource(c *parse.Command) *parse.Command {
	in := c.Stdin
	if in == nil {
		return nil
	}
	up := in.Upstream()
	if len(up) == 0 {
		return nil
	}
	for _, f := range up[1:] {
		if !lineFilters()[f.Name] {
			return nil
		}
	}
	src := up[0]
	if src.Name == "find" {
		return src
	}
	if !pathLister[src.Name] {
		return nil
	}
	// What it lists is named by its row's roles: operands, the
	// directories of -C and the like.
	for _, ra := range src.Roles {
		if w := ra.Word; strings.HasPrefix(w.Value, "/") || w.Dynamic || strings.HasPrefix(w.Value, "..") {
			return nil
		}
	}
	return src
}

// xargsRan returns the command xargs ran for the step c.Via[i]: c itself
// when that is its last step, otherwise the sink whose script c is part
// of ("xargs sh -c 'rm -rf {}'": the sh, whose input xargs reads).
func (x *Ctx) xargsRan(c *parse.Command, i int) *parse.Command {
	if i == len(c.Via)-1 {
		return c
	}
	if x.a == nil {
		return nil
	}
	at := c.Via[i+1].Pos
	for _, o := range x.a.Commands {
		if o.Pos == at && o.Depth() == i+1 && o.Via[i].Sink == "xargs" && o.Placeholder {
			return o
		}
	}
	return nil
}

// commandAt finds the command named name at pos, depth levels deep.
func (x *Ctx) commandAt(name string, pos parse.Pos, depth int) *parse.Command {
	if x.a == nil {
		return nil
	}
	for _, o := range x.a.Commands {
		if o.Name == name && o.Pos == pos && o.Depth() == depth {
			return o
		}
	}
	return nil
}

func (x *Ctx) worst(ps []Place) Place {
	w := PlaceInside
	for _, p := range ps {
		if p > w {
			w = p
		}
	}
	return w
}

// findRoots returns find's starting points, "." when none is given, as
// parse lists them (RoleListed).
func findRoots(f *parse.Command) []parse.Word { return f.Operands(parse.RoleListed) }

// findFiltered reports whether find's expression narrows what it matches
// to some of the entries below its roots (-name, -mtime, -size, …): a
// RoleFilter parse gives it.
func findFiltered(f *parse.Command) bool {
	for _, r := range f.Roles {
		if r.Role == parse.RoleFilter {
			return true
		}
	}
	return false
}

// findRootPlaces classifies find's roots. When the expression filters,
// what it acts on are entries below the roots, not the roots themselves.
func (x *Ctx) findRootPlaces(f *parse.Command, entries bool) []Place {
	filtered := entries && findFiltered(f)
	var out []Place
	for _, r := range findRoots(f) {
		p := x.place(f, r)
		if filtered && !r.Dynamic && !r.Glob {
			if d := abs(x.dirOf(f), r.Value); d != "" {
				p = x.childPlace(d, "")
			}
		} else if p == PlaceProjectRoot && (r.Value == "." || r.Value == "./") {
			p = PlaceProjectTop // find . takes the contents; rm refuses "." itself
		}
		out = append(out, p)
	}
	return out
}

// pathLister lists programs whose output is paths relative to their
// directory (unless given absolute operands).
var pathLister = map[string]bool{"ls": true, "fd": true, "fdfind": true, "grep": true, "rg": true, "git": true}

// lineFilters pass lines through without inventing new paths.
var lineFilters = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"grep": true, "egrep": true, "fgrep": true, "sort": true, "uniq": true,
		"head": true, "tail": true, "cat": true, "tee": true, "rg": true}
})

// xargsPlace judges the paths xargs reads from its input.
func (x *Ctx) xargsPlace(c *parse.Command, w parse.Word) Place {
	in := c.Stdin
	if in == nil {
		return PlaceUnknown
	}
	if in.Known && !strings.Contains(in.Text, parse.Unknown) {
		var ps []Place
		for _, f := range strings.Fields(in.Text) {
			v := strings.ReplaceAll(w.Value, parse.Unknown, f)
			ps = append(ps, x.place(c, parse.Word{Value: v, Pos: w.Pos}))
		}
		return x.worst(ps)
	}
	src := x.xargsSource(c)
	switch {
	case src == nil:
		return PlaceUnknown
	case src.Name == "find":
		return x.worst(x.findRootPlaces(src, true))
	default:
		d := x.dirOf(src)
		if d == "" {
			return PlaceUnknown
		}
		return x.childPlace(d, "")
	}
}
