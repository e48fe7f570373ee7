package parse

import (
	"fmt"
	"strings"
)

// Unknown marks, inside a Word's Value, a part whose text cannot be known
// statically (a parameter with no known value, a command substitution, an
// arithmetic expansion). Bash strings can never contain NUL, so the marker
// never collides with real text.
const Unknown = "\x00"

// Dialect selects the shell grammar a script is parsed with.
type Dialect uint8

const (
	Bash  Dialect = iota // bash 5.2, the default
	POSIX                // POSIX sh, for the sh shim
)

func (d Dialect) String() string {
	if d == POSIX {
		return "posix"
	}
	return "bash"
}

// Pos is a 1-based line and column in the top-level script, or in the file
// named by File. Facts found in a nested script (bash -c, eval, a heredoc
// fed to sh) carry the position of the outer word or body they came from,
// shifted into it when the nested text is a plain literal of the outer
// script. Facts found in a file read from disk (source FILE, bash FILE,
// BASH_ENV) carry File and their line and column inside it.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	if p.File != "" {
		return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// IsValid reports whether p points somewhere.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Word is one field after bash's expansions, as far as they can be performed
// without running anything.
type Word struct {
	// Value is the word with quotes removed, escapes and ANSI-C quotes
	// decoded, literal parameters substituted and braces expanded. Parts
	// that cannot be known are replaced by Unknown.
	Value string
	// Dynamic is set when some part of Value is Unknown.
	Dynamic bool
	// Glob is set when the word holds unquoted pattern characters
	// (*, ?, [...]) that bash would expand against the filesystem.
	Glob bool
	// Made is set when the word is exactly the expansion of a variable that
	// names a path the script made itself (mktemp's, or mkdir's of a path
	// it found absent): it holds only the script's own work (made.go).
	Made bool
	// Assumed is, for a word unknown only because code the analysis
	// cannot see ran before it, the value it has if that code left the
	// variables alone, with Unknown where even then it is not known; ""
	// otherwise (assumed.go).
	Assumed string
	// Unseen is set on a word unknown only because code the analysis
	// cannot see may have set variables the shell did not have when that
	// code ran ("$BATS_WARNING_FILE" after bats sources a file it made at
	// run time): no value is assumed, and whatever the word names, that
	// code chose it — it could as well have written there itself
	// (assumed.go).
	Unseen bool
	// AllOf is, for a word that is one of the entries a pattern matching
	// every entry of a directory expanded to (*, .*), that directory: the
	// words together are its contents.
	AllOf string
	// Listed is set when the word is an entry the analysis read listing
	// its directory, a glob's match: the path existed when the line was
	// checked, and the policy need not look again.
	Listed bool
	// Alts are, for a word that is exactly a variable's expansion where
	// the paths reaching it set the variable differently, the values it
	// may have (Unknown inside where a path's value is not all known);
	// nil otherwise; a pointer, so that a Word stays comparable, shared
	// and never written (Alternatives returns it; alts.go).
	Alts *[]string
	// Pos is where the source word starts.
	Pos Pos
}

// Literal reports whether the word's value is fully known and is not a
// pattern: what is in Value is exactly what the program receives.
func (w Word) Literal() bool { return !w.Dynamic && !w.Glob }

// Known returns the text before the first unknown part.
func (w Word) Known() string {
	if i := strings.Index(w.Value, Unknown); i >= 0 {
		return w.Value[:i]
	}
	return w.Value
}

// String renders the word for people: unknown parts print as "…".
func (w Word) String() string { return strings.ReplaceAll(w.Value, Unknown, "…") }

// RedirOp is the operator of a redirection, as written.
type RedirOp string

// Redirect is one redirection of a command.
type Redirect struct {
	Op RedirOp // ">", ">>", ">|", "<", "<>", "&>", "&>>", ">&", "<&", "<<", "<<-", "<<<"
	Fd int     // the file descriptor redirected (1 for ">", 0 for "<", …)
	// Target is the file word for file redirections and the fd word for
	// duplications ("2>&1"); empty for heredocs.
	Target Word
	// Path is the absolute, cleaned path of the target when it is known and
	// names a file; "" otherwise (dynamic target, unknown directory, fd dup).
	Path                string
	Read, Write, Append bool
	// Pipe is set when the target is a process substitution (> >(cmd)):
	// the data goes to its commands, not to a file.
	Pipe bool
	Pos  Pos
}

// InputKind says where a command's standard input comes from.
type InputKind uint8

const (
	InputNone       InputKind = iota // inherited from the caller
	InputHeredoc                     // <<EOF or <<-EOF
	InputHereString                  // <<< word
	InputPipe                        // the previous command of a pipeline
	InputFile                        // < file
	InputProcSubst                   // < <(...)
)

// Input describes a command's standard input when the script decides it.
type Input struct {
	Kind InputKind
	// Text is the data fed, when it is known: a heredoc or here-string body,
	// or what a pipeline's upstream prints when that is literal data
	// (echo, printf, cat of a heredoc). Unknown parts are Unknown.
	Text  string
	Known bool // Text is the whole input, fully known
	// From is the upstream command for InputPipe (the last command of the
	// left-hand side), or the command inside <(...) for InputProcSubst.
	From *Command
	// Path is the resolved file for InputFile.
	Path string
	// Executed is set when the receiving command runs its input as code
	// (sh, bash, python -, psql reading SQL is *not* code in this sense).
	Executed bool
	Pos      Pos

	// upstream lists every command of the earlier pipeline stages (the
	// feeders of a DynPipeShell), not only From.
	upstream []*Command
	// verbatim is set when Text is a verbatim slice of the top-level
	// script starting at Pos (a quoted heredoc body), so positions inside
	// it can be mapped exactly.
	verbatim bool
}

// Upstream returns every command whose output can reach this input: all
// commands of the earlier stages of the pipeline ("curl … | tee x | sh"
// gives curl and tee), or the commands inside <(…).
func (in *Input) Upstream() []*Command {
	if in == nil {
		return nil
	}
	return in.upstream
}

// Context records the syntactic places a command sits in. Flags combine.
type Context uint16

const (
	InPipeline    Context = 1 << iota // part of a pipeline of two or more
	InBackground                      // runs in the background (&)
	InSubshell                        // inside ( … )
	InCmdSubst                        // inside $( … ) or backticks
	InProcSubst                       // inside <( … ) or >( … )
	InFunction                        // the body of a function, analysed at its call
	InAlias                           // an alias body, analysed at its use
	InCondition                       // the condition of if/while/until or the left of && / ||
	InLoop                            // the body of a loop
	InNested                          // a nested script (bash -c, eval, source, heredoc to sh, …)
	InInterpreter                     // shell code found in interpreter source (python -c "os.system(...)")
	InBranch                          // runs only on some paths: right of && / ||, a branch of if/case
	InOrLeft                          // the left of ||: its failure is handled ("rm x || true")
	InUncalled                        // the body of a function the script defines but never calls
	InRemote                          // runs on another machine or container (ssh HOST CMD, docker exec)
)

// Via is one step of the chain that led to a nested command, outermost first:
// the sink command's name and how the text reached it.
type Via struct {
	Sink string // "bash -c", "eval", "source", "xargs", "find -exec", "python -c", "alias", "function", …
	Pos  Pos
}

// Command is one simple command that would run.
type Command struct {
	// Name is the program as bash resolves it: quotes removed, ANSI-C
	// decoded, directory stripped ("/bin/rm" → "rm"). When the name is
	// not known it holds the known parts with Unknown in the gaps. It is
	// "" for a command with no words, only redirections ("> f" truncates
	// f), and the builtin's name for declarations (export, declare, …).
	Name string
	// Path is the program word as written after quote removal; it equals
	// Name unless a directory was given.
	Path string
	// NameDynamic is set when the program name cannot be known.
	NameDynamic bool
	// Args are the arguments after the program name, after peeling
	// wrappers.
	Args []Word
	// Roles are the arguments the program table gives a role (table.go):
	// code that runs, files written, read or deleted, data sent away.
	Roles []RoleArg
	// Row is the program table row the command was read with, subcommand
	// path included ("git worktree remove"); "" when it has none.
	Row string
	// Flags are the meanings its row gives the flags it was given
	// ("recursive", "force"): Program.Flags.
	Flags []string
	// Assigns are the VAR=value prefixes, including those given to env.
	Assigns []Assign
	// Inherited are the VAR=value prefixes of the program runner that
	// started this command with its arguments, and those it inherited in
	// turn: NODE_ENV=test npx prisma migrate reset gives prisma
	// NODE_ENV=test. nil for a command no runner started.
	Inherited []Assign
	// Wrappers lists the peeled wrapper programs, outermost first
	// ("sudo", "env", "timeout").
	Wrappers []string
	// Redirs are the command's redirections, with those of the compound
	// commands around it ("{ a; b; } > f" gives both a and b "> f").
	Redirs []Redirect
	// Stdin is where the command's input comes from, when the script
	// says; nil when it is inherited from the caller. For a command run by
	// xargs it is the input xargs reads the arguments from.
	Stdin *Input
	// Dir is the absolute working directory the command runs in, following
	// literal cd/pushd earlier in the script; "" when it is not known.
	Dir string
	// DirPart is, when Dir is "" because a cd went to an absolute path
	// with unknown parts ("$TMPDIR/glob-test-$$", "$(mktemp -d)"), that
	// path with Unknown for what is not known: a relative operand is
	// judged as that path joined with it, as if the script had spelled
	// it out. DirMade is set when that directory is one the script made
	// itself (cd "$tmp" after tmp=$(mktemp -d)): what is inside holds
	// only its own work. Both are empty whenever Dir is known, and where
	// the analysis does not know (a wrapper's -C DIR) the directory is
	// just unknown.
	DirPart string
	DirMade bool
	Context Context
	Via     []Via
	// Synthetic is set for commands that stand for an interpreter's file or
	// process API (shutil.rmtree(p) is analysed as rm -r p).
	Synthetic bool
	// Placeholder is set when some argument is supplied at run time by the
	// sink (xargs input, find -exec {}): the argument is a dynamic Word.
	Placeholder bool
	// Function is set when Name is a function the script defined: bash
	// runs the function, not a program of that name. The body's commands
	// follow this one (Context InFunction, Via "function NAME"). When the
	// function is only maybe defined (inside an if) the call is reported as
	// a program call, Function unset, and the body is analysed too.
	Function bool
	// Recursive is set on a call of a function from inside its own body;
	// the body is not followed again. With InPipeline or InBackground it is
	// the shape of a fork bomb.
	Recursive bool
	// Remote is the host (or "docker:CONTAINER", "kubectl:POD") a command
	// runs on when a remote-execution sink sent it there; "" for local.
	Remote string
	// User is the user the command runs as when a wrapper changed it
	// (sudo, sudo -u U, su U, doas, runuser); "" when unchanged.
	User string
	// Feeders are the commands whose output becomes part of this
	// command's words: the substitutions in its arguments and
	// redirections, and those that set the variables it expands
	// (K=$(cat ~/.aws/credentials); curl -d "$K" …).
	Feeders []*Command
	// ArgFeeders, when not nil, is parallel to Args: the commands whose
	// output makes each argument (the substitutions in it and those that
	// set the variables it expands), nil for an argument with none.
	// "rm -rf $(find . -name x)" gives find for Args[1], so policy can
	// judge the paths find lists under its roots.
	ArgFeeders [][]*Command
	// Pipeline identifies the pipeline the command is part of (0 when
	// none): commands with the same Pipeline are its stages. PipeIndex is
	// the stage, from 0.
	Pipeline  int
	PipeIndex int
	Pos       Pos
	// Span is the source text of the command, bounded, for messages.
	Span string

	// out is what the command prints when that is known data (echo,
	// printf, cat of a heredoc); pipedOut is set when its output goes to
	// the next pipeline stage rather than out of the enclosing list.
	out      string
	outKnown bool
	// ownStdin is set when Stdin is the command's own redirection, not
	// one it shares with the commands around it (a loop's heredoc).
	ownStdin bool
	pipedOut bool
	// outFrom is set when out is a verbatim heredoc passed through.
	outFrom *Input
	// env is what env/sudo did to the environment the command gets.
	env envMods
}

type envMods struct {
	clear, reset bool
	unset        []string
}

// Depth is how many nested scripts deep the command was found.
func (c *Command) Depth() int { return len(c.Via) }

// HasWrapper reports whether the named wrapper was peeled off.
func (c *Command) HasWrapper(name string) bool {
	for _, w := range c.Wrappers {
		if w == name {
			return true
		}
	}
	return false
}

// FeedersOf returns the commands whose output makes Args[i]
// (ArgFeeders[i]), or nil.
func (c *Command) FeedersOf(i int) []*Command {
	if i < 0 || i >= len(c.ArgFeeders) {
		return nil
	}
	return c.ArgFeeders[i]
}

// FeedersOfWord returns the commands whose output makes w, one of the
// command's words (an operand or an option's value as its row gave it,
// when the word is the whole argument), or nil.
func (c *Command) FeedersOfWord(w Word) []*Command {
	for i, a := range c.Args {
		if a == w {
			return c.FeedersOf(i)
		}
	}
	return nil
}

// Argv returns the argument values (Word.Value), for matching.
func (c *Command) Argv() []string {
	out := make([]string, len(c.Args))
	for i, a := range c.Args {
		out[i] = a.Value
	}
	return out
}

// Assign is one VAR=value prefix.
type Assign struct {
	Name  string
	Value Word
}

// Assignment is one variable assignment found in the script.
type Assignment struct {
	Name  string
	Value Word // for arrays, the elements joined with spaces
	// Export is set when the variable reaches child processes: export,
	// declare -x, or a prefix of a command.
	Export bool
	// Prefix is set for VAR=value before a command (and env VAR=value):
	// the value is set for that command only.
	Prefix  bool
	Append  bool   // +=
	Array   bool   // =(…)
	Decl    string // the declaring builtin: "export", "declare", "local", …; "" for plain
	Context Context
	Via     []Via
	Pos     Pos
}

// DynKind classifies content that runs but cannot be known statically.
type DynKind string

const (
	DynEval        DynKind = "eval"         // eval of non-literal text
	DynShellArg    DynKind = "shell-arg"    // sh -c "$X", sh -c "$(…)"
	DynCommandName DynKind = "command-name" // $X args, $(cmd) args
	DynPipeShell   DynKind = "pipe-shell"   // … | sh, … | python
	DynSource      DynKind = "source"       // source of a dynamic or missing file, source <(…), running a file of unknown contents (curl -o x; bash x)
	DynProcSubst   DynKind = "proc-subst"   // bash <(…)
	DynInterpreter DynKind = "interpreter"  // python -c with dynamic code reaching a process API
	DynAlias       DynKind = "alias"        // alias definition or expand_aliases that cannot be followed
	DynTooDeep     DynKind = "too-deep"     // nesting beyond the depth limit, or the analysis budget spent
	DynUnparsable  DynKind = "unparsable"   // a nested script the parser rejects; Known holds its text
	DynEnvCode     DynKind = "env-code"     // code bash takes from the environment that cannot be read or parsed (an exported function, the BASH_ENV file); Known names the variable
)

// Dynamic is a place where code runs that the analysis cannot see.
type Dynamic struct {
	Kind DynKind
	// Sink is the command that executes the unknown code (sh, eval, the
	// command whose name is dynamic).
	Sink *Command
	// Known is what is known of the code, with Unknown in the gaps ("rm" for
	// "$(echo rm) -rf /" is not known; "" when nothing is).
	Known string
	// Feeders are the commands whose output becomes the code: curl in
	// "curl … | sh", base64 in "base64 -d | sh", echo in sh -c "$(echo …)".
	Feeders []*Command
	// Remote is set for code the program fetches itself and runs as it
	// arrives (deno run https://…, a script operand that is a URL).
	Remote bool
	// Placeholder is set when the unknown parts are only the arguments
	// the sink splices into the code at run time: the paths of
	// "find … | xargs -I{} sh -c 'rm -rf {}'" or find -exec sh -c '… {}'.
	// Policy can judge them where the sink's input lists them.
	Placeholder bool
	Pos         Pos
	Span        string
}

// ErrKind classifies why a script could not be analysed.
type ErrKind string

const (
	ErrSyntax   ErrKind = "syntax"    // the parser rejected the script
	ErrTooLarge ErrKind = "too-large" // over the size bound
	ErrTooDeep  ErrKind = "too-deep"  // nesting over the depth bound, checked before parsing
	ErrTooMuch  ErrKind = "too-much"  // more commands, or a longer chain, than the analysis budget
	ErrPanic    ErrKind = "panic"     // the analysis panicked; treated as a hold
	ErrInvalid  ErrKind = "invalid"   // NUL bytes or other input bash cannot take as a script
)

// Error is why a script could not be analysed, with where.
type Error struct {
	Kind ErrKind
	Pos  Pos
	Msg  string
	// Incomplete is set for syntax errors at end of input (unclosed quote,
	// heredoc closed by end of input) that bash may still accept.
	Incomplete bool
}

func (e *Error) Error() string {
	if e.Pos.IsValid() {
		return fmt.Sprintf("%s: %s", e.Pos, e.Msg)
	}
	return e.Msg
}

// Analysis is everything known about a script without running it.
type Analysis struct {
	Dialect Dialect
	// Commands lists every simple command that would run, in source order,
	// with nested scripts' commands after the command that runs them.
	Commands []*Command
	Dynamic  []*Dynamic
	// Functions names the functions the script defines.
	Functions []string
	// Assignments lists every variable assignment, in source order: bare
	// (X=1), command prefixes (X=1 cmd, env X=1 cmd), declarations
	// (export, declare, local, readonly, typeset).
	Assignments []*Assignment
	// ForkBomb is set when a function calls itself in a pipeline or in
	// the background (":(){ :|:& };:").
	ForkBomb bool
	// EnvCode names environment variables that make bash run code the
	// command line does not show (BASH_ENV, ENV, BASH_FUNC_name%%); the
	// runner removes them.
	EnvCode []string
	// Canonical is the script printed back by syntax.Printer: whitespace and
	// quoting style normalised, words kept. It is the loop-brake
	// fingerprint. When parsing fails it is the raw script.
	Canonical string
	// Err is set when the script could not be parsed or analysed; Commands
	// are then empty and policy falls back to scanning Raw.
	Err *Error
	// Raw is the script as given.
	Raw string
}

// Stages returns the commands of the pipeline c is part of, in order
// (c's own stage included); nil when c is not in a pipeline.
func (an *Analysis) Stages(c *Command) []*Command {
	if c == nil || c.Pipeline == 0 {
		return nil
	}
	var out []*Command
	for _, x := range an.Commands {
		if x.Pipeline == c.Pipeline {
			out = append(out, x)
		}
	}
	return out
}

// Upstream returns the commands whose output reaches c's standard input
// through its pipeline (every earlier stage), or nil.
func (c *Command) Upstream() []*Command { return c.Stdin.Upstream() }

// Flag reports whether the command was given a flag its row says means m
// (Program.Flags): "recursive" for rm -r, rm -R, rm --rec.
func (c *Command) Flag(m string) bool {
	for _, f := range c.Flags {
		if f == m {
			return true
		}
	}
	return false
}

// OptionValues returns the values given to an option the program table
// lists with a role, named by its first spelling ("-b" for git
// checkout's -b|-B|--orphan), in order.
func (c *Command) OptionValues(opt string) []Word {
	var ws []Word
	for _, ra := range c.Roles {
		if ra.Opt == opt {
			ws = append(ws, ra.Word)
		}
	}
	return ws
}

// Operands returns the words the program table gave role r, in order:
// rm's operands are RoleDeleted.
func (c *Command) Operands(r Role) []Word {
	// Counted first, so that the words are copied once into a slice of
	// their number: a glob's matches are many words, and policy asks
	// for them several times.
	n := 0
	for i := range c.Roles {
		if c.Roles[i].Role == r && c.Roles[i].Opt == "" {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	ws := make([]Word, 0, n)
	for i := range c.Roles {
		if ra := &c.Roles[i]; ra.Role == r && ra.Opt == "" {
			ws = append(ws, ra.Word)
		}
	}
	return ws
}
