#!/usr/bin/env bash
# bench.sh measures guard-exec against bare bash and prints SPEC §8's figures
# side by side with their targets: start-up over bash and over the floor (a Go
# program that only starts bash and waits), and a plain `go build` beside the
# static one, and the floor built with guard-exec's packages linked in
# (scripts/floor/deps.go); the fresh process split into stages (start-up and package init,
# config, analysis, context, decision, ledger, run, exit) against the floor's,
# from GUARD_EXEC_TRACE_FD; git status, check per process and
# in-process, batch throughput, pipe and pty throughput, the cost of a big
# ledger, peak RSS, and what the kernel sandbox adds (--sandbox=write and
# strict against off).
#
#   scripts/bench.sh            # a few minutes
#   scripts/bench.sh -quick     # about a minute, smaller streams, fewer rounds
#   scripts/bench.sh -full      # more rounds, 500 MiB streams everywhere
#   scripts/bench.sh -only startup,pipe -rounds 300
#
# Needs Go, bash and git. Everything is built with CGO_ENABLED=0, as the
# install line in the README says; the start-up section also times a plain
# `go build` (the toolchain's default cgo setting), which links the C
# runtime dynamically when a C compiler is installed, beside it.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(mktemp -d "${TMPDIR:-/tmp}/guard-exec-bench-bin.XXXXXX")
trap 'rm -rf "$bin"' EXIT
export CGO_ENABLED=0
cd "$root"
go build -o "$bin/guard-exec" ./cmd/guard-exec
env -u CGO_ENABLED go build -o "$bin/guard-exec-plain" ./cmd/guard-exec
go build -o "$bin/floor" ./scripts/floor
go build -tags floordeps -o "$bin/floor-deps" ./scripts/floor
go build -o "$bin/benchdriver" ./scripts/benchdriver
go test -c -o "$bin/cmd.test" ./cmd/guard-exec
# A program file the linker has just written runs measurably slower than
# a copy of it (0.3-0.7 ms more a fresh process, two copies of one build
# timed against each other): every program timed is a copy, the -compare
# one too, so that both sides of a comparison start alike.
fresh() { cp "$1" "$1.copy" && mv "$1.copy" "$1"; }
for f in guard-exec guard-exec-plain floor floor-deps; do fresh "$bin/$f"; done
args=()
while [ $# -gt 0 ]; do
	case $1 in
	-compare | --compare)
		cp "$2" "$bin/compare"
		args+=("$1" "$bin/compare")
		shift 2
		;;
	-compare=* | --compare=*)
		cp "${1#*=}" "$bin/compare"
		args+=("${1%%=*}=$bin/compare")
		shift
		;;
	*)
		args+=("$1")
		shift
		;;
	esac
done
"$bin/benchdriver" -guard "$bin/guard-exec" -plain "$bin/guard-exec-plain" -floor "$bin/floor" -floordeps "$bin/floor-deps" -cmdtest "$bin/cmd.test" -root "$root" ${args[@]+"${args[@]}"}
