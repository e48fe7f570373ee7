package parse

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// The program table: what programs do with their arguments, one row per
// program or subcommand path, read by the analysis and by policy. A row
// lists the program's options (and which take a value) and gives a Role to
// the values and operands that matter: code that runs, a program that
// runs, files written, read, deleted, data sent away. Adding a program
// that runs code is adding a row; the row's Hold and Allow examples run as
// tests (policy's TestProgramTable), so the table keeps itself honest.
//
// The rows are in table_rows.go and the other table_*.go files (the
// wrappers and terminal emulators in table_wrap.go); this file reads them.
// table_names.go, their names sorted for lookups, is generated from them:
// after adding or renaming a row, run `go generate ./parse`.

// Role is what a program does with one of its arguments.
type Role uint8

const (
	RoleData    Role = iota // nothing beyond being data
	RoleShell               // runs as shell code (sh -c TEXT)
	RoleProgram             // it and the words after it run as a program with its arguments
	RoleCode                // runs as code of the interpreter Lang
	RoleScript              // a file whose contents run as code of Lang; "-" is standard input
	RoleWritten             // a file the program writes
	RoleRead                // a file the program reads
	RoleDeleted             // a file the program deletes
	RoleSent                // data sent off the machine
	RoleDir                 // the directory the program works in (make -C, git -C)
	RoleListed              // a directory whose entries the program lists and acts on (fd's search paths)
	RoleFilter              // the program's pattern or options narrow the entries it lists
)

var roleNames = sync.OnceValue(func() map[string]Role {
	return map[string]Role{
		"data": RoleData, "shell": RoleShell, "program": RoleProgram, "code": RoleCode, "script": RoleScript,
		"written": RoleWritten, "read": RoleRead, "deleted": RoleDeleted, "sent": RoleSent, "dir": RoleDir,
		"listed": RoleListed, "filter": RoleFilter,
	}
})

func (r Role) String() string {
	for n, x := range roleNames() {
		if x == r {
			return n
		}
	}
	return fmt.Sprintf("role(%d)", r)
}

// RoleArg is one argument the program table gave a role: a fact policy
// reads instead of the command's argv.
type RoleArg struct {
	Role Role
	// Lang is the language of RoleCode and RoleScript ("python", "make",
	// "vim", "sh"); for RoleWritten it says how: "" replaces the file,
	// "append" adds to it, "into" is a directory that receives files,
	// "build" is a program built from what the command read (gcc -o); for
	// RoleData, the language of a query the program sends its server
	// ("sql": psql -c, mysql -e); for RoleSent, how the value names a
	// file whose contents go: "file" is one, "at" is @FILE (curl -d),
	// "urlencode" is [NAME]@FILE, "form" is NAME=@FILE or NAME=<FILE;
	// "-" is standard input; for RoleRead, "sql" is a file of statements
	// a database client runs (psql -f), its text given as a RoleData
	// "sql" value when the line wrote it.
	Lang string
	// Opt is the option the word is the value of ("--to-command"), "" for
	// an operand.
	Opt string
	// Word is the value, with the option name and any prefix the row
	// strips ("exec=" of --checkpoint-action) removed.
	Word Word
	// Path is the absolute path of a file role when the word is known.
	Path string
	// AfterDashes is set for an operand that came after "--" (git
	// checkout's pathspecs, not its branch).
	AfterDashes bool
}

// Program is one row of the program table.
type Program struct {
	// Name is the program, then the subcommand path: "git rebase".
	Name string
	// Also lists other names of the same program ("nvim" for "vim").
	Also []string
	// Opts lists the options, space separated. Each is NAMES[=[SPEC]]:
	// NAMES is one or more spellings joined by "|" ("-f|--file"); "="
	// says the option takes a value (attached or as the next word); SPEC
	// is the value's role, ROLE[:LANG][@PREFIX] ("shell", "code:make",
	// "shell@exec=": only values starting with "exec=" run, the prefix
	// removed). Options not listed are flags. "+=" instead of "=" says
	// the value is the next word and every word after it, the rest of
	// the line, as "N+" of Args (xterm -e PROG ARGS…, gdb --args PROG
	// ARGS…: "-e+=program"). Two or more SPECs joined by "," are an
	// option that takes that many words, each with its own SPEC, any of
	// them empty (bwrap --bind SRC DEST: "--bind=,").
	Opts string
	// Args gives operands roles, space separated: POS:SPEC, where POS is
	// an index from 0, "N+" for the operand at N and all after it (one
	// program with its arguments, or words joined as one shell string),
	// "*" for every operand, "<$" for every operand but the last when
	// there are two or more (cp SRC… DEST), or "--" for the operands
	// after "--" as one, when there are any (distrobox enter [NAME] --
	// PROG ARGS…), or "N*" for every operand from N on, each alone (7z a
	// ARCHIVE FILE…: "1*"). An option whose SPEC is "dir:operands" sets
	// the directory the operands after it are relative to (tar -C DIR):
	// their file roles name the joined path. "?MEANING" after a SPEC gives the role only when a
	// flag of that meaning (Flags) was given: tar --remove-files deletes
	// what it archived ("*:deleted:tree?removes"). RoleDeleted's LANG
	// "tree" says a directory goes with everything below it.
	//
	// RoleProgram takes two LANGs: "sh" says a program given as one word
	// is a shell command line (a terminal emulator's xterm -e 'make
	// test'); "operands", for an option's value, says the program runs
	// with the row's operands as its arguments (start-stop-daemon --exec
	// PROG -- ARGS…). Without "operands" an option's program runs alone.
	Args string
	// Pattern is set for a program whose first operand is not one of its
	// files but a pattern, a program or an archive (grep PATTERN FILE…,
	// awk PROGRAM FILE…, zip OUT.zip FILE…): it is data, and Args counts
	// the operands after it. PatternOpts lists the options that give the
	// pattern instead (grep -e, sed -f), by their first spelling: with one
	// of them given, every operand is counted.
	Pattern     bool
	PatternOpts string
	// Plus is the role of +WORD operands (vim +CMD), the "+" removed.
	Plus string
	// Implied is the operand the program takes when it is given none at
	// that position, POS:WORD: 7z a ARCHIVE with no files archives the
	// working directory ("1:."), and with -sdel deletes it. Args gives
	// the word its roles as if it had been written.
	Implied string
	// Typed gives roles to operands written KEYWORD:VALUE[,OPTION…]
	// (socat's addresses: EXEC:PROG, SYSTEM:CMD, TCP:HOST:PORT), space
	// separated: KEYWORDS:SPEC, KEYWORDS one or more keywords joined by
	// "|", matched without regard to case, a trailing "*" matching every
	// keyword it begins (tcp* is TCP4-LISTEN too). The VALUE, up to the
	// first ",", gets SPEC; the whole word keeps the roles of Args.
	Typed string
	// Env lists environment variables the program runs, space
	// separated: NAME:SPEC, SPEC as for an option's value. A value the
	// line gives (a prefix assignment, env NAME=V, or an earlier export)
	// is followed like that option's: git runs GIT_EDITOR, EDITOR and
	// PAGER with sh -c, so they are "shell". editorEnv and pagerEnv
	// name the variables most programs share.
	Env string
	// OptsEnv lists environment variables whose value the program reads
	// as options before its own arguments, space separated: NAME, split
	// as a command line (TAR_OPTIONS, NODE_OPTIONS), or NAME:MODE, split
	// as optsEnvSplit()[MODE] says: "dash" at spaces alone, a word without
	// a leading "-" given one (PERL5OPT, RUBYOPT: PERL5OPT=Mstrict is
	// -Mstrict); "less" and "make" as less reads LESS and make MAKEFLAGS
	// (lessOptionWords, makeflagsWords). What the options say is
	// then read with the row, and the program's own reading of its
	// arguments (an interpreter's) sees them too: TAR_OPTIONS=
	// --to-command=CMD runs CMD, PERL5OPT=-MCODE runs CODE.
	OptsEnv string
	// Runs lists files the program runs without being told to, space
	// separated: FILE:LANG, FILE relative to the command's directory
	// (pytest's conftest.py, rake's Rakefile, cargo's build.rs). Such a
	// file is read only when the same line wrote it: a program written
	// and then run in one line is judged by what it says; one already on
	// disk is the project's own, as its test suite is.
	Runs string
	// Stdin is the language of the program's standard input when no
	// operand or option gave it its code: tclsh, R and irb read their
	// program there (tclsh <<< 'exec rm -rf ~').
	Stdin string
	// Flags names what flags mean, space separated: MEANING:NAMES
	// ("recursive:-r|-R|--recursive"). A long spelling may carry the
	// value that gives the meaning, for an option whose value is
	// optional ("prune-now:--prune=now|--prune=all"). The analysis records the meanings
	// a command's flags have (Command.Flags), so policy asks "is this rm
	// recursive?" instead of reading rm's argv. A long flag matches every
	// abbreviation getopt_long would accept and a few it would not (any
	// prefix counts), and a word whose value is not known counts as every
	// flag of the row: both err toward the risky reading. A meaning
	// written with a leading "!" ("!dry-run:--dry-run|-n") is one that
	// takes risk away: a word whose value is not known never counts as
	// it, and its bare long spelling does not match a word with a value
	// attached (--dry-run=none). NAMES "*" gives a meaning to every option
	// the other meanings do not name, listed in Opts or not ("writes:*"
	// beside "!prints:-p|--print": sgdisk writes unless it only prints);
	// it cannot take risk away.
	Flags string
	// Wrapper marks a program whose RoleProgram operand is the command
	// the line is judged as (sudo rm is rm): the analysis peels it.
	Wrapper bool
	// Permute is set for a row with subcommands whose options may also
	// follow its operands when the first is not a subcommand (git config
	// KEY VALUE --global): it stops at its first operand only when that
	// is a subcommand.
	Permute bool
	// SignedOperands is set for programs whose operands may start with
	// "-" and a digit (faketime -1d PROG: a relative time): such a word
	// is an operand, not a cluster of option letters.
	SignedOperands bool
	// ModeOperand is set for programs whose first operand is a file mode
	// (chmod MODE FILE…). The mode is read as Pattern's first operand is,
	// with RoleData and LANG "mode", and Args counts the operands after
	// it; PatternOpts lists the options that give the mode instead
	// (chmod --reference=FILE), with one of them given every operand is
	// counted. While no operand has been read, a word that spells a
	// symbolic mode is that operand though it begins with "-" (chmod -x
	// f, chmod -w,+x f: clauses [ugoa]*([-+=]([rwxXst]*|[ugo]))+ joined by
	// ","), not a cluster of option letters; chmod's own options (-R,
	// -v, -c, -f) spell no mode.
	ModeOperand bool
	// OwnerOperand is set for programs whose first operand is an owner
	// (chown OWNER[:GROUP] FILE…, chgrp GROUP FILE…), read as Pattern's
	// first operand is, with RoleData and LANG "owner"; PatternOpts lists
	// the options that give it instead (--reference=FILE), with one of
	// them given every operand is a file.
	OwnerOperand bool
	// SingleDashLong is set for programs whose long options take one
	// dash (gdb -batch -ex CMD, find -exec): no clusters of letters.
	SingleDashLong bool
	// OneOption is set for programs that take at most one option, before
	// their operands, and read every word after it as an operand, "-" or
	// not, a "--" right after it skipped: kill -9 -1 signals pid -1, kill
	// -s KILL -- -1 too.
	OneOption bool
	// OldStyle is set for programs whose first word may be a bundle of
	// option letters without a dash, each letter that takes a value
	// taking the next word in turn (tar xfC a.tar dir is tar -x -f a.tar
	// -C dir).
	OldStyle bool
	// RunBy lists the interpreters that run the program as a script or a
	// module of theirs: "python" for python manage.py ARGS… (the script's
	// file name is the row's Name or one of Also), "python -m" for
	// python -m twine ARGS…, "php" for php artisan ARGS…. The words after
	// the script or module are read with this row, and the interpreter's
	// command gets the row (Command.Row), its flags' meanings and its
	// operands' roles, as if the program had been run by its name.
	RunBy []string
	// Hold and Allow are command lines that must be held and must run:
	// the row's own tests.
	Hold, Allow []string

	// The fields read from the text fields when the row is compiled live
	// behind a pointer: the rows are static data, several hundred of them,
	// and every word of static data that may hold a pointer is one the
	// runtime's start-up marks in the data segment's pointer bitmap and one
	// more byte of the pages a lookup by reading the rows touches. Before
	// it is compiled a row holds only its text.
	*compiledRow
	// compiled guards compiledRow: a row is compiled the first time it is
	// handed out, so a command pays for the rows it names, not the whole
	// table.
	compiled sync.Once
}

// compiledRow is what compile reads from a Program's text fields.
type compiledRow struct {
	spec  OptSpec            // the same options in the shared option model
	opts  map[string]*optRow // by spelling, dashes included
	longs []string           // long spellings that take a value, for prefixes
	args  []argRow
	plus  *roleSpec
	// impliedAt and impliedWord are Implied's POS and WORD (impliedAt
	// -1 without one).
	impliedAt   int
	impliedWord string
	typed       []typedRow
	env         []envRow
	runs        []envRow
	// optsEnv are the variables of OptsEnv; spec.lang is the MODE of
	// NAME:MODE.
	optsEnv []envRow
	flags   map[string]string // meaning by spelling, dashes included
	other   string            // the meaning of the options flags does not name ("*")
	// subs and wrapperSub are copied from the table's side maps when the
	// row is compiled (see programTable).
	subs map[string]*Program
	// stop is set when options end at the first operand: a subcommand
	// follows, or a program with its own options.
	stop bool
	// wrapperSub is set when a subcommand is a Wrapper (uv run).
	wrapperSub bool
}

// typedRow is one keyword of Program.Typed.
type typedRow struct {
	keyword string // lower case, without its "*"
	prefix  bool   // a trailing "*": every keyword it begins
	spec    roleSpec
}

// typed returns the role a KEYWORD:VALUE operand gets from Typed, and
// the VALUE.
func (p *Program) typedRole(a arg) (roleSpec, arg, bool) {
	kw, val, ok := strings.Cut(a.Value, ":")
	if !ok || hasUnknown(kw) {
		return roleSpec{}, a, false
	}
	kw = strings.ToLower(kw)
	for _, t := range p.typed {
		if kw == t.keyword || t.prefix && strings.HasPrefix(kw, t.keyword) {
			val, _, _ = strings.Cut(val, ",")
			return t.spec, valueArg(a, val), true
		}
	}
	return roleSpec{}, a, false
}

// envRow is one variable of Program.Env.
type envRow struct {
	name string
	spec roleSpec
}

type optRow struct {
	name  string // the first spelling, for RoleArg.Opt
	value bool
	spec  *roleSpec
	// rest is set for "+=": the value and the words after it.
	rest bool
	// more are the rows of the second and later values of an option
	// that takes several ("--bind=,").
	more []*optRow
}

type roleSpec struct {
	role   Role
	lang   string
	prefix string
}

type argRow struct {
	at      int
	rest    bool // N+
	all     bool // * (from at on: N*)
	butLast bool // <$
	dashes  bool // --
	spec    roleSpec
	when    string // the flag meaning that gives the role ("removes"); "": always
}

// ProgramTable returns the rows of the program table, built once.
func ProgramTable() []*Program {
	rows := table().rows
	tableBuilt.Store(true)
	for _, p := range rows {
		p.compiled.Do(p.compile)
	}
	return rows
}

// LookupProgram returns the row of a program name or of a subcommand
// path ("git push"), or nil.
func LookupProgram(name string) *Program {
	first, rest, _ := strings.Cut(name, " ")
	t := tableIndex()
	var p *Program
	if t != nil {
		p = t.byName[first]
	} else {
		p = scanTop(first)
	}
	for _, s := range strings.Fields(rest) {
		if p == nil {
			return nil
		}
		if t != nil {
			p = t.subs[p][s]
		} else {
			p = scanSub(p, s)
		}
	}
	if p != nil {
		p.compiled.Do(p.compile)
	}
	return p
}

// sub returns the row of a subcommand, or nil.
func (p *Program) sub(name string) *Program {
	s := p.subs[name]
	if s != nil {
		s.compiled.Do(s.compile)
	}
	return s
}

// A command line names a few programs, and a fresh process looks each up
// once. Reading the rows to find one touched every page they are on (a
// miss, such as `true`, read all of them: 40 µs of page faults in a fresh
// process), and building maps of them costs more. So the names are also
// kept sorted, in table_names.go, which go generate writes from the rows
// and TestRowNames keeps equal to them: the first scansBeforeIndex lookups
// are binary searches of that static data, reading a dozen of its
// entries. A search costs about 0.5 µs, five times a map's lookup, so the
// lookups after them (a long script, check --batch) use the maps, built
// once. TestTableScanMatchesIndex checks that both find the same row.
const scansBeforeIndex = 32

var (
	tableScans atomic.Int32
	tableBuilt atomic.Bool
)

// tableIndex returns the table's maps, or nil while lookups still search
// the names.
func tableIndex() *programTable {
	if tableBuilt.Load() || tableScans.Add(1) > scansBeforeIndex {
		t := table()
		tableBuilt.Store(true)
		return t
	}
	return nil
}

//go:generate go test -run TestRowNames -update .

// rowName is one name of a row, at rowGroups()[group][index]: its name,
// or (alias) one of its other names, a subcommand's after its parent's
// name and a space ("git ci").
type rowName struct {
	key          string
	group, index uint16
	alias        bool
}

// findRow returns the row named parent+sep+name ("git"+" "+"push"), or nil.
// The key is not built: it is compared in its three pieces.
func findRow(parent, sep, name string) *Program {
	lo, hi := 0, len(rowNames)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if compareJoined(rowNames[m].key, parent, sep, name) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(rowNames) && compareJoined(rowNames[lo].key, parent, sep, name) == 0 {
		return rowAt(rowNames[lo])
	}
	return nil
}

// compareJoined compares k with a+b+c, as strings.Compare would.
func compareJoined(k, a, b, c string) int {
	if n := len(a) + len(b); len(k) >= n && k[:len(a)] == a && k[len(a):n] == b {
		return strings.Compare(k[n:], c) // the usual case: a top-level name, or a sibling
	}
	for _, part := range [3]string{a, b, c} {
		n := min(len(k), len(part))
		if r := strings.Compare(k[:n], part[:n]); r != 0 {
			return r
		}
		if n < len(part) {
			return -1 // k ended first
		}
		k = k[n:]
	}
	if k != "" {
		return 1
	}
	return 0
}

func rowAt(n rowName) *Program { return &rowGroup(n.group)[n.index] }

// scanTop finds the row of a program by its name or one of its other
// names.
func scanTop(name string) *Program {
	if name == "" || strings.Contains(name, " ") {
		return nil
	}
	return findRow("", "", name)
}

// scanSub finds the row of parent's subcommand name.
func scanSub(parent *Program, name string) *Program {
	if name == "" || strings.Contains(name, " ") {
		return nil
	}
	return findRow(parent.Name, " ", name)
}

// eachSub calls f with each subcommand row of parent and its last word,
// in the order of their names, until f returns false.
func eachSub(parent *Program, f func(p *Program, last string) bool) {
	prefix := parent.Name + " "
	lo, hi := 0, len(rowNames)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if rowNames[m].key < prefix {
			lo = m + 1
		} else {
			hi = m
		}
	}
	for _, n := range rowNames[lo:] {
		last, ok := strings.CutPrefix(n.key, prefix)
		if !ok {
			return
		}
		if n.alias || strings.Contains(last, " ") {
			continue
		}
		if !f(rowAt(n), last) {
			return
		}
	}
}

// programTable indexes the rows. What it learns of a row while filing them
// (its subcommands, whether one is a wrapper) it keeps in its own maps,
// keyed by the row, rather than writing into the row: the rows are static
// data, and a write into every page of them cost a copy-on-write fault per
// page on every command's first lookup. compile copies them into the row.
type programTable struct {
	rows       []*Program
	byName     map[string]*Program
	subs       map[*Program]map[string]*Program
	wrapperSub map[*Program]bool
}

var table = sync.OnceValue(buildTable)

// rowGroups are the table's rows, file by file, in the order they are
// filed: a subcommand's row after its program's (rowGroup lists them).
// They are put together here, on first use, rather than appended to one
// slice by each file's init: that copied the whole table at every
// start-up, command or not.
func rowGroups() [][]Program {
	var gs [][]Program
	for g := uint16(0); rowGroup(g) != nil; g++ {
		gs = append(gs, rowGroup(g))
	}
	return gs
}

// rowGroup is the table's group g, nil past the last: the one list of
// the row files' tables, which lookups (rowAt) read without making the
// slice of them all.
func rowGroup(g uint16) []Program {
	switch g {
	case 0:
		return programRows
	case 1:
		return wrapRows
	case 2:
		return wrapperRows
	case 3:
		return readRows
	case 4:
		return writeRows
	case 5:
		return dbRows
	case 6:
		return infraRows
	case 7:
		return sinkRows
	case 8:
		return iacRows
	case 9:
		return publishRows
	case 10:
		return systemRows
	case 11:
		return foreignRows
	case 12:
		return adminRows
	case 13:
		return dbAdminRows
	case 14:
		return codecRows
	case 15:
		return fetchRows
	case 16:
		return toolRows
	}
	return nil
}

func buildTable() *programTable {
	groups := rowGroups()
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	t := &programTable{rows: make([]*Program, 0, n), byName: make(map[string]*Program, 2*n),
		subs: map[*Program]map[string]*Program{}, wrapperSub: map[*Program]bool{}}
	for _, g := range groups {
		for i := range g {
			t.file(&g[i])
		}
	}
	return t
}

// file adds one row: under its name, or under its parent's subcommands.
func (t *programTable) file(p *Program) {
	t.rows = append(t.rows, p)
	first, rest, sub := strings.Cut(p.Name, " ")
	if !sub {
		t.add(t.byName, p.Name, p)
		return
	}
	parent := t.byName[first]
	last := rest
	for parent != nil {
		s, more, ok := strings.Cut(last, " ")
		if !ok {
			break
		}
		parent, last = t.subs[parent][s], more
	}
	if parent == nil {
		panic("program table: no parent row for " + p.Name)
	}
	if parent.Name+" "+last != p.Name {
		// The rows would be found by name (scanSub) under another parent.
		panic("program table: " + p.Name + " is filed under " + parent.Name)
	}
	subs := t.subs[parent]
	if subs == nil {
		subs = map[string]*Program{}
		t.subs[parent] = subs
	}
	t.add(subs, last, p)
	if p.Wrapper {
		t.wrapperSub[parent] = true
	}
}

// add files a row under its name and its other names.
func (t *programTable) add(m map[string]*Program, name string, p *Program) {
	for i := -1; i < len(p.Also); i++ {
		n := name
		if i >= 0 {
			n = p.Also[i]
		}
		if m[n] != nil {
			panic("program table: " + n + " twice")
		}
		m[n] = p
	}
}

func parseRoleSpec(s string) roleSpec {
	var rs roleSpec
	s, rs.prefix, _ = strings.Cut(s, "@")
	name, lang, _ := strings.Cut(s, ":")
	r, ok := roleNames()[name]
	if !ok {
		panic("program table: unknown role " + name)
	}
	rs.role, rs.lang = r, lang
	return rs
}

func (p *Program) compile() {
	p.compiledRow = &compiledRow{}
	if t := tableIndex(); t != nil {
		p.subs, p.wrapperSub = t.subs[p], t.wrapperSub[p]
	} else {
		eachSub(p, func(s *Program, last string) bool {
			if p.subs == nil {
				p.subs = map[string]*Program{}
			}
			p.subs[last] = s
			for _, n := range s.Also {
				p.subs[n] = s
			}
			p.wrapperSub = p.wrapperSub || s.Wrapper
			return true
		})
	}
	// A row with subcommands stops at its first operand (the subcommand).
	p.stop = len(p.subs) > 0
	p.opts = map[string]*optRow{}
	for _, tok := range strings.Fields(p.Opts) {
		names, spec, value := strings.Cut(tok, "=")
		o := &optRow{value: value}
		names, o.rest = strings.CutSuffix(names, "+")
		if o.rest && !value {
			panic("program table: " + p.Name + ": " + tok + " is not NAMES+=SPEC")
		}
		specs := strings.Split(spec, ",")
		if specs[0] != "" {
			rs := parseRoleSpec(specs[0])
			o.spec = &rs
		}
		for _, more := range specs[1:] {
			m := &optRow{value: true}
			if more != "" {
				rs := parseRoleSpec(more)
				m.spec = &rs
			}
			o.more = append(o.more, m)
		}
		if o.rest && len(o.more) > 0 {
			panic("program table: " + p.Name + ": " + tok + " takes the rest of the line and more values")
		}
		for i, n := range strings.Split(names, "|") {
			if i == 0 {
				o.name = n
				for _, m := range o.more {
					m.name = n
				}
			}
			p.opts[n] = o
			switch {
			case !value:
			case strings.HasPrefix(n, "--"):
				p.longs = append(p.longs, n)
				p.spec.Long = append(p.spec.Long, n[2:])
			case len(n) == 2 && n[0] == '-':
				p.spec.Short += n[1:]
			}
		}
	}
	for _, tok := range strings.Fields(p.Args) {
		tok, when, _ := strings.Cut(tok, "?")
		pos, spec, _ := strings.Cut(tok, ":")
		a := argRow{spec: parseRoleSpec(spec), when: when}
		switch {
		case pos == "*":
			a.all = true
		case strings.HasSuffix(pos, "*"):
			a.all = true
			for _, c := range strings.TrimSuffix(pos, "*") {
				a.at = a.at*10 + int(c-'0')
			}
		case pos == "<$":
			a.butLast = true
		case pos == "--":
			a.dashes = true
		case strings.HasSuffix(pos, "+"):
			a.rest = true
			pos = strings.TrimSuffix(pos, "+")
			fallthrough
		default:
			n := 0
			for _, c := range pos {
				n = n*10 + int(c-'0')
			}
			a.at = n
		}
		if a.spec.role == RoleProgram && !a.dashes || a.rest && a.spec.role == RoleShell {
			p.stop = true
		}
		p.args = append(p.args, a)
	}
	if p.Plus != "" {
		rs := parseRoleSpec(p.Plus)
		p.plus = &rs
	}
	p.impliedAt = -1
	if p.Implied != "" {
		pos, word, ok := strings.Cut(p.Implied, ":")
		n, err := strconv.Atoi(pos)
		if !ok || err != nil || n < 0 || word == "" {
			panic("program table: " + p.Name + ": Implied " + p.Implied + " is not POS:WORD")
		}
		p.impliedAt, p.impliedWord = n, word
	}
	for _, tok := range strings.Fields(p.Typed) {
		kws, spec, ok := strings.Cut(tok, ":")
		if !ok || kws == "" {
			panic("program table: " + p.Name + ": " + tok + " is not KEYWORDS:SPEC")
		}
		rs := parseRoleSpec(spec)
		for _, kw := range strings.Split(kws, "|") {
			kw, prefix := strings.CutSuffix(kw, "*")
			p.typed = append(p.typed, typedRow{strings.ToLower(kw), prefix, rs})
		}
	}
	for _, tok := range strings.Fields(p.Flags) {
		meaning, names, ok := strings.Cut(tok, ":")
		if !ok || meaning == "" || names == "" {
			panic("program table: " + p.Name + ": flag " + tok + " is not MEANING:NAMES")
		}
		if p.flags == nil {
			p.flags = map[string]string{}
		}
		if names == "*" {
			if meaning[0] == '!' || p.other != "" {
				panic("program table: " + p.Name + ": flag " + tok + ": one \"*\" meaning, and not one that takes risk away")
			}
			p.other = meaning
			continue
		}
		for _, n := range strings.Split(names, "|") {
			if bare, _, withValue := strings.Cut(n, "="); withValue {
				// --prune=now: the option takes an optional value, and
				// the meaning is that value's.
				if !strings.HasPrefix(bare, "--") || p.opts[bare] != nil {
					panic("program table: " + p.Name + ": " + n + " is not a long flag with its value")
				}
			} else if len(n) < 2 || n[0] != '-' || p.opts[n] != nil && p.opts[n].value {
				panic("program table: " + p.Name + ": " + n + " is not a flag")
			}
			p.flags[n] = meaning
		}
	}
	for _, a := range p.args {
		if a.when != "" && !slices.Contains(slices.Collect(maps.Values(p.flags)), a.when) {
			panic("program table: " + p.Name + ": Args gives a role ?" + a.when + ", a meaning none of its Flags has")
		}
	}
	for _, tok := range strings.Fields(p.Env) {
		name, spec, ok := strings.Cut(tok, ":")
		if !ok || name == "" {
			panic("program table: " + p.Name + ": " + tok + " is not NAME:SPEC")
		}
		p.env = append(p.env, envRow{name, parseRoleSpec(spec)})
	}
	for _, tok := range strings.Fields(p.OptsEnv) {
		name, mode, _ := strings.Cut(tok, ":")
		if _, ok := optsEnvSplit()[mode]; name == "" || !ok {
			panic("program table: " + p.Name + ": " + tok + " is not NAME or NAME:MODE")
		}
		p.optsEnv = append(p.optsEnv, envRow{name, roleSpec{lang: mode}})
	}
	for _, tok := range strings.Fields(p.Runs) {
		file, lang, ok := strings.Cut(tok, ":")
		if !ok || file == "" || lang == "" {
			panic("program table: " + p.Name + ": " + tok + " is not FILE:LANG")
		}
		p.runs = append(p.runs, envRow{file, roleSpec{role: RoleCode, lang: lang}})
	}
}

// Spec returns the row's options in the shared option model, for
// ParseArgs. An option that takes several words or the rest of the line
// is one that takes a value there.
func (p *Program) Spec() OptSpec { return p.spec }

// option finds the row of an option word: exact, NAME=VALUE, or a unique
// prefix of a long option that takes a value (getopt_long accepts
// --to-com=X). The second result is the attached value, if any.
func (p *Program) option(w string) (*optRow, string, bool) {
	if o := p.opts[w]; o != nil {
		return o, "", false
	}
	name, val, hasVal := strings.Cut(w, "=")
	if hasVal {
		if o := p.opts[name]; o != nil {
			return o, val, true
		}
	}
	if strings.HasPrefix(name, "--") && len(name) > 3 {
		// Without "=" only an option with a role is taken for an
		// abbreviation: a flag the row does not list (emacs --batch, not
		// --batch-file) must not swallow the next word.
		var found *optRow
		for _, l := range p.longs {
			if strings.HasPrefix(l, name) && (hasVal || p.opts[l].spec != nil) {
				if found != nil && found != p.opts[l] {
					found = nil
					break
				}
				found = p.opts[l]
			}
		}
		if found != nil {
			return found, val, hasVal
		}
	}
	return nil, "", false
}

// parsedArgs is a command's arguments read with its row: the option
// values with their rows, the operands in order.
type parsedArgs struct {
	vals  []optValue
	ops   []int    // indexes into args of the operands
	flags []string // the meanings of the flags given (Program.Flags)
	// dashes is the index in ops of the first operand after "--", or -1.
	dashes int
}

// flag records a meaning once ("!" meanings without their mark).
func (pa *parsedArgs) flag(m string) {
	m = strings.TrimPrefix(m, "!")
	for _, f := range pa.flags {
		if f == m {
			return
		}
	}
	pa.flags = append(pa.flags, m)
}

// noteFlags records the meanings of the flags in one option word.
func (p *Program) noteFlags(pa *parsedArgs, a arg) {
	if p.flags == nil && p.other == "" {
		return
	}
	v := a.Value
	if !a.Literal() {
		// The word could be any option, but not one that takes risk
		// away.
		for _, m := range p.flags {
			if m[0] != '!' {
				pa.flag(m)
			}
		}
		if p.other != "" {
			pa.flag(p.other)
		}
		return
	}
	if strings.HasPrefix(v, "--") || p.SingleDashLong {
		name, val, hasVal := strings.Cut(v, "=")
		if len(name) < 2 || len(name) < 3 && !p.SingleDashLong {
			return
		}
		named := false
		for sp, m := range p.flags {
			// A spelling with a value (--prune=now) means m only with
			// that value attached.
			sp, spVal, spHasVal := strings.Cut(sp, "=")
			if spHasVal && (!hasVal || val != spVal) || m[0] == '!' && hasVal && !spHasVal {
				continue // a dry run is not --dry-run=none
			}
			if sp == name || strings.HasPrefix(name, "--") && strings.HasPrefix(sp, name) {
				pa.flag(m)
				named = true
			}
		}
		if !named && p.other != "" {
			pa.flag(p.other)
		}
		return
	}
	for j := 1; j < len(v); j++ {
		n := "-" + v[j:j+1]
		if m, ok := p.flags[n]; ok {
			pa.flag(m)
		} else if p.other != "" {
			pa.flag(p.other)
		}
		if o := p.opts[n]; o != nil && o.value {
			return // the rest is its value
		}
	}
}

type optValue struct {
	row *optRow
	val arg
	// rest is the value and the words after it, for a "+=" option.
	rest []arg
	// at is the index in args of the word that holds the value.
	at int
}

// value records an option's value at args[i] (or attached, val) and
// the words it takes after it: the rest of the line for a "+=" option,
// which ends the reading (done), or its further values. It returns the
// index of the last word it took.
func (pa *parsedArgs) value(o *optRow, val arg, args []arg, i int) (last int, done bool) {
	if o.rest {
		rest := append([]arg{val}, args[i+1:]...)
		pa.vals = append(pa.vals, optValue{o, val, rest, i})
		return len(args) - 1, true
	}
	pa.vals = append(pa.vals, optValue{row: o, val: val, at: i})
	for _, m := range o.more {
		if i+1 >= len(args) {
			break
		}
		i++
		pa.vals = append(pa.vals, optValue{row: m, val: args[i], at: i})
	}
	return i, false
}

// read sorts args[from:] into options and operands, the way getopt_long
// with permutation does unless the row stops at its first operand.
func (p *Program) read(args []arg, from int) parsedArgs {
	pa := parsedArgs{dashes: -1}
	for i := from; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if p.OneOption && i > from && v != "--" {
			// The one option was read: the rest are operands.
			for j := i; j < len(args); j++ {
				pa.ops = append(pa.ops, j)
			}
			return pa
		}
		switch {
		case v == "--":
			pa.dashes = len(pa.ops)
			for j := i + 1; j < len(args); j++ {
				pa.ops = append(pa.ops, j)
			}
			return pa
		case len(v) < 2 || v[0] != '-' || !a.Literal() && !strings.HasPrefix(a.Known(), "-") ||
			p.SignedOperands && v[1] >= '0' && v[1] <= '9' ||
			p.ModeOperand && len(pa.ops) == 0 && a.Literal() && symbolicMode(v):
			pa.ops = append(pa.ops, i)
			if p.stop && (!p.Permute || len(pa.ops) == 1 && a.Literal() && p.subs[v] != nil) {
				for j := i + 1; j < len(args); j++ {
					pa.ops = append(pa.ops, j)
				}
				return pa
			}
			continue
		}
		p.noteFlags(&pa, a)
		if o, val, attached := p.option(v); o != nil {
			done := false
			switch {
			case attached:
				i, done = pa.value(o, valueArg(a, val), args, i)
			case o.value && i+1 < len(args):
				i, done = pa.value(o, args[i+1], args, i+1)
			}
			if done {
				return pa
			}
			continue
		}
		if strings.HasPrefix(v, "--") || p.SingleDashLong {
			continue
		}
		// A cluster of letters: -sc CMD, -fMakefile.
		for j := 1; j < len(v); j++ {
			o := p.opts["-"+v[j:j+1]]
			if o == nil || !o.value {
				continue
			}
			done := false
			if j+1 < len(v) {
				i, done = pa.value(o, valueArg(a, v[j+1:]), args, i)
			} else if i+1 < len(args) {
				i, done = pa.value(o, args[i+1], args, i+1)
			}
			if done {
				return pa
			}
			break
		}
	}
	return pa
}

// symbolicMode reports whether v is a symbolic file mode, as chmod reads
// one: clauses [ugoa]*([-+=]([rwxXst]*|[ugo]))+ joined by ",". A word
// that starts with "--" is a long option, never a mode.
func symbolicMode(v string) bool {
	if strings.HasPrefix(v, "--") {
		return false
	}
	for _, cl := range strings.Split(v, ",") {
		cl = strings.TrimLeft(cl, "ugoa")
		if cl == "" {
			return false
		}
		for cl != "" {
			if !strings.ContainsRune("-+=", rune(cl[0])) {
				return false
			}
			cl = cl[1:]
			if cl != "" && strings.ContainsRune("ugo", rune(cl[0])) {
				cl = cl[1:]
			} else {
				cl = strings.TrimLeft(cl, "rwxXst")
			}
		}
	}
	return true
}

// oldStyle spells out an old-style bundle of letters at args[from] (tar
// xzf a.tgz) as the options it is, each value after its letter.
func (p *Program) oldStyle(args []arg, from int) []arg {
	if from >= len(args) || !args[from].Literal() || !isOptLetters(args[from].Value) {
		return args
	}
	b := args[from]
	out := make([]arg, 0, len(args)+len(b.Value))
	out = append(out, args[:from]...)
	next := from + 1
	for i := 0; i < len(b.Value); i++ {
		out = append(out, valueArg(b, "-"+b.Value[i:i+1]))
		if o := p.opts["-"+b.Value[i:i+1]]; o != nil && o.value && next < len(args) {
			out = append(out, args[next])
			next++
		}
	}
	return append(out, args[next:]...)
}

func isOptLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if (s[i] < 'a' || s[i] > 'z') && (s[i] < 'A' || s[i] > 'Z') {
			return false
		}
	}
	return s != ""
}

// valueArg is the part of a word after an option's name.
func valueArg(a arg, val string) arg {
	out := a
	out.Value = val
	out.Dynamic = hasUnknown(val)
	out.whole = false
	return out
}

// optionsFromEnv returns the command's words with the options its
// program takes from the environment (Program.OptsEnv) put before its own
// arguments, where the program reads them: after an old-style bundle
// (tar czf) that tar explodes first. A value that is not known adds
// nothing; what it may hold is not guessed.
func (fr *frame) optionsFromEnv(c *Command, args []arg) []arg {
	p := LookupProgram(c.Name)
	if p == nil || len(p.optsEnv) == 0 || len(args) == 0 {
		return args
	}
	var pre []arg
	for _, e := range p.optsEnv {
		v, ok := fr.envOf(c, e.name)
		if !ok || hasUnknown(v) {
			continue
		}
		for _, w := range optsEnvSplit()[e.spec.lang](v) {
			pre = append(pre, arg{Word: Word{Value: w, Pos: c.Pos}})
		}
	}
	if pre == nil {
		return args
	}
	if p.OldStyle {
		args = p.oldStyle(args, 1)
	}
	out := make([]arg, 0, len(args)+len(pre))
	out = append(out, args[0])
	out = append(out, pre...)
	return append(out, args[1:]...)
}

// optsEnvSplit are the ways programs split an options variable
// (Program.OptsEnv's MODE).
var optsEnvSplit = sync.OnceValue(func() map[string]func(string) []string {
	return map[string]func(string) []string{
		"":     splitOptionWords,
		"dash": dashWords,
		"less": lessOptionWords,
		"make": makeflagsWords,
	}
})

// dashWords splits at spaces, a word without a leading "-" given one,
// as perl reads PERL5OPT and ruby RUBYOPT.
func dashWords(s string) []string {
	words := strings.Fields(s)
	for i, w := range words {
		if !strings.HasPrefix(w, "-") {
			words[i] = "-" + w
		}
	}
	return words
}

// lessOptionWords splits LESS as less reads it: words at spaces, a word
// of option letters needing no "-" (LESS=R is -R), and a "+" that starts
// a word or follows option letters (-R+G) begins a command that runs to
// the next "$" or the end, spaces and all (LESS='+!cmd args').
func lessOptionWords(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if s[i] == ' ' || s[i] == '\t' || s[i] == '$' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '$' && (s[j] != '+' || j > i && strings.HasPrefix(s[i:], "--")) {
			j++
		}
		if j > i {
			w := s[i:j]
			if !strings.HasPrefix(w, "-") {
				w = "-" + w
			}
			if w != "-" {
				out = append(out, w)
			}
		}
		if j < len(s) && s[j] == '+' {
			end := strings.IndexByte(s[j:], '$')
			if end < 0 {
				end = len(s) - j
			}
			out = append(out, s[j:j+end])
			j += end
		}
		i = j
	}
	return out
}

// makeflagsWords splits MAKEFLAGS (and GNUMAKEFLAGS) as GNU make reads
// them: a first word of letters without "-" or "=" is single-letter
// flags (MAKEFLAGS=ks is -k -s), the rest words at spaces a backslash
// escapes. make keeps the spaces of an --eval text, and those of a
// variable set with := or != it expands at once, so such a word takes
// the rest of the value: what follows is read as part of its text.
func makeflagsWords(s string) []string {
	words, starts := splitMakeWords(s)
	var out []string
	for i, w := range words {
		name, _, def := strings.Cut(w, "=")
		switch {
		case i == 0 && !strings.HasPrefix(w, "-") && !def:
			for _, ch := range w {
				out = append(out, "-"+string(ch))
			}
		case strings.HasPrefix(w, "--eval=") || def && (strings.HasSuffix(name, ":") || strings.HasSuffix(name, "!")):
			return append(out, strings.TrimRight(s[starts[i]:], " \t\n"))
		default:
			out = append(out, w)
		}
	}
	return out
}

// splitMakeWords splits at unescaped blanks, a backslash keeping the
// character after it, and returns where in s each word starts.
func splitMakeWords(s string) (words []string, starts []int) {
	var cur strings.Builder
	start := -1
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == ' ' || ch == '\t' || ch == '\n' {
			if start >= 0 {
				words, starts = append(words, cur.String()), append(starts, start)
				cur.Reset()
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
		if ch == '\\' && i+1 < len(s) {
			i++
			ch = s[i]
		}
		cur.WriteByte(ch)
	}
	if start >= 0 {
		words, starts = append(words, cur.String()), append(starts, start)
	}
	return words, starts
}

// splitOptionWords splits an options variable the way tar and node do:
// at unquoted spaces, '…' and "…" grouping, a backslash taking the next
// character as it is.
func splitOptionWords(s string) []string {
	var out []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0 && ch == quote:
			quote = 0
		case quote == '\'':
			cur.WriteByte(ch)
		case ch == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		case quote != 0:
			cur.WriteByte(ch)
		case ch == '\'' || ch == '"':
			quote, in = ch, true
		case ch == ' ' || ch == '\t' || ch == '\n':
			if in {
				out = append(out, cur.String())
			}
			cur.Reset()
			in = false
		default:
			cur.WriteByte(ch)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// followTable applies the program table to a command: it records the
// roles of its arguments and follows the code it runs. It reports whether
// a row was found.
func (fr *frame) followTable(c *Command, args []arg) bool {
	p := LookupProgram(c.Name)
	if p == nil {
		return false
	}
	fr.applyRow(c, p, args, 1, c.Name)
	return true
}

// runByRow reads the words of args from index from with the row of the
// program name, a script or a module interp runs ("python manage.py",
// "python -m twine", "php artisan"), when that row says interp runs it
// (Program.RunBy). It reports whether it did.
func (fr *frame) runByRow(c *Command, interp, name string, args []arg, from int) bool {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if name == "" || strings.ContainsAny(name, " "+Unknown) || c.Row != "" {
		return false
	}
	p := LookupProgram(name)
	if p == nil || !slices.Contains(p.RunBy, interp) {
		return false
	}
	fr.applyRow(c, p, args, from, interp+" "+name)
	return true
}

// ReadAs returns a copy of c read as if its program were name: the row,
// flag meanings and roles name's row gives c's arguments, with nothing
// they run followed and no paths resolved. Policy asks it of a command
// whose name is computed at run time, for each program it could be.
func ReadAs(c *Command, name string) *Command {
	h := *c
	h.Name, h.Path, h.NameDynamic = name, name, false
	h.Row, h.Flags, h.Roles = "", nil, nil
	p := LookupProgram(name)
	if p == nil {
		return &h
	}
	args := make([]arg, len(c.Args)+1)
	args[0] = arg{Word: Word{Value: name}}
	for i, w := range c.Args {
		args[i+1] = arg{Word: w}
	}
	var fr *frame // records roles only
	fr.applyRow(&h, p, args, 1, name)
	return &h
}

// WithoutOptions returns a copy of c without the words most programs
// read as options (a leading "-" or "+", or NAME=VALUE), and whether it
// left any out. Read as a candidate program (ReadAs), it shows which of
// a rule's findings on a command whose program is not known come from
// its options and which from words any program could take.
func WithoutOptions(c *Command) (*Command, bool) {
	plain := *c
	plain.Args = nil
	for _, w := range c.Args {
		if !strings.HasPrefix(w.Value, "-") && !strings.HasPrefix(w.Value, "+") && !strings.Contains(w.Value, "=") {
			plain.Args = append(plain.Args, w)
		}
	}
	return &plain, len(plain.Args) < len(c.Args)
}

// recordRow records what c's row says of its words (the meanings of its
// flags, the roles of its operands) and follows nothing: for the
// declaring builtins, which read their words themselves. args is the
// command's words with the name first, or nil to take them from c.Args.
func recordRow(c *Command, args []arg) {
	p := LookupProgram(c.Name)
	if p == nil {
		return
	}
	if args == nil {
		args = make([]arg, len(c.Args)+1)
		args[0] = arg{Word: Word{Value: c.Name}}
		for i, w := range c.Args {
			args[i+1] = arg{Word: w}
		}
	}
	var fr *frame // records roles only
	fr.applyRow(c, p, args, 1, c.Name)
}

// applyRow reads args[from:] with row p. A nil frame only records what
// the row says (ReadAs); otherwise what the arguments run is followed.
func (fr *frame) applyRow(c *Command, p *Program, args []arg, from int, via string) {
	if fr != nil && !fr.spend(1, c.Pos) {
		return
	}
	if p.OldStyle {
		args = p.oldStyle(args, from)
	}
	pa := p.read(args, from)
	c.Row = p.Name
	c.Flags = append(c.Flags, pa.flags...)
	if len(p.args) > 0 {
		// Most operands get a role: room for them at once, rather than a
		// slice doubled and copied through a glob's matches.
		c.Roles = slices.Grow(c.Roles, len(pa.ops)+len(pa.vals))
	}
	for _, ov := range pa.vals {
		if ov.row.spec == nil {
			continue
		}
		rest := ov.rest
		if ov.row.spec.role == RoleProgram && ov.row.spec.lang == "operands" {
			rest = []arg{ov.val}
			for _, j := range pa.ops {
				rest = append(rest, args[j])
			}
		}
		fr.applyRole(c, *ov.row.spec, ov.val, rest, ov.row.name, via+" "+ov.row.name)
	}
	if fr != nil {
		fr.followEnv(c, p, via)
		for _, r := range p.runs {
			fr.runWritten(c, resolvePath(c.Dir, r.name), r.spec.lang, via+" "+r.name)
		}
		if h := rowHooks()[p.Name]; h != nil {
			defer h(fr, c, args, pa)
		}
	}
	if len(pa.ops) > 0 && p.subs != nil {
		first := args[pa.ops[0]]
		if sub := p.sub(first.Value); sub != nil && first.Literal() {
			fr.applyRow(c, sub, args, pa.ops[0]+1, via+" "+first.Value)
			return
		}
	}
	afterDashes := -1 // the first role of an operand after "--"
	ops := pa.ops
	if (p.Pattern || p.ModeOperand || p.OwnerOperand) && len(ops) > 0 && !p.patternGiven(pa) {
		rs := roleSpec{role: RoleData}
		switch {
		case p.ModeOperand:
			rs.lang = "mode"
		case p.OwnerOperand:
			rs.lang = "owner"
		}
		fr.applyRole(c, rs, args[ops[0]], nil, "", via)
		ops = ops[1:]
	}
	if p.impliedAt >= 0 && len(ops) == p.impliedAt {
		args = append(slices.Clip(args), arg{Word: Word{Value: p.impliedWord, Pos: c.Pos}})
		ops = append(slices.Clip(ops), len(args)-1)
	}
	for k, i := range ops {
		a := args[i]
		if k+len(pa.ops)-len(ops) == pa.dashes {
			afterDashes = len(c.Roles)
		}
		if p.plus != nil && strings.HasPrefix(a.Value, "+") && a.Literal() {
			fr.applyRole(c, *p.plus, valueArg(a, a.Value[1:]), nil, "+", via+" +")
			continue
		}
		if rs, val, ok := p.typedRole(a); ok {
			fr.applyRole(c, rs, val, nil, "", via)
		}
		rel := inOperandDir(pa, i, a)
		for _, ar := range p.args {
			a := a
			if rel != nil && fileRole(ar.spec.role) {
				a = *rel
			}
			switch {
			case ar.when != "" && !c.Flag(ar.when):
			case ar.dashes:
				if k+len(pa.ops)-len(ops) == pa.dashes {
					fr.applyRole(c, ar.spec, a, argsAt(args, ops[k:]), "", via)
				}
			case ar.all && k >= ar.at, !ar.all && ar.at == k && !ar.rest && !ar.butLast, ar.butLast && k < len(ops)-1:
				fr.applyRole(c, ar.spec, a, nil, "", via)
			case ar.rest && ar.at == k:
				fr.applyRole(c, ar.spec, a, argsAt(args, ops[k:]), "", via)
			}
		}
	}
	if afterDashes >= 0 {
		for j := afterDashes; j < len(c.Roles); j++ {
			c.Roles[j].AfterDashes = true
		}
	}
	if p.Stdin != "" && fr != nil && !hasCodeRole(c.Roles) {
		fr.runScriptFile(c, p.Stdin, via+" stdin", arg{Word: Word{Value: "-", Pos: c.Pos}})
	}
}

// followEnv follows the environment variables row p says its program
// runs (Program.Env), as the command's environment gives them.
func (fr *frame) followEnv(c *Command, p *Program, via string) {
	for _, e := range p.env {
		if v, ok := fr.envOf(c, e.name); ok {
			fr.applyRole(c, e.spec, arg{Word: Word{Value: v, Dynamic: hasUnknown(v), Pos: c.Pos}}, nil, e.name, via+" "+e.name)
		}
	}
}

// inOperandDir returns the operand a at args[i] as the path it names
// when an option before it set the directory operands are relative to
// ("dir:operands": tar -C DIR), or nil when none did or a is absolute.
// The last such option before the operand counts, as in tar, where each
// -C applies to the operands after it.
func inOperandDir(pa parsedArgs, i int, a arg) *arg {
	var base *arg
	for k := range pa.vals {
		ov := &pa.vals[k]
		if ov.at < i && ov.row.spec != nil && ov.row.spec.role == RoleDir && ov.row.spec.lang == "operands" {
			base = &ov.val
		}
	}
	if base == nil || strings.HasPrefix(a.Value, "/") || base.Value == "" {
		return nil
	}
	out := a
	out.Value = strings.TrimSuffix(base.Value, "/") + "/" + a.Value
	out.Dynamic = base.Dynamic || a.Dynamic
	// What the word alone said of the place (one entry of the working
	// directory's *, a path the script made, a value assumed) is not
	// said of the joined path.
	out.AllOf, out.Made, out.Assumed, out.Alts, out.Unseen, out.Listed = "", false, "", nil, base.Unseen || a.Unseen, false
	out.whole = false
	out.feeders = append(slices.Clip(base.feeders), a.feeders...)
	return &out
}

// fileRole reports whether a role names a file or directory by path.
func fileRole(r Role) bool {
	switch r {
	case RoleWritten, RoleRead, RoleDeleted, RoleDir, RoleListed:
		return true
	}
	return false
}

// hasCodeRole reports whether the command was given its code by an
// operand or an option.
func hasCodeRole(rs []RoleArg) bool {
	for _, r := range rs {
		if r.Role == RoleCode || r.Role == RoleScript {
			return true
		}
	}
	return false
}

// argsAt returns the words of args at the indexes ix.
func argsAt(args []arg, ix []int) []arg {
	out := make([]arg, 0, len(ix))
	for _, j := range ix {
		out = append(out, args[j])
	}
	return out
}

// patternGiven reports whether one of the options of PatternOpts was
// given a value.
func (p *Program) patternGiven(pa parsedArgs) bool {
	for _, ov := range pa.vals {
		for _, n := range strings.Fields(p.PatternOpts) {
			if ov.row.name == n {
				return true
			}
		}
	}
	return false
}

// runWritten follows a file the command runs by itself when this line
// wrote it: its text as code of lang, or unknown code when what was
// written is not known (cp evil.py conftest.py).
func (fr *frame) runWritten(c *Command, full, lang, via string) {
	w := fr.r.files[full]
	if full == "" || w == nil {
		return
	}
	if !w.known {
		fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: full, Feeders: writers(w), Pos: c.Pos})
		return
	}
	if id, ok := scriptLang(shebang(w.text)); ok && lang == "sh" {
		// A hook with #!/usr/bin/env python3 is Python.
		n := len(fr.r.an.Dynamic)
		fr.scanProgram(c, id, via, w.text, 0)
		fr.feedDynamic(n, c, w.text, writers(w))
		return
	}
	fr.runCodeText(c, lang, via, w.text, arg{Word: Word{Value: w.text, Pos: c.Pos}, feeders: writers(w)})
}

// envOf returns the value of an environment variable the command gets,
// when the script sets it (a prefix, env, or export earlier).
func (fr *frame) envOf(c *Command, name string) (string, bool) {
	for _, a := range c.Assigns {
		if a.Name == name {
			return a.Value.Value, true
		}
	}
	v := fr.st.vars[name]
	if v == nil || !v.exported {
		return "", false
	}
	if s, ok := v.value(); ok {
		return s, true
	}
	return Unknown, true
}

// applyRole records one argument's role and follows what it runs. rest,
// for an "N+" operand, holds it and the words after it.
func (fr *frame) applyRole(c *Command, rs roleSpec, a arg, rest []arg, opt, via string) {
	if rs.prefix != "" {
		v, ok := strings.CutPrefix(a.Value, rs.prefix)
		if !ok {
			return
		}
		a = valueArg(a, v)
	}
	ra := RoleArg{Role: rs.role, Lang: rs.lang, Opt: opt, Word: a.Word}
	if fr == nil {
		c.Roles = append(c.Roles, ra)
		return
	}
	switch rs.role {
	case RoleWritten, RoleRead, RoleDeleted, RoleDir, RoleScript:
		ra.Path = fr.wordPath(c, a.Word)
	}
	c.Roles = append(c.Roles, ra)
	if rs.lang == "make" || rs.lang == "just" || rs.lang == "task" {
		return // the row's hook reads them with the goals
	}
	switch rs.role {
	case RoleData:
		if rs.lang == "sql" {
			sqlEscapes(&codeRun{fr: fr, c: c, via: via, at: a}, a.Value) // psql's \!, sqlite3's .shell
		}
	case RoleShell:
		if rest != nil {
			fr.nestShellWords(c, rest, via)
			return
		}
		fr.nestShellWords(c, []arg{a}, via)
	case RoleProgram:
		if rest == nil {
			rest = []arg{a}
		}
		rest = skipDashed(rest)
		if rs.lang == "sh" && len(rest) == 1 {
			// One word where a terminal emulator takes a program: its
			// shell runs it as a command line.
			fr.nestShellWords(c, rest, via)
			return
		}
		var passOn func(*frame)
		if len(c.Assigns) > 0 || len(c.Inherited) > 0 {
			env := append(slices.Clip(c.Inherited), c.Assigns...)
			passOn = func(f *frame) { f.inherit = env }
		}
		fr.runNested(c, rest, via, passOn)
	case RoleCode:
		fr.runCode(c, rs.lang, via, a)
	case RoleRead:
		if rs.lang == "sql" {
			fr.sqlFile(c, a, opt)
		}
	case RoleScript:
		fr.runScriptFile(c, rs.lang, via, a)
	}
}

// sqlFile reads a file of statements a database client runs (psql -f
// FILE) when this line wrote it: its text is the client's statements, a
// RoleData "sql" value the database rules judge as they judge psql -c.
// A file already on disk is the project's own (its migrations drop and
// create tables as a matter of course), as psql < FILE is; one the line
// wrote with contents that are not known is unknown code.
func (fr *frame) sqlFile(c *Command, a arg, opt string) {
	full := fr.wordPath(c, a.Word)
	w := fr.r.files[full]
	if full == "" || w == nil {
		return
	}
	if !w.known {
		fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: a.Value, Feeders: withWriter(a.feeders, w.writer), Pos: c.Pos})
		return
	}
	text := arg{Word: Word{Value: w.text, Pos: a.Pos}}
	c.Roles = append(c.Roles, RoleArg{Role: RoleData, Lang: "sql", Opt: opt, Word: text.Word})
	sqlEscapes(&codeRun{fr: fr, c: c, via: c.Name + " " + opt, at: text}, w.text)
}

// runScriptFile follows a file whose contents run as code of lang: "-"
// (or /dev/stdin) is the command's input; a file this line wrote or one
// Options.Files can read is analysed; an unreadable one is unknown code.
func (fr *frame) runScriptFile(c *Command, lang, via string, a arg) {
	if a.Value == "-" || isStdinPath(a.Value) {
		fr.execStdin(c, via+" stdin", func(text string, pos posMap, feeders []*Command, kind DynKind) {
			if hasUnknown(text) {
				fr.emitDynamic(&Dynamic{Kind: kind, Sink: c, Known: text, Feeders: feeders, Pos: c.Pos})
			}
			fr.runCodeText(c, lang, via, text, arg{Word: Word{Value: text, Pos: pos.at}, feeders: feeders})
		})
		return
	}
	if urlValue(a.Value) {
		fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: a.Value, Remote: true, Pos: c.Pos})
		return
	}
	text, ok, writer := procSubstOutput(a)
	if a.Literal() {
		text, ok, writer = fr.readScript(c.Dir, a.Value)
	}
	if !ok {
		if writer != nil || !a.Literal() {
			fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: a.Value, Feeders: withWriter(a.feeders, writer), Pos: c.Pos})
		}
		return
	}
	fr.runCodeText(c, lang, via, text, arg{Word: Word{Value: text, Pos: a.Pos}})
}

// runCode follows a value that runs as code of lang.
func (fr *frame) runCode(c *Command, lang, via string, a arg) {
	if a.Value == "" {
		return
	}
	fr.runCodeText(c, lang, via, a.Value, a)
}

func (fr *frame) runCodeText(c *Command, lang, via, text string, a arg) {
	if !fr.spend(1+len(text)/512, c.Pos) {
		return
	}
	if id, ok := interpLangs()[lang]; ok {
		n := len(fr.r.an.Dynamic)
		fr.scanProgram(c, id, via, text, 0)
		fr.feedDynamic(n, c, text, a.feeders)
		return
	}
	if lang == "sh" || lang == "" {
		fr.nestShellWords(c, []arg{{Word: Word{Value: text, Dynamic: hasUnknown(text), Pos: a.Pos}, feeders: a.feeders}}, via)
		return
	}
	conv := codeLangs()[lang]
	if conv == nil {
		panic("program table: no language " + lang)
	}
	conv(&codeRun{fr: fr, c: c, via: via, at: a}, text)
}

// interpLangs are the languages whose process APIs the interpreter
// scanner knows.
var interpLangs = sync.OnceValue(func() map[string]langID {
	return map[string]langID{
		"python": langPython, "js": langJS, "perl": langPerl, "ruby": langRuby, "php": langPHP,
		"lua": langLua, "awk": langAwk, "applescript": langAppleScript, "r": langR,
	}
})

// codeRun is what a language converter reports to: code it finds runs
// as shell text, as a program with arguments, or as another language.
type codeRun struct {
	fr  *frame
	c   *Command
	via string
	at  arg
}

func (cr *codeRun) word(s string) arg {
	return arg{Word: Word{Value: s, Dynamic: hasUnknown(s), Pos: cr.at.Pos}, feeders: cr.at.feeders}
}

// shell runs text as a sh -c string.
func (cr *codeRun) shell(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	cr.fr.nestShellWords(cr.c, []arg{cr.word(text)}, cr.via)
}

// argv runs a program with arguments.
func (cr *codeRun) argv(words []string) {
	if len(words) == 0 {
		return
	}
	ws := make([]arg, len(words))
	for i, w := range words {
		ws[i] = cr.word(w)
	}
	cr.fr.runNested(cr.c, ws, cr.via, nil)
}

// code runs text as code of another language.
func (cr *codeRun) code(lang, text string) {
	cr.fr.runCodeText(cr.c, lang, cr.via, text, cr.word(text))
}

// unknown records code that runs but cannot be read.
func (cr *codeRun) unknown(text string) {
	cr.fr.emitDynamic(&Dynamic{Kind: DynInterpreter, Sink: cr.c, Known: text, Feeders: cr.at.feeders, Pos: cr.c.Pos})
}

// codeLangs convert the code of a language that is not an interpreter's
// (an editor's commands, a debugger's, make's) into what runs.
var (
	codeLangsOnce sync.Once
	codeLangsMap  map[string]func(*codeRun, string)
)

// codeLangs is built on first use (in a function: the table's functions lead
// back to the analysis that reads it, which a variable's initialiser
// could not refer to).
func codeLangs() map[string]func(*codeRun, string) {
	codeLangsOnce.Do(func() {
		codeLangsMap = map[string]func(*codeRun, string){
			"vim":          vimCode,
			"gdb":          gdbCode,
			"elisp":        elispCode,
			"tcl":          tclCode,
			"gitext":       gitExtCode,
			"less":         lessOpenCode,
			"lesscmd":      lessCommands,
			"foreign":      foreignCode,
			"foreign-file": foreignFileCode,
			"sshopt":       sshOptCode,
			"sql":          sqlEscapes,
			"ed":           edCode,
			"ninja":        ninjaCode,
			"kak":          kakCode,
			"curlrc":       curlConfig,
			"gnuplot":      gnuplotCode,
			"dc":           dcCode,
			"m4":           m4Code,
			"tox":          toxCode,
			"precommit":    preCommitCode,
		}
	})
	return codeLangsMap
}
