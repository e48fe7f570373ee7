package policy

import (
	"github.com/guard-exec/guard-exec/parse"
)

var filesystemRules = []*Rule{
	{
		ID: "rm-recursive-dangerous", Family: "filesystem", Severity: Hold,
		Message:  "recursive delete of a place outside the project (/, home, a parent, a system or unknown path)",
		Hint:     "delete the specific files inside the project you mean, or move them to a temp dir first",
		Programs: []string{"rm"},
		Command:  func(x *Ctx, c *parse.Command) bool { return rmRecursive(x, c, dangerousTarget) },
		Raw:      `\brm\s+(-[a-zA-Z]*[rR]|--recursive)`,
		Examples: []string{
			"rm -rf /",
			"rm -rf ~",
			"rm -rf ~/",
			"rm -R -f /",
			"rm --recursive --force /",
			"rm -rf -- /",
			"rm -rf --no-preserve-root /",
			"rm / -rf",
			"sudo rm -rf /",
			"rm -rf /*",
			"rm -rf ..",
			"rm -rf /etc",
			`\rm -r''f "/"`,
			"cd / && rm -rf *",
			"rm -rf $UNSET_DIR/",
		},
		NotExamples: []string{
			"rm -rf build/",
			"rm -rf /tmp/x",
			"rm -rf node_modules dist",
			"rm -f /etc/x.conf",
			`echo "rm -rf /"`,
			"ls /",
		},
	},
	{
		ID: "rm-recursive-project-root", Family: "filesystem", Severity: Warn,
		Message:  "recursive delete of the whole project directory",
		Hint:     "name the build outputs to remove instead of the project root",
		Programs: []string{"rm"},
		Command:  func(x *Ctx, c *parse.Command) bool { return rmRecursive(x, c, projectRootTarget) },
		Examples: []string{
			"rm -rf .",
			"rm -rf *",
			"rm -rf ./*",
		},
		NotExamples: []string{
			"rm -rf build",
			"rm -rf /",
		},
	},
}

var rmSpec = OptSpec{}

// rmRecursive reports whether c is a recursive rm with a target that
// matches pred.
func rmRecursive(x *Ctx, c *parse.Command, pred func(*Ctx, Target) bool) bool {
	a := ParseArgs(c.Args, rmSpec)
	if !a.Has("rR", "recursive") && !a.Dynamic {
		return false
	}
	for _, op := range a.Operands {
		if pred(x, x.target(c, op)) {
			return true
		}
	}
	return false
}

// dangerousTarget: a recursive delete here destroys work that is not the
// project's own: the root, the home directory, anything above or outside
// the project except the temp dirs and caches, or a place that cannot be
// known.
func dangerousTarget(x *Ctx, t Target) bool {
	if !t.Known {
		return true
	}
	p := x.resolve(t.Path)
	if p == "/" || p == x.Home {
		return true
	}
	if x.Project != "" && within(x.Project, p) && p != x.Project {
		return true // a parent of the project
	}
	return !x.inWriteRoots(p)
}

// projectRootTarget: the project directory itself, or everything in it.
func projectRootTarget(x *Ctx, t Target) bool {
	if !t.Known || x.Project == "" {
		return false
	}
	p := x.resolve(t.Path)
	return p == x.Project && (t.Glob || t.Word.Value == "." || t.Word.Value == "./")
}
