//go:build floordeps

package main

// Built with -tags floordeps, the floor links and initialises every
// package guard-exec's main package imports and does nothing more with
// them: scripts/bench.sh times it beside the plain floor and guard-exec,
// which splits what guard-exec adds into the price of being the larger
// program (its packages and their dependencies loaded, mapped and
// initialised) and the work it does per command. deps_test.go keeps the
// list equal to cmd/guard-exec's imports.
import (
	_ "github.com/guard-exec/guard-exec/internal/buildinfo"
	_ "github.com/guard-exec/guard-exec/internal/jsonstr"
	_ "github.com/guard-exec/guard-exec/internal/otlp"
	_ "github.com/guard-exec/guard-exec/internal/paths"
	_ "github.com/guard-exec/guard-exec/internal/project"
	_ "github.com/guard-exec/guard-exec/internal/rawread"
	_ "github.com/guard-exec/guard-exec/internal/redact"
	_ "github.com/guard-exec/guard-exec/internal/sandbox"
	_ "github.com/guard-exec/guard-exec/internal/tzdefer"
	_ "github.com/guard-exec/guard-exec/internal/worktree"
	_ "github.com/guard-exec/guard-exec/ledger"
	_ "github.com/guard-exec/guard-exec/parse"
	_ "github.com/guard-exec/guard-exec/policy"
	_ "github.com/guard-exec/guard-exec/shim"
	_ "github.com/spf13/pflag"
	_ "golang.org/x/sys/unix"
	_ "golang.org/x/term"
	_ "mvdan.cc/sh/v3/syntax"
)
