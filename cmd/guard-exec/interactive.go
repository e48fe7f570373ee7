package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/shim"
)

// interactive replaces guard-exec with the real shell for a person at a
// terminal (bash with no script, stdin a terminal: a terminal window, tmux
// with SHELL=guard-exec). The shell is the real one in every respect — line
// editing, job control, signals — and guard-exec is started again for each
// line the person types, through bash's DEBUG trap (see interactiveRC).
//
// An interactive sh is not guarded that way: bash called as sh is in POSIX
// mode, where it reads no rcfile (only the file $ENV names, which every
// command it starts would inherit). It runs unguarded, with a warning.
func (g *guard) interactive(inv *shim.Invocation, real string) error {
	if inv.Shell != "bash" {
		fmt.Fprintf(g.st.err, "guard-exec: warning: interactive %s is not guarded line by line; use bash\n", inv.Shell)
		return g.execShell(real, inv.Argv(real), -1)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	fd := int(r.Fd())
	sb := g.sandboxFor(g.workdir()) // sandbox.go
	// In the Landlock sandbox the guard stays outside, as the shell's
	// parent, to record its lines (recorder.go); the rcfile is then the
	// child's descriptor 3. Where no recorder can be made the shell
	// replaces the guard as elsewhere, and its lines are not recorded.
	var rec *shellRecorder
	if canSupervise(sb) {
		if rec, err = g.listenRecorder(sb); err != nil {
			fmt.Fprintf(g.st.err, "guard-exec: warning: the sandboxed shell's recorder: %v\n", err)
			rec = nil
		}
	}
	sh := shellPlumbing{sandboxed: sb.nestedMode()}
	if rec != nil {
		fd, sh.recorder = 3, rec.path
	}
	// The rcfile is small (well under a pipe's buffer), so writing it all
	// before bash starts cannot block.
	if _, err := w.WriteString(interactiveRC(self(), inv, fd, g.ci, sh)); err != nil {
		return err
	}
	w.Close()
	argv := []string{interactiveArg0(inv), "--rcfile", "/dev/fd/" + strconv.Itoa(fd)}
	argv = append(argv, interactiveOpts(inv)...)
	argv = append(argv, "-i")
	if len(inv.Args) > 0 {
		argv = append(argv, "-s", "--")
		argv = append(argv, inv.Args...)
	}
	if rec != nil {
		return g.superviseShell(sb, rec, real, argv, r) // recorder_linux.go
	}
	return g.execShellIn(sb, real, argv, fd)
}

// shellPlumbing is what the interactive shell's hook is told about where
// it runs: the sandbox, and the recorder outside it.
type shellPlumbing struct {
	sandboxed policy.SandboxMode
	recorder  string
}

// execShell replaces this process with the real shell. keepFd, when not
// -1, is inherited by it (the rcfile pipe).
func (g *guard) execShell(real string, argv []string, keepFd int) error {
	return g.execShellIn(g.sandboxFor(g.workdir()), real, argv, keepFd)
}

// execShellIn is execShell with the sandbox planned already.
func (g *guard) execShellIn(sb *sandboxRun, real string, argv []string, keepFd int) error {
	if keepFd >= 0 {
		if _, err := unix.FcntlInt(uintptr(keepFd), unix.F_SETFD, 0); err != nil {
			return err
		}
	}
	env := g.childEnv()
	if sb != nil && !sb.inherited {
		return g.execSandboxed(sb, real, argv, env)
	}
	err := syscall.Exec(real, argv, env)
	return fmt.Errorf("starting %s: %w", real, err)
}

// interactiveArg0 keeps the caller's name for the shell ($0, error
// messages) but never a leading '-': login startup files are read by the
// rcfile instead, since bash ignores --rcfile in a login shell.
func interactiveArg0(inv *shim.Invocation) string {
	a := strings.TrimPrefix(inv.Arg0, "-")
	if a == "" {
		return "bash"
	}
	return a
}

// interactiveOpts are the caller's shell options minus those the rcfile
// takes over (login, startup files).
func interactiveOpts(inv *shim.Invocation) []string {
	var out []string
	opts := inv.ShellOpts
	for i := 0; i < len(opts); i++ {
		switch o := opts[i]; o {
		case "-l", "--login", "--norc", "--noprofile", "-i", "-s":
		case "--rcfile", "--init-file":
			i++
		default:
			out = append(out, o)
		}
	}
	return out
}

// startupFiles are what bash would have read: for a login shell
// /etc/profile and the first of ~/.bash_profile, ~/.bash_login, ~/.profile;
// otherwise ~/.bashrc, or the --rcfile given. --noprofile and --norc are
// honoured.
func startupFiles(inv *shim.Invocation) string {
	norc, noprofile, rcfile := false, false, ""
	for i, o := range inv.ShellOpts {
		switch o {
		case "--norc":
			norc = true
		case "--noprofile":
			noprofile = true
		case "--rcfile", "--init-file":
			if i+1 < len(inv.ShellOpts) {
				rcfile = inv.ShellOpts[i+1]
			}
		}
	}
	var b strings.Builder
	if inv.Login {
		// The real bash is not started as a login shell (it would ignore
		// the rcfile), so its logout builtin refuses ("not login shell").
		// This one does what a login shell's does: ~/.bash_logout, then exit.
		b.WriteString("logout() { [ -r ~/.bash_logout ] && . ~/.bash_logout; builtin exit \"$@\"; }\n")
	}
	switch {
	case inv.Login && !noprofile:
		b.WriteString("[ -r /etc/profile ] && . /etc/profile\n")
		b.WriteString("for __ge_f in ~/.bash_profile ~/.bash_login ~/.profile; do [ -r \"$__ge_f\" ] && { . \"$__ge_f\"; break; }; done; unset __ge_f\n")
	case inv.Login:
	case rcfile != "":
		fmt.Fprintf(&b, "[ -r %s ] && . %s\n", shellWord(rcfile), shellWord(rcfile))
	case !norc:
		// bash reads its system file (/etc/bash.bashrc where it was built
		// with one) itself, --rcfile or not: only the personal one is ours.
		b.WriteString("[ -r ~/.bashrc ] && . ~/.bashrc\n")
	}
	return b.String()
}

// interactiveRC is the startup file of a guarded interactive bash. After
// the person's own startup files it turns on extdebug and installs a DEBUG
// trap: bash runs the trap before every simple command, and under extdebug
// a non-zero status from it skips the command.
//
// The trap judges whole lines, not single commands: the first command of a
// line the person typed starts `guard-exec hook shell` on the line's text
// from history, and the verdict is kept for the rest of that line (its
// other commands, loops, pipelines). A line is known to be new because
// PROMPT_COMMAND, wrapped here, marks the end of the previous one; its text
// is taken from history only when history has just recorded it (HISTCMD
// moved on and the newest entry has its number). Otherwise — history off, a
// line left out by HISTCONTROL=ignorespace or ignoredups, PROMPT_COMMAND
// replaced later — each simple command is judged on its own text
// (BASH_COMMAND), which is slower but never judges the wrong text.
//
// Commands inside shell functions are not judged one by one: the call is
// judged as part of its line, and functions from the person's startup
// files are trusted as the files are. PROMPT_COMMAND's own commands are
// trusted the same way. A DEBUG trap the startup files set (bash-preexec)
// keeps running after the guard's.
//
// When guard-exec cannot be started (status 127, or it failed with 125)
// the line runs with a warning: a person must never be locked out of their
// own shell. A judgement cut short by ^C or ^\ (status 130, 131: the
// person typed it while the line was being judged, or at the question) is
// a line not run, as ^C is everywhere else. This is a guard for people, not a boundary: `trap - DEBUG`
// turns it off.
func interactiveRC(bin string, inv *shim.Invocation, fd int, ci bool, sh shellPlumbing) string {
	var b strings.Builder
	// bash has read the whole file before running it: the pipe it came
	// through is closed first, so no command inherits it.
	fmt.Fprintf(&b, "exec %d<&-\n", fd)
	b.WriteString(startupFiles(inv))
	fmt.Fprintf(&b, "__ge_bin=%s\n", shellWord(bin))
	// --ci: holds are never asked about. --sandboxed: the shell runs in
	// the kernel sandbox, which no guard process is left to announce
	// (nest.go); the hook believes it only with the kernel's word.
	var opts []string
	if ci {
		opts = append(opts, "--ci")
	}
	switch {
	case sh.sandboxed == policy.SandboxOff:
	case sh.recorder != "":
		// The ledger is one of the places the sandbox protects: the hook,
		// which runs inside it, hands its records to the guard outside.
		opts = append(opts, "--sandboxed="+sh.sandboxed.String(), "--recorder="+sh.recorder)
	default:
		// No guard is left outside: the hook judges each line but cannot
		// record it.
		opts = append(opts, "--sandboxed="+sh.sandboxed.String())
		b.WriteString("printf '%s\\n' 'guard-exec: this shell runs in the kernel sandbox: each line is judged, but the ledger is read-only in here, so lines are not recorded' >&2\n")
	}
	b.WriteString("__ge_opts=(")
	for i, o := range opts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(shellWord(o))
	}
	b.WriteString(")\n")
	b.WriteString(interactiveTrap)
	return b.String()
}

const interactiveTrap = `__ge_prev_trap=$(trap -p DEBUG)
__ge_prev_trap=${__ge_prev_trap#trap -- }
__ge_prev_trap=${__ge_prev_trap% DEBUG}
eval "__ge_prev_trap=${__ge_prev_trap:-''}"
__ge_new=1 __ge_next= __ge_rc=0 __ge_pc= __ge_ran=
declare -A __ge_seen=()
__ge_pc_on() {
  local s=$? r
  __ge_pc=1
  for r in $__ge_ran; do "$__ge_bin" hook shell "${__ge_opts[@]}" --exit "$r" --status "$s"; done
  __ge_ran=
  return $s
}
__ge_pc_off() { __ge_pc= __ge_new=1 __ge_next=$HISTCMD; __ge_seen=(); }
if [[ $(declare -p PROMPT_COMMAND 2>/dev/null) == 'declare -a'* ]]; then
  PROMPT_COMMAND=(__ge_pc_on "${PROMPT_COMMAND[@]}" __ge_pc_off)
else
  PROMPT_COMMAND="__ge_pc_on"$'\n'"${PROMPT_COMMAND:-}"$'\n'"__ge_pc_off"
fi
__ge_judge() {
  local r rc
  r=$("$__ge_bin" hook shell "${__ge_opts[@]}" --ran-fd 3 -c "$1" 3>&1 >&2)
  rc=$?
  [[ -n $r ]] && __ge_ran+=" $r"
  case $rc in
    0|126) return $rc ;;
    130|131) return $rc ;;
  esac
  printf 'guard-exec: warning: the guard could not judge this line (status %s); it runs unchecked\n' "$rc" >&2
  return 0
}
__ge_guard() {
  [[ ${#FUNCNAME[@]} -gt 2 || -n $__ge_pc ]] && return 0
  case $BASH_COMMAND in __ge_*) return 0 ;; esac
  if [[ -n $__ge_new ]]; then
    __ge_new= __ge_line=
    local h n
    h=$(HISTTIMEFORMAT= builtin history 1 2>/dev/null)
    if [[ $h =~ ^\ *([0-9]+)\*?\ \ (.*)$ ]]; then n=${BASH_REMATCH[1]}; fi
    if [[ -n $n && $n == "$HISTCMD" && $n == "$__ge_next" ]]; then
      __ge_line=1
      __ge_judge "${BASH_REMATCH[2]}"
      __ge_rc=$?
    fi
  fi
  if [[ -n $__ge_line ]]; then
    return $__ge_rc
  fi
  local key="$PWD"$'\n'"$BASH_COMMAND"
  if [[ -z ${__ge_seen[$key]+set} ]]; then
    __ge_judge "$BASH_COMMAND"
    __ge_seen[$key]=$?
  fi
  return ${__ge_seen[$key]}
}
__ge_debug() {
  __ge_guard || return 1
  [[ -n $__ge_prev_trap ]] && eval "$__ge_prev_trap"
  return 0
}
shopt -s extdebug
trap '__ge_debug' DEBUG
`
