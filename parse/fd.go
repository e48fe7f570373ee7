package parse

import (
	"strings"
	"sync"
)

// fdValueOpts are fd's options that take a value as the next argument.
var fdValueOpts = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"-e": true, "--extension": true, "-t": true, "--type": true, "-E": true, "--exclude": true,
		"-d": true, "--max-depth": true, "--min-depth": true, "--exact-depth": true, "-S": true, "--size": true,
		"--changed-within": true, "--changed-before": true, "--newer": true, "--older": true, "-o": true, "--owner": true,
		"-c": true, "--color": true, "-j": true, "--threads": true, "--max-results": true, "--base-directory": true,
		"--search-path": true, "--path-separator": true, "--ignore-file": true, "--format": true,
		"--max-buffer-time": true, "--batch-size": true, "--and": true, "--hyperlink": true,
	}
})

// sinkFd follows fd's -x/--exec and -X/--exec-batch: the command runs on
// every result (or once on all of them), with {} and its variants ({/},
// {//}, {.}, {/.}) replaced by the found path, unknown here
// (Placeholder); without a placeholder fd appends the path. The command
// reaches to the end of the line or to ";". The fd command stays as
// written, so policy can judge the roots.
func sinkFd(fr *frame, c *Command, args []arg) {
	fdRoles(fr, c)
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case fdValueOpts()[v]:
			i++
			continue
		case v == "-x" || v == "--exec" || v == "-X" || v == "--exec-batch":
		default:
			continue
		}
		j := i + 1
		var argv []arg
		replaced := false
		for ; j < len(args) && args[j].Value != ";"; j++ {
			a := args[j]
			if r, ok := replaceParallel(a.Value); ok && strings.Contains(a.Value, "{") {
				a.supplied = a.Literal()
				a.Value, a.Dynamic, a.whole = r, true, false
				replaced = true
			}
			argv = append(argv, a)
		}
		if len(argv) > 0 && !replaced {
			argv = append(argv, arg{Word: Word{Value: Unknown, Dynamic: true, Pos: argv[len(argv)-1].Pos}})
		}
		via := "fd -x"
		if v == "-X" || v == "--exec-batch" {
			via = "fd -X"
		}
		fr.runNested(c, argv, via, func(f *frame) { f.placeholder = true })
		i = j
	}
}

// fdRoles records what fd lists: its search paths (RoleListed, "." when
// none, below --base-directory), and a RoleFilter when its pattern or
// options narrow the entries it lists.
func fdRoles(fr *frame, c *Command) {
	var pos, roots []Word
	base := Word{}
	filtered := false
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		v := a.Value
		switch {
		case v == "-x" || v == "--exec" || v == "-X" || v == "--exec-batch":
			for i++; i < len(c.Args) && c.Args[i].Value != ";"; i++ {
			}
		case fdValueOpts()[v] && i+1 < len(c.Args):
			i++
			switch v {
			case "--search-path":
				roots = append(roots, c.Args[i])
			case "--base-directory":
				base = c.Args[i]
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
		roots = []Word{{Value: ".", Pos: c.Pos}}
	}
	for _, r := range roots {
		switch {
		case base.Value != "" && !strings.HasPrefix(r.Value, "/"):
			r.Value = base.Value + "/" + r.Value
			r.Dynamic = r.Dynamic || base.Dynamic
			r.Glob = r.Glob || base.Glob
		case base.Value == "" && !base.Literal():
			r.Dynamic = true
		}
		c.Roles = append(c.Roles, RoleArg{Role: RoleListed, Word: r, Path: fr.wordPath(c, r)})
	}
	if filtered {
		c.Roles = append(c.Roles, RoleArg{Role: RoleFilter})
	}
}
