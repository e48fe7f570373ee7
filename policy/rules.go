package policy

// Builtin returns the built-in rule set, in the order `guard-exec rules`
// lists it. Each family lives in its own file as a table.
func Builtin() []*Rule {
	var all []*Rule
	for _, family := range [][]*Rule{
		gitRules,
		filesystemRules,
		systemRules,
		remoteRules,
		dbRules,
		publishRules,
		infraRules,
		privilegeRules,
		dynamicRules,
		boundaryRules,
		credentialRules,
		selfRules,
		analysisRules,
		loopRules,
	} {
		all = append(all, family...)
	}
	return all
}
