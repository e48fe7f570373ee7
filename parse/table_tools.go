package parse

// Rows of tools policy judges by their verb or by a help flag: the
// history rewriters, direnv, which trusts an .envrc (direnv allow), and
// launchctl, which loads a service.

var toolRows = []Program{
	{Name: "git-filter-repo", Also: []string{"bfg"}, Args: "*:data", Flags: "!info:-h|--help|--version",
		Hold: []string{`git-filter-repo --path secrets --invert-paths`}, Allow: []string{`git-filter-repo --help`}},
	{Name: "direnv", Args: "*:data"},
	// Node's recursive deletes: every operand goes, with all below it.
	{Name: "rimraf", Also: []string{"del-cli"}, Args: "*:deleted:tree",
		Hold: []string{`rimraf ~`, `npx rimraf /home/dev`}, Allow: []string{`rimraf dist`, `npx rimraf node_modules build`}},
	{Name: "launchctl", Args: "*:data"},
}
