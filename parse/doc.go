// Package parse turns shell source into facts: every command that would run,
// with its program resolved the way bash resolves it, its words marked
// literal or dynamic, its redirections, working directory and input, the
// nested scripts it runs (analysed recursively) and the places where code
// runs that cannot be known statically.
//
// The package parses with mvdan.cc/sh/v3/syntax and expands words with its
// own evaluator, delegating parameter operators to mvdan.cc/sh/v3/expand
// under a configuration that can never run anything. It knows nothing of
// risk: that is package policy's job. It performs no I/O beyond what the
// caller injects through Options.Files.
//
// # Commands
//
// A Command is one simple command bash would run: its name after quote
// removal, ANSI-C decoding, brace expansion and parameter substitution
// (X=rm; $X -rf / is rm -rf /), with wrappers peeled (sudo, env, nice,
// timeout, xargs …, kept in Wrappers). A command with no words but with
// redirections ("> f") is a Command with an empty Name: it still truncates f.
// Declarations (export, declare, local …) are Commands named after the
// builtin, and each variable they set is also an Assignment.
//
// Commands are listed in source order; the commands of a command's
// substitutions and of the nested scripts it runs follow it. Nested
// commands carry Via, the chain of sinks that led to them (bash -c, eval,
// source, function NAME, find -exec, ssh …), and Context flags.
//
// # Data and code
//
// Text is data unless a sink runs it. Heredoc bodies, quoted arguments,
// grep patterns and commit messages produce no Command; their text is in
// Stdin or Args for policy to read. Code is followed where bash runs it:
// bash|sh|zsh|dash -c, a script file, or their standard input (a pipe, a
// heredoc, a here-string); eval; source; command and process
// substitutions (which run even inside double quotes and unquoted
// heredocs); functions at their calls; aliases at their uses; trap; find
// -exec; xargs; parallel; watch; su -c; ssh; docker/kubectl exec; tmux;
// git -c alias.x='!…'; rg --pre. When the code cannot be known, a Dynamic
// fact says so, with the known parts and the commands that feed it; the
// known parts of code with holes are analysed too.
//
// The output of a few data commands is known statically (echo, printf,
// cat of a heredoc, base64 -d and xxd -r -p of known text, head and tail
// -n/-c of known text, yes piped into head -n), and a shell reading
// "< <(…)" runs what the substitution prints when that is known, so that
// "echo cm0gLXJmIC8K | base64 -d | sh", "$(echo rm) -rf /" and
// "echo / | xargs rm -rf" are seen for what they run.
//
// Files the command line writes and then runs are followed: "cat > x.sh
// <<'EOF' … EOF; bash x.sh" analyses the heredoc as the script (also for
// source, sh < x.sh, interpreters and ./x.sh by its #! line); a file whose
// contents are not known (curl -o x.sh) makes running it a DynSource fed
// by the command that wrote it.
//
// Inline interpreter code (python -c, node -e, perl -e, ruby -e, php -r,
// lua -e, osascript -e, awk programs, deno eval, bun -e, code on standard
// input or in a script file) is tokenized with the language's string and
// comment rules and scanned for process and file APIs, following imports
// and literal assignments. A string given to a shell API is a nested
// script (Context InInterpreter, Via the interpreter then the API); an
// argument list is a command; a file operation is a Synthetic command
// (shutil.rmtree(p) is rm -r p, open(p, "w") is tee p, open(p) is cat p);
// a network request is a Synthetic curl URL (with -d … when it sends
// data). GNU sed's e command is a sink too. An awk call whose argument
// holds fields ($0, $1 …: system($0), "cmd " $1 | getline, print |
// "sh " $2) is followed once per input record with the fields filled in
// when the input is known (a here-string, echo or printf upstream, a file
// on disk, at most 64 records) and nothing changes records or fields (sub,
// gsub, a field assigned, getline into $0, RS or FS, NF or OFS set); -F
// keeps $0 known but not the fields. Otherwise a field is Unknown. CMD |
// getline with CMD an expression the scanner cannot read is unknown code.
// print … | "cmd" gives cmd the printed line as its standard input (print
// alone prints $0; printf's output is Unknown).
//
// # Via
//
// Via.Sink names how code reached a command, one entry per step:
//
//	NAME -c, NAME stdin, NAME file  a shell (bash, sh, zsh, guard-exec …)
//	eval, source, trap, mapfile -C  code run in this shell
//	function NAME, alias NAME       a body at its call, an alias at its use
//	env BASH_FUNC_NAME%%            a function from the environment
//	BASH_ENV, ENV                   the file a new shell sources first
//	exec file                       a script the line wrote, run by path
//	xargs, parallel, watch          argv or shell strings they run
//	find -exec, find -execdir, find -ok, find -okdir
//	su -c, script -c, flock -c, sg, nix-shell --run, rsync -e, rg --pre
//	ssh, docker exec, docker run, podman exec, kubectl exec, tmux …, screen
//	git alias, git -c KEY, git config KEY, git GIT_SSH_COMMAND …,
//	git GIT_CONFIG_PARAMETERS KEY (the variable or file the setting came from)
//	python -c, node -e, perl -e, ruby -e, php -r, lua -e, osascript -e,
//	awk program, LANG file, LANG stdin, then the API: os.system,
//	subprocess.run, child_process.execSync, system, `, shutil.rmtree …
//
// # Data flow
//
// Stdin says where a command's input comes from: the previous pipeline
// stage (From, and Upstream for every earlier stage), a heredoc or
// here-string (its Text), a file or a process substitution. Feeders are
// the commands whose output becomes a command's words: its substitutions,
// and those that set the variables it expands (K=$(cat key); curl -d "$K").
// Together they let policy see a credential file reaching curl.
//
// # Variables and directories
//
// The analysis tracks the shell's state: variables the script assigns,
// the environment (Options.Env: nil means unknown, non-nil is exact, so an
// unset variable expands to empty as in bash), the positional parameters,
// the working directory (cd, pushd, popd), functions and aliases.
// Subshells, pipeline stages, background jobs and substitutions work on a
// copy: their changes do not leak, as in bash. The conservative rules:
//
//   - A literal cd is assumed to succeed; a cd to a dynamic place, through
//     CDPATH, or to ~user makes the directory unknown (Dir "").
//   - "A && B" is a sequence: B starts where A left and the state after is
//     B's, unless A is a test ([ … ], test, grep -q, command -v …), which
//     makes B a branch.
//   - "A || B", if/elif/else and case arms are branches: B of || starts
//     where A may have left on failure; after a branch, whatever differs
//     between the paths (a variable, the directory) is unknown.
//   - A loop body is first walked without recording facts until the state
//     at its top is stable (what an iteration changes is unknown at the
//     next; three passes at most, then nothing is known), then once for
//     facts. A for loop over at most 8 literal items is unrolled, the
//     variable known in each iteration.
//   - read and mapfile of known input they open themselves (<<<, <<,
//     < file) are split as bash splits them (IFS, -a, -d, -t); with
//     other options, or input shared with earlier reads (a loop's), they
//     are unknown, as are getopts, X=$(cmd), $RANDOM, $$, $? ….
//   - Attributes that change what an assignment stores (declare -l, -u,
//     -c, -i) apply to every later assignment; where they differ between
//     paths, the values are unknown. Arrays are known while dense
//     (a[i]= at most one past the end); associative arrays by key.
//   - Operators the expand package gets wrong or leaves out (${X@P},
//     ${X@Q}, ${X/#p/r}, & in a replacement, case changes of non-ASCII
//     text) are worked out here or unknown: a wrong known value would
//     skip the checks that hold or warn.
//   - $(<file) and cat FILE give the file's contents (read as source
//     reads it, or as the line wrote it); dirname and basename of known
//     names are computed.
//   - After code the analysis cannot see runs in this shell (eval of
//     dynamic text, source of a file that cannot be read), every variable
//     and function is unknown; a failed source keeps the directory.
//
// # Functions and aliases
//
// A function's body is analysed where it is called, in the caller's
// state, with Context InFunction and Via "function NAME"; the call itself
// is a Command with Function set (bash runs the function, not a program of
// that name). A function defined only on some paths, or imported from
// BASH_FUNC_* in the environment, is "maybe" defined: the call is reported
// as a program call and the body is analysed too. A call from inside the
// same function is not followed again and is marked Recursive; recursive
// calls in a pipeline or in the background set Analysis.ForkBomb. The
// bodies of functions the command line defines but never calls are
// analysed at the end with InUncalled. Functions that come from a file
// read from disk (source FILE, a shell snapshot, BASH_ENV) or from the
// environment (BASH_FUNC_name%%) are judged only where they are called: a
// library of functions the command does not use runs nothing. Positions
// inside such a file name it (Pos.File) with its own line and column.
//
// Code bash takes from the environment is analysed, not ignored:
// exported functions are imported (maybe defined, judged where called),
// the startup file a shell sources is analysed like source before its
// code (BASH_ENV for a bash that is not interactive, ENV for an
// interactive sh, dash or ksh, sh -i or one reading the terminal, and for
// an interactive bash in POSIX mode; the .zshenv, and .zshrc when
// interactive, of a ZDOTDIR or HOME the line gives zsh; the
// PYTHONSTARTUP of an interactive python), for guard-exec's shell and for
// every new shell the command starts, and
// a value bash would import but that cannot be parsed, or a startup file
// that cannot be read, is a DynEnvCode fact. Code bash runs later from
// variables the line sets is analysed where they are set: the prompt
// strings PS0, PS1, PS2 and PS4 (expanded like a heredoc body, so their
// $(…) runs under a prompt or set -x), PROMPT_COMMAND, and the history fc
// re-runs (what history -s added, a readable HISTFILE, the rest unknown).
//
// Aliases are expanded when bash would (expand_aliases on, unquoted first
// word, defined on an earlier line), analysed as a script with InAlias;
// when that is not certain, the plain command is analysed as well.
//
// # Canonical form
//
// Analysis.Canonical, the loop-brake fingerprint, is the tree printed back
// minified after literal words are rewritten to one quoting
// (syntax.Quote's): whitespace, comments and quoting style do not matter,
// words do. Words whose quoting means something (live globs, braces,
// tilde, arithmetic, =~ patterns, heredoc delimiters and bodies) are left
// as written. The printer has hazards, worked around: \v, \f and \xff
// pass through its tabwriter shielded; "$`cmd`" is printed "\$$(cmd)"; an
// empty last case arm gets its ";;"; and where it cannot print a tree
// faithfully (process substitutions joined to other parts, background
// statements ending nested blocks when the reprint does not parse) the
// raw script is the fingerprint.
//
// # Limits
//
// Scripts over 1 MiB, with NUL bytes, nesting (, $(, ${ deeper than 256
// levels, a chain of more than 1,000 pipes, && and || in one statement, or
// more than 20,000 statements are refused before parsing (a cheap lexical
// count; the parser and the walk recurse once per link of a chain, and a
// 100,000-stage pipeline once took minutes). Bytes that are not UTF-8
// are parsed as unknown characters (the parser refuses them, bash does
// not). Nested scripts are followed to
// Options.MaxDepth (at least 8) levels, beyond which a DynTooDeep fact is
// recorded; a total work budget bounds functions that call each other many
// times. Everything runs under recover(): a panic is an Error of kind
// ErrPanic, never a crash.
//
// # The program table
//
// What a program does with its arguments is written once, in the program
// table (table.go, rows in table_*.go, ProgramTable): per program and
// subcommand path ("git rebase", "npm exec") its options, which take a
// value, and the Role of each value and operand: shell code, a program
// with arguments, code of an interpreter or of a tool's own language
// (make, vim's Ex commands, gdb, Emacs Lisp, Tcl, git's ext:: URLs), a
// script file ("-" is standard input), a file written, read or deleted, a
// directory worked in. Each command gets the Roles its row gives
// (Command.Roles), and the code they name is analysed like bash -c's.
// Options a program takes from its environment (TAR_OPTIONS, PERL5OPT,
// RUBYOPT, NODE_OPTIONS, LESS, MAKEFLAGS, PARALLEL, ZIPOPT:
// Program.OptsEnv) are read as if they came first on its line, split as
// that program splits them; perl's -M'X;CODE' runs CODE. Rows marked Wrapper are peeled (nohup, timeout, sshpass, uv run, bwrap,
// perf stat); a terminal emulator's program (xterm -e PROG ARGS…, kitty
// PROG) is followed, and given as one word it is a command line. Every
// row carries command lines that must be held and must run, which
// policy's tests judge. OptSpec is the one option model: ParseArgs sorts
// argv with it, and a row gives its options in it (Program.Spec).
//
// Rows also give flags a meaning (Program.Flags: rm's "recursive", git
// push's "force", git gc's "prune-now" for --prune=now), recorded in
// Command.Flags; Command.Row names the row a command was read with,
// Command.Operands and Command.OptionValues give its operands and option
// values, and an operand after "--" is marked (RoleArg.AfterDashes: git
// checkout's pathspecs). Policy judges these facts instead of argv. A
// long flag counts in every abbreviation, and an option word that is
// partly unknown (-$X) counts as every flag of its row: both err toward
// the risky reading. A meaning that takes risk away (a dry run, "!" in the
// row) never comes from a word whose value is not known, nor its bare
// spelling from --dry-run=none. A command whose name is computed at run
// time has no row;
// ReadAs reads its words with a candidate program's row, so policy can
// ask what it would be if it were rm or git. A row with subcommands
// stops reading options at its first operand, except a Permute row (git
// config KEY VALUE --global), which stops only when that operand is a
// subcommand. An OldStyle row (tar) reads a first word of letters
// without a dash as its options, each letter that takes a value taking the
// next word in turn (tar xfC a.tar dir). A row's RunBy names the
// interpreters that run its program as a script or module (python
// manage.py, python -m twine, php artisan): the words after it are read
// with that row, and the interpreter's command gets it.
//
// The programs whose grammar no row can say record the same kind of
// facts where their sinks read them: an interpreter's inline code and
// script, and a shell's script (RoleCode with the option that gave it,
// RoleScript); find's expression, read once with its primaries'
// arguments (a RoleFilter per test, the program of -exec as RoleProgram,
// the file of -fprint as RoleWritten, other arguments RoleData with Opt
// the primary; "deletes", "runs", "writes", "alternatives" and "empty"
// among its meanings); docker run's mounts (RoleData of LANG "mount",
// "starts-container", "privileged", "mounts-unknown"); guard-exec's
// "runs" when it is used as a shell or a wrapper; set's "prints" when it
// has no words.
//
// Files a command runs are read when they exist when it is checked, through
// Options.Files, or when the same line wrote them: a path run directly (by
// its #! line, as a shell script without one; a compiled program is not
// read), python FILE and python -m MOD under the working directory or a
// PYTHONPATH the line sets (its packages' __init__.py first, and that
// PYTHONPATH's sitecustomize.py for any python), the modules perl -M and
// ruby -r load from the -I, PERL5LIB or RUBYLIB the line gives, node,
// perl, ruby, php, Rscript FILE, the makefile (the recipes of the goals and
// their prerequisites, make's literal variables resolved, $(shell …) run
// at read time), package.json scripts (npm run/test/start, yarn, pnpm,
// with pre and post scripts), the justfile and Taskfile. A file that is
// there but cannot be read, is too large or does not parse is unknown code
// (DynSource), never nothing. Options.Programs identifies renamed
// programs: a symlink, hard link or copy of rm is judged as rm; a copy the
// same line makes (cp /usr/bin/rm /tmp/del, cp "$(which python3)" x) is
// that program, and a copy of something unknown is unknown code.
//
// GNU parallel's jobs are analysed with their ::: and :::: values put in
// (quoted, as parallel does; a command made only of replacement strings
// runs the values as commands), up to 32 jobs; beyond that, or with values
// not known, the values are unknown data in the command. A shell started
// by coproc or > >(…) is a channel: what later commands print to a
// descriptor above 2, or to one not known, is analysed as its code.
//
// What the analysis cannot see, and leaves to policy or to the runner:
// programs that run code from files it does not read (git hooks; a
// makefile's include; recipes in another interpreter); code bash takes from the
// environment (reported in EnvCode); arithmetic evaluation of variable
// values (x='a[$(cmd)]'; (( x )) runs cmd, but only with values the
// analysis does not know); shopt options other than expand_aliases
// (lastpipe, nullglob, extglob; set -f); aliases ending in a space; the
// contents of files read with cat or $(<file) unless they are run; globs
// (Glob words keep the pattern). Interpreter scanning is lexical: calls
// through attributes named at run time (getattr(os, name)) and code built
// at run time are DynInterpreter at best. Reflective calls with the name
// given literally are the calls they make (interp_reflect.go):
// getattr(os, "system") called at once or bound to a name, Ruby's
// send(:system, …) and method(:system).call(…), Perl's &{\&CORE::system}
// and $f->(…), JavaScript's import("m").then(m => …), await import(…)
// and OBJ["name"].
package parse
