package policy

import (
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

var gitPushSpec = OptSpec{Short: "o", Long: []string{"repo", "receive-pack", "exec", "push-option", "signed"}}

var gitRules = []*Rule{
	{
		ID: "git-force-push", Family: "git", Severity: Hold,
		Message:  "force push rewrites the remote branch and can destroy other people's commits",
		Hint:     "use git push --force-with-lease, or push to a new branch",
		Programs: []string{"git"},
		Command:  gitCommand("push", forcePush, gitPushSpec),
		Raw:      `\bgit\b[^|;&\n]*\bpush\b[^|;&\n]*(\s--force(=|\s|$)|\s-[a-zA-Z]*f|\s\+\S)`,
		Examples: []string{
			"git push --force origin main",
			"git push -f",
			"git push origin +main",
			"git -C repo -c core.x=y --no-pager push -uf origin main",
			`git push --for"ce"`,
			"git push origin main --force",
			"git push --mirror --force",
			"g''it push -f",
		},
		NotExamples: []string{
			"git push --force-with-lease origin main",
			"git push --force-if-includes --force-with-lease",
			"git push origin main",
			`git commit -m "git push --force"`,
			"echo git push -f",
		},
	},
}

// forcePush recognises the spellings of a forced push: --force (and its
// abbreviations), -f in a cluster, and a +refspec.
func forcePush(_ *Ctx, a *Args) bool {
	if a.Short("f") || a.Long("force") {
		return true
	}
	for _, op := range a.Operands {
		if strings.HasPrefix(op.Value, "+") || strings.Contains(op.Value, ":+") {
			return true
		}
	}
	return false
}

var _ = parse.Unknown
