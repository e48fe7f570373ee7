package policy

import (
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// privileged are the programs that run a command as another user.
var privileged = []string{"sudo", "su", "doas", "pkexec", "run0", "sudo-rs"}

var privilegeRules = []*Rule{
	{
		ID: "container-host-root", Family: "privilege", Severity: Hold,
		Message:  "starts a container with this machine's whole filesystem mounted: inside it, root is root here",
		Hint:     "mount the project directory (-v \"$PWD\":/src) instead of /",
		Command:  containerHostRoot,
		Programs: []string{"docker", "podman", "nerdctl"},
		Raw:      `\b(docker|podman|nerdctl)\b[^|;&\n]*\brun\b[^|;&\n]*\s(-v\s*|--volume[=\s]|--mount[=\s]\S*source=)/(:|,|\s)`,
		Examples: []string{
			"docker run -v /:/host alpine chroot /host",
			"docker run --rm -it --privileged -v /:/mnt ubuntu bash",
			"podman run --mount type=bind,source=/,target=/h alpine sh",
			"docker --log-level debug run -v /:/host alpine chroot /host",
			"docker run -itv /:/host alpine chroot /host",
		},
		NotExamples: []string{"docker run -v \"$PWD\":/src -w /src golang go test ./...", "docker run --rm alpine ls /", "docker run -v /tmp/x:/x alpine ls"},
	},
	{
		ID: "admin-group-grant", Family: "privilege", Severity: Hold,
		Message:  "puts a user in a group that is root in all but name (sudo, wheel, admin, docker …)",
		Hint:     "a change of who may administer this machine is for the user to make",
		Command:  adminGroupGrant,
		Programs: []string{"usermod", "gpasswd", "adduser", "addgroup", "useradd"},
		Raw:      `\b(usermod|useradd)\b[^|;&\n]*-[a-zA-Z]*G\s*\S*\b(sudo|wheel|admin|docker|root)\b|\bgpasswd\b[^|;&\n]*\b(sudo|wheel|admin|docker|root)\b`,
		Examples: []string{
			"usermod -aG sudo dev",
			"sudo usermod -a -G docker,wheel dev",
			"usermod --append --groups=root dev",
			"gpasswd -a dev sudo",
			"adduser dev sudo",
			"useradd -m -G wheel intruder",
		},
		NotExamples: []string{"usermod -aG video dev", "gpasswd -a dev audio", "adduser dev", "usermod -s /bin/zsh dev", "groups dev"},
	},
	{
		ID: "privilege-escalation", Family: "privilege", Severity: Warn,
		Message: "runs with elevated privileges",
		Hint:    "run without sudo where possible; the wrapped command is checked as usual",
		Command: func(_ *Ctx, c *parse.Command) bool {
			for _, p := range privileged {
				if c.Name == p || c.HasWrapper(p) {
					return true
				}
			}
			return false
		},
		Examples: []string{
			"sudo apt-get install -y jq",
			"sudo -u postgres psql -c 'select 1'",
			"sudo -i",
			"su -c 'id'",
			"doas true",
		},
		NotExamples: []string{"echo sudo", "man sudo", "make install"},
	},
}

// adminGroups are the groups whose members can become root: through
// sudo (sudo, wheel, admin), the container daemon (docker, lxd, libvirt,
// podman's), or the disk and shadow files.
var adminGroups = []string{"sudo", "wheel", "admin", "root", "docker", "lxd", "libvirt", "disk", "shadow", "adm", "kvm"}

// adminGroupGrant reports a user put in one of adminGroups: usermod
// -G/-g, useradd -G, gpasswd -a USER GROUP or -M, adduser USER GROUP.
func adminGroupGrant(_ *Ctx, c *parse.Command) bool {
	admin := func(list string) bool {
		for _, g := range strings.Split(list, ",") {
			if contains(adminGroups, strings.TrimSpace(g)) {
				return true
			}
		}
		return false
	}
	var vals []parse.Word
	switch c.Row {
	case "usermod": // and useradd, the same row
		vals = append(c.OptionValues("-G"), c.OptionValues("-g")...)
	case "gpasswd":
		if ops := c.Operands(parse.RoleData); len(ops) > 0 && (len(c.OptionValues("-a")) > 0 || len(c.OptionValues("-M")) > 0) {
			vals = ops[len(ops)-1:]
		}
	case "adduser":
		if ops := c.Operands(parse.RoleData); len(ops) == 2 {
			vals = ops[1:]
		}
		vals = append(vals, c.OptionValues("--ingroup")...)
	}
	for _, v := range vals {
		if admin(v.Value) || v.Dynamic {
			return true
		}
	}
	return false
}

// containerHostRoot reports a docker or podman run that bind-mounts the
// host's root directory.
func containerHostRoot(_ *Ctx, c *parse.Command) bool {
	ms, ok := runMountsOf(c, true)
	if !ok {
		return false
	}
	for _, m := range ms {
		if m.source == "/" {
			return true
		}
	}
	return false
}
