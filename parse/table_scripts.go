package parse

import (
	"encoding/json"
	"path"
	"strings"
	"sync"
)

// Package scripts: npm run X, npm test, yarn X, pnpm X, bun run X run the
// "scripts" entry X of package.json in the working directory, with its
// pre and post scripts, by the shell. The file is read when this line
// wrote it or Options.Files reads it; one that cannot be read is unknown
// code.

// maxScriptNames bounds the scripts of one package.json followed.
const maxScriptNames = 3

// packageScripts reads the scripts of dir/package.json. ok is false when
// there is none; unreadable reports a file that could not be read.
func (fr *frame) packageScripts(c *Command, dir string) (scripts map[string]string, ok bool) {
	full := resolvePath(dir, "package.json")
	var text string
	if w := fr.r.files[full]; w != nil {
		if !w.known {
			fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: full, Feeders: writers(w), Pos: c.Pos})
			return nil, false
		}
		text = w.text
	} else {
		t, st := fr.readRun(full)
		switch st {
		case fileMissing:
			return nil, false
		case fileUnreadable:
			fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: full, Pos: c.Pos})
			return nil, false
		}
		text = t
	}
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
	}
	if err := json.Unmarshal([]byte(text), &pkg); err != nil {
		fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: full, Pos: c.Pos})
		return nil, false
	}
	return pkg.Scripts, true
}

// runPackageScript follows the script name (and its pre and post
// scripts) with the extra arguments appended, as npm does. It reports
// whether name is one of the package's scripts, as far as they could be
// read.
func (fr *frame) runPackageScript(c *Command, via, name string, extra []arg) (found bool) {
	if name == "" || hasUnknown(name) {
		return false
	}
	scripts, ok := fr.packageScripts(c, c.Dir)
	if !ok {
		return false
	}
	_, found = scripts[name]
	for i, n := range []string{"pre" + name, name, "post" + name} {
		text, ok := scripts[n]
		if !ok {
			continue
		}
		if i == 1 && len(extra) > 0 {
			text += " " + joinValues(extra)
		}
		fr.nestShellWords(c, []arg{{Word: Word{Value: text, Dynamic: hasUnknown(text), Pos: c.Pos}}}, via+" "+n)
	}
	return found
}

// npmRunHook: npm run NAME [-- ARGS].
func npmRunHook(fr *frame, c *Command, args []arg, pa parsedArgs) {
	if len(pa.ops) == 0 {
		return
	}
	var extra []arg
	for _, i := range pa.ops[1:] {
		extra = append(extra, args[i])
	}
	fr.runPackageScript(c, c.Name+" run", args[pa.ops[0]].Value, extra)
}

// installHook: npm install, ci and rebuild with no package named run the
// package's preinstall, install, postinstall and prepare scripts.
func installHook(fr *frame, c *Command, args []arg, pa parsedArgs) {
	if len(pa.ops) > 0 {
		return // npm install PKG: that package's scripts, from the registry
	}
	fr.runPackageScript(c, c.Name+" install", "install", nil)
	fr.runPackageScript(c, c.Name+" install", "prepare", nil)
}

// lifecycleHook is npm test, npm start, npm stop, npm restart: the script
// of the same name.
func lifecycleHook(name string) func(fr *frame, c *Command, args []arg, pa parsedArgs) {
	return func(fr *frame, c *Command, args []arg, pa parsedArgs) {
		var extra []arg
		for _, i := range pa.ops {
			extra = append(extra, args[i])
		}
		fr.runPackageScript(c, c.Name, name, extra)
	}
}

// yarnBuiltins are yarn's and pnpm's own commands: any other first word
// is a package script (yarn build, pnpm lint).
var yarnBuiltins = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"add": true, "audit": true, "autoclean": true, "bin": true, "cache": true, "check": true, "config": true,
		"create": true, "dedupe": true, "dlx": true, "exec": true, "explain": true, "generate-lock-entry": true,
		"global": true, "help": true, "import": true, "info": true, "init": true, "install": true, "i": true,
		"licenses": true, "link": true, "list": true, "ls": true, "login": true, "logout": true, "node": true,
		"outdated": true, "owner": true, "pack": true, "patch": true, "plugin": true, "policies": true,
		"prune": true, "publish": true, "rebuild": true, "remove": true, "rm": true, "set": true, "store": true,
		"tag": true, "team": true, "unlink": true, "unplug": true, "up": true, "update": true, "upgrade": true,
		"upgrade-interactive": true, "version": true, "versions": true, "why": true, "workspace": true,
		"workspaces": true, "setup": true, "env": true, "fetch": true, "root": true, "search": true, "x": true, "npm": true,
		"approve-builds": true, "deploy": true, "doctor": true, "self-update": true, "server": true,
	}
})

// yarnHook: yarn [run] NAME ARGS, pnpm [run] NAME ARGS, bun run NAME.
// A NAME that is no script of the package is its program (a bin in
// node_modules/.bin): yarn prisma migrate reset runs prisma, with the
// words after it. When package.json was not read, NAME may be either;
// the analysis follows the program, the reading with the risk in it.
func yarnHook(fr *frame, c *Command, args []arg, pa parsedArgs) {
	if len(pa.ops) == 0 {
		return
	}
	at := pa.ops[0] // the script's or the program's name
	first := args[at].Value
	ops := pa.ops[1:]
	lifecycle := false
	switch {
	case first == "run" || first == "run-script":
		if len(ops) == 0 {
			return
		}
		at = ops[0]
		first, ops = args[at].Value, ops[1:]
	case first == "test" || first == "start" || first == "stop" || first == "restart":
		lifecycle = true
	case yarnBuiltins()[first] || c.Name == "bun" || strings.Contains(first, "/") || path.Ext(first) == ".js":
		return
	}
	var extra []arg
	for _, i := range ops {
		extra = append(extra, args[i])
	}
	if found := fr.runPackageScript(c, c.Name, first, extra); found || lifecycle || !args[at].Literal() {
		return
	}
	fr.applyRole(c, roleSpec{role: RoleProgram}, args[at], args[at:], "", c.Name)
}
