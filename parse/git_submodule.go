package parse

// gitSubmoduleVars are the variables git submodule foreach gives the
// command: unknown here (they differ per submodule).
var gitSubmoduleVars = []string{"name", "sm_path", "path", "displaypath", "sha1", "toplevel"}

// gitSubmodule follows git submodule [--quiet] foreach [--recursive]
// COMMAND…: git runs the command with the shell in every submodule
// ("git submodule foreach 'git reset --hard'"). The words are joined as
// sh -c does with them. The submodules are below the working directory,
// so the command is analysed there: "rm -rf .." is judged as the
// project's parent, a relative path as inside the project.
func (fr *frame) gitSubmodule(c *Command, args []arg) {
	i := 0
	for i < len(args) && (args[i].Value == "--quiet" || args[i].Value == "-q" || args[i].Value == "--cached") {
		i++
	}
	if i >= len(args) || args[i].Value != "foreach" {
		return
	}
	i++
	for i < len(args) && (args[i].Value == "--recursive" || args[i].Value == "--quiet" || args[i].Value == "-q" || args[i].Value == "--") {
		i++
	}
	ws := args[i:]
	if len(ws) == 0 {
		return
	}
	st := fr.childState(c)
	st.args, st.argsKnown = []string{"sh"}, true
	for _, v := range gitSubmoduleVars {
		st.forget(v)
	}
	fr.nest(nesting{sink: c, via: "git submodule foreach", text: joinValues(ws), pos: fr.argsPos(ws, c), kind: DynShellArg, feeders: feedersOf(ws), st: st, stdin: c.Stdin, dialect: POSIX, user: c.User})
}
