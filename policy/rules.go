package policy

import "slices"

// Builtin returns the built-in rule set, in the order `guard-exec rules`
// lists it. Each family lives in its own file as a table.
func Builtin() []*Rule { return appendBuiltin(nil, 0) }

// appendBuiltin appends the built-in rules to dst, growing it once, with
// room for extra more (the configured rules that follow them).
func appendBuiltin(dst []*Rule, extra int) []*Rule {
	families := [...][]*Rule{
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
	}
	n := extra
	for _, f := range families {
		n += len(f)
	}
	dst = slices.Grow(dst, n)
	for _, f := range families {
		dst = append(dst, f...)
	}
	return dst
}
