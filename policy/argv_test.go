package policy

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/parse"
)

// TestPolicyReadsRolesNotArgv enforces the split between parse and
// policy: what runs is parse's to find. An option the program table says
// runs code (shell, a program, interpreter code, a script file) is read
// by parse, which analyses that code; policy judges the commands and
// facts that come out, never the option again. The test reads policy's
// source and fails on any string literal that spells such a long option,
// with or without its dashes, and on a policy type that is its own option
// model (the one model is parse.OptSpec). It also fails on the names of
// programs whose only business is running code (gdb, expect, sshpass,
// sem, …): policy judges what they run, which parse hands it as commands.
func TestPolicyReadsRolesNotArgv(t *testing.T) {
	policyJudges := map[string]bool{"git": true, "tar": true, "npm": true, "curl": true, "wget": true,
		"zip": true, "yarn": true, "parallel": true, "make": true, "vim": true, "emacs": true, "less": true, "more": true, "R": true, "coproc": true,
		// interpreterPrograms: reverseShell knows they run what reaches them.
		"Rscript": true, "pwsh": true, "powershell": true,
		// envGenerators: eval "$(just --completions bash)" prints shell setup.
		"just": true, "task": true,
		// envDump: compgen -e and -v list the environment's names.
		"compgen": true,
		// rsync's deletes, copies and reads; scp's copies and reads.
		"rsync": true, "scp": true,
		// ssh: policy judges where it connects and what it sends.
		"ssh": true,
		// netcat: a downloader and a sink; its -e is the reverse-shell rule's.
		"nc": true,
		// the database rules judge mysql's statements (its --pager runs).
		"mysql": true,
		// observers: man only looks (the pager it runs is a command of its own).
		"man": true,
		// observers: sort only looks unless -o gives it a file to write
		// (and "sort" is Go's package too).
		"sort": true}
	// Spellings that are another program's option of the same name.
	unrelated := map[string]bool{
		"init-command": true,                    // mysql --init-command: SQL, judged by the database rules
		"dry-run":      true, "--dry-run": true, // every other program's --dry-run, not only git clean's
	}
	roled := map[string][]string{} // spelling -> rows
	for _, p := range parse.ProgramTable() {
		for _, tok := range strings.Fields(p.Opts) {
			names, spec, _ := strings.Cut(tok, "=")
			role, _, _ := strings.Cut(spec, ":")
			if role != "shell" && role != "program" && role != "code" && role != "script" {
				continue
			}
			for _, n := range strings.Split(names, "|") {
				if !strings.HasPrefix(n, "--") || !strings.Contains(n[2:], "-") {
					continue // -x, --file: too common to mark one program
				}
				roled[n] = append(roled[n], p.Name)
				roled[strings.TrimPrefix(n, "--")] = append(roled[strings.TrimPrefix(n, "--")], p.Name)
			}
		}
	}
	// The programs whose code roles are parse's alone: policy has no
	// business with their names. (git, tar, npm, curl and the like have
	// rows too, but policy judges other things they do: a force push, an
	// extraction's target, a publish.)
	for _, p := range parse.ProgramTable() {
		if strings.Contains(p.Name, " ") || policyJudges[p.Name] || p.Wrapper || !rowRunsCode(p) {
			continue // wrappers are peeled: policy may ask Command.Wrappers
		}
		for _, n := range append([]string{p.Name}, p.Also...) {
			roled[n] = append(roled[n], p.Name+" (the program)")
		}
	}
	// A flag the table gives a meaning (Program.Flags) is read by parse:
	// policy asks Command.Flag. Its long spellings with a dash inside
	// ("--no-verify") are checked, with and without dashes; short ones
	// and single words ("--force") are too common to mark one program.
	for _, p := range parse.ProgramTable() {
		for _, tok := range strings.Fields(p.Flags) {
			meaning, names, _ := strings.Cut(tok, ":")
			for _, n := range strings.Split(names, "|") {
				if !strings.HasPrefix(n, "--") || !strings.Contains(n[2:], "-") {
					continue
				}
				roled[n] = append(roled[n], p.Name+" (flag "+meaning+"; ask Command.Flag)")
				roled[n[2:]] = append(roled[n[2:]], p.Name+" (flag "+meaning+"; ask Command.Flag)")
			}
		}
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var bad []string
	argvReads, rawArgs := 0, map[string]int{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if ast.IsGenerated(af) {
			continue // the needle table: a prefilter made from the rules' patterns
		}
		argvReads += countArgvReads(af)
		countRawArgs(fset, af, rawArgs)
		ast.Inspect(af, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(n.Value)
				if err != nil {
					return true
				}
				if rows, ok := roled[s]; ok && !unrelated[s] {
					bad = append(bad, fset.Position(n.Pos()).String()+": "+strconv.Quote(s)+" is an option of "+strings.Join(rows, ", ")+" with a role in the program table; ask Command.Roles")
				}
			case *ast.TypeSpec:
				if st, ok := n.Type.(*ast.StructType); ok && (strings.Contains(strings.ToLower(n.Name.Name), "optspec") || strings.EqualFold(n.Name.Name, "args")) {
					_ = st
					bad = append(bad, fset.Position(n.Pos()).String()+": policy defines its own option model "+n.Name.Name+"; use parse.OptSpec")
				}
			}
			return true
		})
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
	// What is left of policy reading argv itself: the bound only goes
	// down. A rule that needs an option's meaning gets it from a row.
	if argvReads > maxArgvReads {
		t.Errorf("policy reads argv in %d places (ParseArgs, subcommand, gitSub, …), more than %d: give the program a row in the program table (Flags, Args roles) and ask Command.Flag, Command.Row, Command.Operands", argvReads, maxArgvReads)
	} else if argvReads < maxArgvReads {
		t.Logf("policy reads argv in %d places: lower maxArgvReads to it", argvReads)
	}
	n := 0
	for _, k := range rawArgs {
		n += k
	}
	if n > maxRawArgs {
		where := make([]string, 0, len(rawArgs))
		for f := range rawArgs {
			where = append(where, f)
		}
		sort.Slice(where, func(i, j int) bool {
			if a, b := rawArgs[where[i]], rawArgs[where[j]]; a != b {
				return a > b
			}
			return where[i] < where[j]
		})
		for i, f := range where {
			where[i] = strconv.Itoa(rawArgs[f]) + " " + f
		}
		t.Errorf("policy reads a command's raw words (X.Args) in %d places, more than %d: ask the facts its row gives (Command.Flag, Operands, OptionValues, Row), adding a row or a flag meaning in parse's program table. Where they are:\n%s",
			n, maxRawArgs, strings.Join(where, "\n"))
	} else if n < maxRawArgs {
		t.Logf("policy reads a command's raw words in %d places: lower maxRawArgs to it", n)
	}
}

// maxRawArgs bounds the places policy reads a command's words (X.Args)
// instead of the facts parse gives it. Policy judges facts: what a flag
// means for this program (Command.Flag), the operands with their roles,
// the subcommand row. Every read of argv is an option model of its own,
// which gets some program's grammar wrong (-h halts shutdown, -V is
// mkfs's verbose) and drifts from the table. The bound only goes down; a
// test failure above it lists where the reads that are left are, by
// file and function.
const maxRawArgs = 1

// countRawArgs counts the selectors X.Args in a file, X an identifier
// (c.Args, f.Args; not a call's arguments, call.Args), by file and
// enclosing function.
func countRawArgs(fset *token.FileSet, f *ast.File, into map[string]int) {
	for _, d := range f.Decls {
		where := filepath.Base(fset.Position(d.Pos()).Filename)
		if fd, ok := d.(*ast.FuncDecl); ok {
			where += ":" + fd.Name.Name
		}
		ast.Inspect(d, func(n ast.Node) bool {
			if se, ok := n.(*ast.SelectorExpr); ok && se.Sel.Name == "Args" {
				if id, ok := se.X.(*ast.Ident); ok && id.Name != "call" {
					into[where]++
				}
			}
			return true
		})
	}
}

// maxArgvReads bounds the places policy reads argv with an option model
// of its own rather than the facts parse gives it.
const maxArgvReads = 0

// countArgvReads counts the calls in a file that sort a command's words
// into options and operands: parse.ParseArgs, Args.Parse, and policy's
// helpers over them (their own definitions are not counted).
func countArgvReads(f *ast.File) int {
	helpers := map[string]bool{"subcommand": true, "subcommands": true, "operands": true, "gitSub": true}
	n := 0
	ast.Inspect(f, func(x ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch fn := call.Fun.(type) {
		case *ast.Ident:
			if helpers[fn.Name] {
				n++
			}
		case *ast.SelectorExpr:
			id, _ := fn.X.(*ast.Ident)
			switch {
			case id != nil && id.Name == "parse" && fn.Sel.Name == "ParseArgs":
				n++
			case id != nil && id.Name == "syntax":
				// regexp/syntax.Parse(pattern, flags): the needle table
				// reads the rules' patterns, not a command's words.
			case fn.Sel.Name == "Parse" && len(call.Args) == 2:
				n++
			}
		}
		return true
	})
	return n
}

// rowRunsCode reports whether a row gives some argument a code role.
func rowRunsCode(p *parse.Program) bool {
	// Env is left out: a program that starts the editor or pager its
	// environment names (gh, kubectl, systemctl) has business of its own.
	for _, f := range strings.Fields(p.Opts + " " + p.Args + " " + p.Plus) {
		for _, r := range []string{"shell", "program", "code", "script"} {
			if strings.Contains(f, "="+r) || strings.Contains(f, ":"+r) || strings.HasPrefix(f, r) {
				return true
			}
		}
	}
	return false
}
