package policy

import (
	"path/filepath"
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// A container that `docker run IMAGE CMD` (or podman run) starts has the
// image's files, which nothing on this machine loses when they go, plus
// what the run command mounts into it. So a path of a command in such a
// container is judged through the mounts: a path under a bind mount is
// the host path it maps to (-v "$PWD":/app makes /app/node_modules the
// project's node_modules), a path under a named or anonymous volume is
// data the guard cannot see (judged as outside), a path above a mount
// takes the mount's contents with it, and any other path is the
// container's own. The root stays the root. When the mounts cannot be
// known — docker exec into a running container, docker compose run (the
// compose file mounts), --volumes-from, --privileged, a daemon on another
// host (-H, --context, DOCKER_HOST) — paths are judged as another host's
// (remotePlace).

// containerMount is one -v/--volume/--mount of a run command.
type containerMount struct {
	target string // the path in the container, absolute and clean
	// source is the host path of a bind mount, absolute, with Unknown
	// where it is not known; "" for a volume or tmpfs.
	source string
}

// runMounts returns the mounts of the docker/podman run command that
// started the container c runs in, when c came straight from one whose
// mounts are all known.
func (x *Ctx) runMounts(c *parse.Command) ([]containerMount, bool) {
	for i := len(c.Via) - 1; i >= 0; i-- {
		sink := c.Via[i].Sink
		switch sink {
		case "docker run", "podman run":
		case "ssh", "docker exec", "podman exec", "kubectl exec":
			return nil, false // a later hop to another host
		default:
			continue
		}
		prog, _, _ := strings.Cut(sink, " ")
		r := x.commandAt(prog, c.Via[i].Pos, i)
		if r == nil || r.Remote != "" || x.remoteDaemon(r) {
			return nil, false
		}
		return parseRunMounts(r)
	}
	return nil, false
}

// remoteDaemon reports whether the run command talks to a docker daemon
// that may be on another host, whose mounts are that host's paths.
func (x *Ctx) remoteDaemon(r *parse.Command) bool {
	if x.Env["DOCKER_HOST"] != "" || x.Env["DOCKER_CONTEXT"] != "" {
		return true
	}
	for _, as := range r.Assigns {
		if as.Name == "DOCKER_HOST" || as.Name == "DOCKER_CONTEXT" {
			return true
		}
	}
	if x.a != nil {
		for _, as := range x.a.Assignments {
			if as.Export && (as.Name == "DOCKER_HOST" || as.Name == "DOCKER_CONTEXT") {
				return true
			}
		}
	}
	return false
}

// parseRunMounts reads the mounts of `docker [global options] run
// [options] IMAGE …`, as parse gives them (its mount roles and meanings).
func parseRunMounts(r *parse.Command) ([]containerMount, bool) { return runMountsOf(r, false) }

// runMountsOf reads a run command's mounts; with privileged set, a
// --privileged run's mounts are read too (its paths are judged as
// another host's, but what it mounts is still what it mounts).
func runMountsOf(r *parse.Command, privileged bool) ([]containerMount, bool) {
	if !r.Flag("starts-container") || r.Flag("mounts-unknown") || r.Flag("privileged") && !privileged {
		return nil, false // compose, stack, …: mounts this command does not name
	}
	var ms []containerMount
	for _, ra := range r.Roles {
		if ra.Role != parse.RoleData || ra.Lang != "mount" {
			continue
		}
		m, ok := parseMountSpec(strings.TrimPrefix(ra.Opt, "--"), ra.Word.Value, r.Dir)
		if !ok {
			return nil, false
		}
		ms = append(ms, m)
	}
	return ms, true
}

// parseMountSpec reads SRC:DST[:OPTS] (-v) or key=value,… (--mount).
// A source that is an absolute or ./ path is a bind mount of the host;
// any other name is a volume.
func parseMountSpec(kind, spec, dir string) (containerMount, bool) {
	var src, dst string
	bind := false
	if kind == "mount" {
		for _, kv := range strings.Split(spec, ",") {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "type":
				bind = v == "bind"
			case "source", "src":
				src = v
			case "target", "destination", "dst":
				dst = v
			}
		}
	} else {
		parts := strings.Split(spec, ":")
		switch {
		case len(parts) == 1:
			dst = parts[0] // an anonymous volume
		default:
			src, dst = parts[0], parts[1]
			bind = strings.HasPrefix(src, "/") || strings.HasPrefix(src, ".") || strings.HasPrefix(src, parse.Unknown)
		}
	}
	if !strings.HasPrefix(dst, "/") || strings.Contains(dst, parse.Unknown) {
		return containerMount{}, false
	}
	m := containerMount{target: filepath.Clean(dst)}
	if bind {
		if !strings.HasPrefix(src, "/") {
			if strings.HasPrefix(src, parse.Unknown) || dir == "" {
				src = parse.Unknown
			} else {
				src = filepath.Join(dir, src)
			}
		}
		m.source = src
	}
	return m, true
}

// containerPlace judges a path operand of a command in a fresh container.
func (x *Ctx) containerPlace(c *parse.Command, w parse.Word, ms []containerMount) Place {
	if w.Dynamic && w.Known() == "" {
		return PlaceUnknown
	}
	v := w.Value
	if filepath.IsAbs(v) {
		return x.containerPathPlace(c, w, filepath.Clean(v), ms)
	}
	if c.Dir != "" {
		return x.containerPathPlace(c, w, filepath.Join(c.Dir, v), ms)
	}
	// The image's working directory is not known: the path is the
	// container's own, or below any of the mounts.
	worst := PlaceInside
	for _, m := range ms {
		if p := x.containerPathPlace(c, w, filepath.Join(m.target, v), ms); p > worst {
			worst = p
		}
	}
	return worst
}

// containerPathPlace judges an absolute path (with unknown or pattern
// parts) in the container.
func (x *Ctx) containerPathPlace(c *parse.Command, w parse.Word, v string, ms []containerMount) Place {
	// The known directory the path is certainly under.
	base := v
	if i := strings.IndexAny(base, "*?["+parse.Unknown); i >= 0 {
		base = base[:i]
		if j := strings.LastIndexByte(base, '/'); j > 0 {
			base = base[:j]
		} else {
			base = "/"
		}
	}
	base = filepath.Clean(base)
	if base == "/" && (v == "/" || base != v) {
		return PlaceRoot
	}
	worst := PlaceInside
	var under *containerMount
	for i := range ms {
		m := &ms[i]
		switch {
		case within(base, m.target) && (under == nil || len(m.target) > len(under.target)):
			under = m
		case within(m.target, base):
			// The path holds the mount (or may match it): its contents go.
			if p := x.mountSourcePlace(c, w, m.source, true); p > worst {
				worst = p
			}
		}
	}
	if under != nil {
		host := ""
		if under.source != "" {
			host = under.source + strings.TrimPrefix(v, under.target)
			if under.target == "/" {
				host = under.source + v
			}
		}
		if p := x.mountSourcePlace(c, w, host, false); p > worst {
			worst = p
		}
	}
	return worst
}

// mountSourcePlace judges the host side of a mounted path: a volume's
// data is outside, a bind mount's path is judged as a path of this
// machine (the whole of it when whole is set).
func (x *Ctx) mountSourcePlace(c *parse.Command, w parse.Word, host string, whole bool) Place {
	if host == "" {
		return PlaceOutside
	}
	if strings.HasPrefix(host, parse.Unknown) {
		return PlaceUnknown
	}
	if whole {
		k := host
		if i := strings.Index(k, parse.Unknown); i >= 0 {
			return PlaceUnknown
		}
		return x.placeOfPath(filepath.Clean(k), true)
	}
	local := *c
	local.Remote, local.Via, local.Placeholder = "", nil, false
	return x.place(&local, parse.Word{Value: host, Dynamic: w.Dynamic, Glob: w.Glob, Pos: w.Pos})
}
