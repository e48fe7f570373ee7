package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/guard-exec/guard-exec/internal/sandbox"
	"github.com/guard-exec/guard-exec/policy"
)

// sandboxReport is what explain and doctor say about the kernel sandbox
// on this machine: whether it is on, what it would bound, what it cannot.
type sandboxReport struct {
	Mode      string   `json:"mode"`         // off, write, strict
	ABI       int      `json:"landlock_abi"` // 0: no Landlock
	Mechanism string   `json:"mechanism"`    // landlock, seatbelt; "": none here
	InForce   bool     `json:"in_force"`     // commands run under it
	Inherited bool     `json:"inherited"`    // inside another command's sandbox
	Protect   string   `json:"protect"`      // mount-namespace, journal
	Network   string   `json:"network"`      // strict only: what is cut off
	Roots     []string `json:"roots"`        // write roots, when in force
	Protected []string `json:"protected"`    // read-only even inside them
	Gaps      []string `json:"not_covered"`  // what it does not bound
	Problem   string   `json:"problem,omitempty"`
}

var sandboxGaps = []string{
	"writes a process outside the sandbox makes for the command (the Docker daemon through its socket, a systemd service, a running editor or language server)",
	"the agent's own file tools (edit, write): they never pass through guard-exec",
	"reads: credential stores stay readable (strict takes the network away instead)",
	"chmod, chown and timestamps of files outside the roots (Landlock does not control them)",
	"signals to other processes",
	"hooks (guard-exec hook claude|gemini) cannot sandbox what the agent runs afterwards: make guard-exec the agent's shell (CLAUDE_CODE_SHELL, SHELL, the PATH shim) for a sandboxed setup",
	"no_new_privs: sudo, su and other setuid programs cannot raise privileges inside the sandbox; root commands lose CAP_SYS_PTRACE",
}

func (g *guard) sandboxReport(dir string) *sandboxReport {
	r := &sandboxReport{Mode: g.sandboxMode().String(), ABI: sandbox.ABI(), Mechanism: sandbox.Mechanism(), Gaps: sandboxGaps}
	if m, ok := g.inSandbox(); ok {
		r.Mode, r.InForce, r.Inherited = m.String(), true, true
		return r
	}
	if r.Mode == "off" {
		return r
	}
	if r.Mechanism == "" {
		if g.config().Sandbox.Required {
			r.Problem = sandboxMissing + ": every command is held (sandbox-unavailable)"
		} else {
			r.Problem = sandboxMissing + ": commands run unsandboxed (required = false)"
		}
		return r
	}
	r.InForce = true
	if sb := g.sandboxFor(dir); sb != nil && sb.spec != nil {
		r.Roots, r.Protected = sb.spec.WriteRoots, sb.spec.Protected
	}
	r.Protect = "mount-namespace"
	if r.Mechanism == "seatbelt" {
		r.Protect = "seatbelt"
		if g.sandboxMode() == policy.SandboxStrict {
			r.Network = "all network denied by Seatbelt: TCP, UDP, ICMP and unix sockets"
		}
		return r
	}
	if !sandbox.CanMountNS() {
		r.Protect = "journal"
	}
	if g.sandboxMode() == policy.SandboxStrict {
		r.Network = strictNetwork(r.ABI)
	}
	return r
}

// strictNetwork says what strict mode cuts off here.
func strictNetwork(abi int) string {
	tcp := "TCP connect and bind denied by Landlock"
	if abi < 4 {
		tcp = "TCP not restricted (Landlock ABI < 4)"
	}
	if sandbox.CanMountNS() { // the same capability makes the network namespace
		return tcp + "; a network namespace of its own with no interface up (no UDP, ICMP or abstract sockets either)"
	}
	return tcp + "; UDP, MPTCP, ICMP and abstract unix sockets NOT stopped (no network namespace without CAP_SYS_ADMIN)"
}

// mechanismName is what print says the boundary is: "Landlock ABI N" as
// before, "Seatbelt" on macOS.
func (r *sandboxReport) mechanismName() string {
	switch r.Mechanism {
	case "seatbelt":
		return "Seatbelt"
	case "":
		return "no kernel sandbox"
	}
	return fmt.Sprintf("Landlock ABI %d", r.ABI)
}

func (r *sandboxReport) print(w io.Writer) {
	switch {
	case r.Inherited:
		fmt.Fprintf(w, "sandbox %s (inherited from the command that started this guard)\n", r.Mode)
	case r.Problem != "":
		fmt.Fprintf(w, "sandbox %s: %s\n", r.Mode, r.Problem)
	case !r.InForce:
		fmt.Fprintf(w, "sandbox off (%s here; [sandbox] mode = \"write\" bounds what commands change)\n", r.mechanismName())
	default:
		fmt.Fprintf(w, "sandbox %s (%s): writes only inside %s\n", r.Mode, r.mechanismName(), strings.Join(r.Roots, ", "))
		fmt.Fprintf(w, "  protected (%s): %s\n", r.Protect, strings.Join(r.Protected, ", "))
		if r.Network != "" {
			fmt.Fprintf(w, "  network: %s\n", r.Network)
		}
	}
}

// sandboxSection is doctor's part: Landlock, the mode and what it means
// here, and a live probe that the kernel really refuses a write.
func (dr *doctor) sandbox() {
	dr.section("kernel sandbox")
	g := dr.g
	r := g.sandboxReport(g.workdir())
	switch v := r.ABI; {
	case v > 0:
		dr.info("Landlock available, ABI version %d", v)
	case r.Mechanism == "seatbelt":
		dr.info("Seatbelt available (sandbox-exec): commands run under a generated profile")
	case runtime.GOOS == "linux":
		dr.info("Landlock not available (Linux 5.13+ with Landlock enabled at boot is needed)")
	default:
		dr.info("no kernel sandbox on %s (guard-exec uses Landlock on Linux, Seatbelt on macOS)", runtime.GOOS)
	}
	dr.info("sandbox mechanism in force: %s", mechanismInForce(r))
	switch {
	case r.Inherited:
		dr.ok("this guard runs inside a sandboxed command (%s)", r.Mode)
	case r.Problem != "":
		dr.bad("[sandbox] mode = %q: %s", r.Mode, r.Problem)
	case !r.InForce && r.Mechanism != "":
		dr.info("sandbox off; recommended: [sandbox] mode = \"write\" in %s (supported here: writes outside the project, temp dirs and caches fail; git hooks, git config, the ledger and agent settings cannot be changed by commands)",
			tildeOf(userConfigFile(g), g.vars["HOME"]))
	case !r.InForce:
		dr.info("sandbox off (not supported by this kernel)")
	default:
		dr.ok("sandbox %s: commands write only inside %d roots", r.Mode, len(r.Roots))
		if r.Protect == "seatbelt" {
			dr.ok("protected paths are denied by name in the Seatbelt profile, also where they do not exist yet; credential stores are unreadable")
		} else if r.Protect == "mount-namespace" {
			dr.ok("protected paths are read-only binds in each command's own mount namespace")
		} else {
			dr.info("protected paths are journaled and put back after each command (no mount namespace without CAP_SYS_ADMIN); the ledger inside the project is not protected, log --verify detects changes")
		}
		if r.Network != "" {
			dr.info("strict network: %s", r.Network)
		}
	}
	if r.Mechanism != "" && !r.Inherited {
		dr.sandboxProbe()
	}
	for _, l := range r.Gaps {
		fmt.Fprintf(dr.g.st.out, "  -     not bounded: %s\n", l)
	}
}

// mechanismInForce is doctor's one word on the boundary commands get:
// landlock, seatbelt or none.
func mechanismInForce(r *sandboxReport) string {
	if !r.InForce || r.Mechanism == "" {
		return "none"
	}
	return r.Mechanism
}

// sandboxProbe starts a command in the sandbox that writes inside its
// root and outside it, and checks the kernel let only the first happen.
func (dr *doctor) sandboxProbe() {
	base, err := os.MkdirTemp("", "guard-exec-doctor-")
	if err != nil {
		dr.info("sandbox probe skipped: %v", err)
		return
	}
	defer os.RemoveAll(base)
	in, out := filepath.Join(base, "in"), filepath.Join(base, "out")
	os.Mkdir(in, 0o700)
	os.Mkdir(out, 0o700)
	c := exec.Command("/bin/sh", "-c", `echo x > "$1/m" && { echo x > "$2/m"; } 2>/dev/null; exit 0`, "sh", in, out)
	if _, err := sandbox.StartCmd(c, &sandbox.Spec{Mode: sandbox.Write, WriteRoots: []string{in}}); err != nil {
		dr.bad("sandbox probe: could not start a sandboxed command: %v", err)
		return
	}
	c.Wait()
	switch {
	case !fileExists(filepath.Join(in, "m")):
		dr.bad("sandbox probe: a write inside the root failed")
	case fileExists(filepath.Join(out, "m")):
		dr.bad("sandbox probe: a write outside the root was NOT refused: the kernel enforces nothing")
	default:
		dr.ok("sandbox probe: a write outside the roots was refused by the kernel, one inside went through")
	}
}

func userConfigFile(g *guard) string {
	if p := policy.UserConfigPath(g.vars["HOME"], g.vars["XDG_CONFIG_HOME"]); p != "" {
		return p
	}
	return "~/.config/guard-exec/config.toml"
}
