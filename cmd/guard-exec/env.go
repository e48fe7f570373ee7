package main

import (
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// envParent carries the id of a guarded command into its environment, so
// a guard started inside it (a nested shim) records its parent.
const envParent = "GUARD_EXEC_PARENT"

// envCode reports whether a variable makes bash run code that no analysis
// of the command line can see: BASH_ENV and ENV name startup files, and
// BASH_FUNC_name%% (or the older BASH_FUNC_name()) import functions that
// can shadow any command.
func envCode(name string) bool {
	return name == "BASH_ENV" || name == "ENV" || strings.HasPrefix(name, "BASH_FUNC_")
}

// envCodeNames lists the variables envCode removes, for the ledger.
func envCodeNames(env []string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if envCode(k) {
			out = append(out, k)
		}
	}
	return out
}

// childEnv is the environment the command runs with: the caller's, minus
// code bash would take from it, with the parent id set for nested guards.
func (g *guard) childEnv(_ *parse.Analysis, id string) []string {
	out := make([]string, 0, len(g.env)+1)
	for _, kv := range g.env {
		k, _, _ := strings.Cut(kv, "=")
		if envCode(k) || k == envParent {
			continue
		}
		out = append(out, kv)
	}
	if id != "" {
		out = append(out, envParent+"="+id)
	}
	return out
}
