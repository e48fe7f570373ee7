package parse

import "strings"

// Remote sinks send code to another machine or container. The commands
// found there carry Remote (the host) and InRemote; their directory and
// environment are unknown.

// sinkSSH follows ssh [options] HOST [COMMAND…]: the remote command is the
// words joined with spaces, run by the remote user's shell. With no
// command, a remote shell runs ssh's input. Which options take a value
// is ssh's row's (table_infra.go), read before the host and after it.
func sinkSSH(fr *frame, c *Command, args []arg) {
	spec := LookupProgram("ssh").Spec()
	opts, i := parseOpts(args, 1, spec)
	if i >= len(args) || has(opts, "G", "V", "O") {
		return
	}
	host := args[i]
	i++
	// OpenSSH also takes options after the host.
	more, j := parseOpts(args, i, spec)
	opts = append(opts, more...)
	i = j
	if has(opts, "N", "W") {
		return
	}
	remote := host.Value
	if u := optVal(opts, "l"); u != nil && !strings.Contains(remote, "@") {
		remote = u.Value + "@" + remote
	}
	st := &state{}
	st.args, st.argsKnown = []string{"sh"}, true
	if i >= len(args) {
		fr.execStdin(c, "ssh stdin", func(text string, pos posMap, feeders []*Command, kind DynKind) {
			fr.nest(nesting{sink: c, via: "ssh", text: text, pos: pos, kind: kind, feeders: feeders, st: st, remote: remote})
		})
		return
	}
	ws := args[i:]
	fr.nest(nesting{sink: c, via: "ssh", text: joinValues(ws), pos: fr.argsPos(ws, c), kind: DynShellArg, feeders: feedersOf(ws), st: st, stdin: c.Stdin, remote: remote})
}

// sinkDocker follows docker/podman exec CONTAINER CMD… and run IMAGE
// [CMD…], and the compose forms.
func sinkDocker(fr *frame, c *Command, args []arg) {
	global, i := parseOpts(args, 1, OptSpec{Short: "cHl", Long: []string{"config", "context", "host", "log-level", "tlscacert", "tlscert", "tlskey"}})
	if i >= len(args) {
		return
	}
	sub := args[i].Value
	if sub == "run" || sub == "container" && i+1 < len(args) && args[i+1].Value == "run" {
		at := i + 1
		if sub == "container" {
			at++
		}
		dockerRunFacts(c, args, at, has(global, "H", "host", "c", "context"))
	}
	if (sub == "compose" || sub == "container") && i+1 < len(args) {
		i++
		if sub == "compose" {
			_, i = parseOpts(args, i, OptSpec{Short: "fp", Long: []string{"file", "project-name", "project-directory", "profile", "env-file"}})
			if i >= len(args) {
				return
			}
		}
		sub = args[i].Value
	}
	var spec OptSpec
	switch sub {
	case "exec":
		spec = OptSpec{Short: "euw", Long: []string{"env", "env-file", "user", "workdir", "detach-keys", "index"}}
	case "run":
		spec = OptSpec{Short: dockerRunShort, Long: dockerRunLong}
	default:
		return
	}
	opts, j := parseOpts(args, i+1, spec)
	if j >= len(args) {
		return
	}
	target := args[j]
	argv := args[j+1:]
	if e := optVal(opts, "entrypoint"); e != nil {
		argv = append([]arg{*e}, argv...)
	}
	if len(argv) == 0 {
		return
	}
	fr.runNested(c, argv, c.Name+" "+sub, func(f *frame) {
		f.remote = c.Name + ":" + target.Value
		f.ctx |= InRemote
		f.st = &state{}
		if w := optVal(opts, "w", "workdir"); w != nil && strings.HasPrefix(w.Value, "/") {
			f.st.dir = w.Value
		}
	})
}

// dockerRunFacts records what a run command (docker run, docker
// container run, podman run) says of the container's mounts: the meaning
// "starts-container"; each -v/--volume and --mount value a role (RoleData,
// LANG "mount", Opt "--volume" or "--mount"); "privileged" for
// --privileged (not =false); and "mounts-unknown" when what is mounted is
// not all on the line: --volumes-from, a mount option with no value, a
// daemon named by -H/--host/-c/--context (remote). Every word after run
// is read, the container's command too, so a mount is never missed for
// an option value misread; a spurious one only makes more paths judged as
// the host's.
func dockerRunFacts(c *Command, args []arg, from int, remote bool) {
	flag := func(m string) {
		if !c.Flag(m) {
			c.Flags = append(c.Flags, m)
		}
	}
	flag("starts-container")
	if remote {
		flag("mounts-unknown")
	}
	_, image := parseOpts(args, from, OptSpec{Short: dockerRunShort, Long: dockerRunLong})
	for i := from; i < len(args); i++ {
		v := args[i].Value
		name, val, hasVal := "", "", false
		switch {
		case strings.HasPrefix(v, "--"):
			name, val, hasVal = strings.Cut(v[2:], "=")
		case len(v) > 2 && v[0] == '-' && v[1] == 'v':
			name, val, hasVal = "volume", v[2:], true
		case v == "-v":
			name = "volume"
		case i < image && len(v) > 2 && v[0] == '-':
			// A cluster of docker's own short options (-itv SRC:DST):
			// the first letter that takes a value takes the rest of the
			// word or the next one.
			k := strings.IndexAny(v[1:], dockerRunShort) + 1
			if k == 0 || v[k] != 'v' {
				continue
			}
			name, val, hasVal = "volume", v[k+1:], k+1 < len(v)
		default:
			continue
		}
		switch name {
		case "volumes-from":
			flag("mounts-unknown")
			continue
		case "privileged":
			if val != "false" {
				flag("privileged")
			}
			continue
		case "volume", "mount":
		default:
			continue
		}
		w := valueArg(args[i], val).Word
		if !hasVal {
			if i+1 >= len(args) {
				flag("mounts-unknown")
				continue
			}
			i++
			w = args[i].Word
		}
		c.Roles = append(c.Roles, RoleArg{Role: RoleData, Lang: "mount", Opt: "--" + name, Word: w})
	}
}

// dockerRunShort are docker run's one-letter options that take a value.
const dockerRunShort = "acehlmpuvw"

var dockerRunLong = []string{
	"add-host", "annotation", "attach", "blkio-weight", "cap-add", "cap-drop", "cgroup-parent", "cgroupns",
	"cidfile", "cpu-period", "cpu-quota", "cpu-shares", "cpus", "cpuset-cpus", "cpuset-mems", "device",
	"dns", "dns-option", "dns-search", "domainname", "entrypoint", "env", "env-file", "expose", "gpus",
	"group-add", "health-cmd", "health-interval", "health-retries", "health-timeout", "hostname", "ip",
	"ip6", "ipc", "isolation", "label", "label-file", "link", "log-driver", "log-opt", "mac-address",
	"memory", "memory-reservation", "memory-swap", "mount", "name", "network", "network-alias", "pid",
	"platform", "publish", "pull", "restart", "runtime", "security-opt", "shm-size", "stop-signal",
	"stop-timeout", "storage-opt", "sysctl", "tmpfs", "ulimit", "user", "userns", "uts", "volume",
	"volumes-from", "workdir", "service-ports", "project-name",
}

// sinkKubectl follows kubectl exec POD -- CMD….
func sinkKubectl(fr *frame, c *Command, args []arg) {
	i := 1
	for i < len(args) && args[i].Value != "exec" {
		i++
	}
	if i >= len(args) {
		return
	}
	pod := ""
	for j := i + 1; j < len(args); j++ {
		v := args[j].Value
		switch {
		case v == "--":
			if j+1 < len(args) {
				fr.runNested(c, args[j+1:], "kubectl exec", func(f *frame) {
					f.remote = "kubectl:" + pod
					f.ctx |= InRemote
					f.st = &state{}
				})
			}
			return
		case v == "-c" || v == "-n" || v == "--container" || v == "--namespace" || v == "--context" || v == "-f" || v == "--kubeconfig" || v == "--pod-running-timeout":
			j++
		case strings.HasPrefix(v, "-"):
		case pod == "":
			pod = v
		}
	}
}

// sinkTmux follows the shell commands tmux runs: the keys typed by
// send-keys (when they end with Enter), and the command of new-session,
// new-window, split-window, respawn-pane and run-shell.
func sinkTmux(fr *frame, c *Command, args []arg) {
	_, i := parseOpts(args, 1, OptSpec{Short: "cfLST"})
	if i >= len(args) {
		return
	}
	sub := args[i].Value
	switch sub {
	case "send-keys", "send":
		opts, j := parseOpts(args, i+1, OptSpec{Short: "tN"})
		literal := has(opts, "l")
		var typed []arg
		entered := false
		for _, k := range args[j:] {
			switch k.Value {
			case "Enter", "C-m", "KPEnter", "C-j":
				entered = true
				continue
			}
			if !literal && isTmuxKeyName(k.Value) {
				continue
			}
			typed = append(typed, k)
		}
		if entered && len(typed) > 0 {
			fr.tmuxNest(c, typed, "tmux send-keys")
		}
	case "new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp", "respawn-window", "respawnw":
		_, j := parseOpts(args, i+1, OptSpec{Short: "cefFlnstxyb"})
		if j < len(args) {
			fr.tmuxNest(c, args[j:], "tmux "+sub)
		}
	case "run-shell", "run":
		_, j := parseOpts(args, i+1, OptSpec{Short: "dtc"})
		if j < len(args) {
			fr.tmuxNest(c, args[j:], "tmux run-shell")
		}
	}
}

func (fr *frame) tmuxNest(c *Command, ws []arg, via string) {
	// A local shell of the user's, in a directory that is not known.
	st := fr.childState(c)
	st.dir = ""
	st.args, st.argsKnown = []string{"sh"}, true
	fr.nest(nesting{sink: c, via: via, text: joinValues(ws), pos: fr.argsPos(ws, c), kind: DynShellArg, feeders: feedersOf(ws), st: st})
}

// isTmuxKeyName reports whether a send-keys word names a key (C-c, Escape).
func isTmuxKeyName(s string) bool {
	switch s {
	case "Escape", "Tab", "BSpace", "Space", "Up", "Down", "Left", "Right", "Home", "End", "PageUp", "PageDown", "BTab", "DC", "IC":
		return true
	}
	return len(s) == 3 && (strings.HasPrefix(s, "C-") || strings.HasPrefix(s, "M-") || strings.HasPrefix(s, "S-"))
}

var screenKeys = strings.NewReplacer(`\n`, "\n", `\r`, "\r", "^M", "\r", "^J", "\n", `\015`, "\r", `\012`, "\n")

// sinkScreen follows screen [options] CMD… (argv) and screen -X stuff TEXT
// (typed into a window: runs when it ends with a newline).
func sinkScreen(fr *frame, c *Command, args []arg) {
	opts, i := parseOpts(args, 1, OptSpec{Short: "SceHhpTtX", Long: []string{"Logfile"}})
	if x := optVal(opts, "X"); x != nil {
		if x.Value == "stuff" && i < len(args) {
			// screen reads \n, \r, ^M and octal \012/\015 in the text as
			// the keys: a line that ends with one runs.
			text := screenKeys.Replace(args[i].Value)
			if strings.ContainsAny(text, "\n\r") {
				fr.tmuxNest(c, []arg{valueArg(args[i], text)}, "screen -X stuff")
			}
		}
		return
	}
	if has(opts, "r", "R", "x", "ls", "list", "wipe", "v", "version") || i >= len(args) {
		return
	}
	fr.runNested(c, args[i:], "screen", nil)
}
