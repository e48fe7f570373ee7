package policy

import "github.com/guard-exec/guard-exec/parse"

// privileged are the programs that run a command as another user.
var privileged = []string{"sudo", "su", "doas", "pkexec", "run0", "sudo-rs"}

var privilegeRules = []*Rule{
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
