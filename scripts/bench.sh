#!/usr/bin/env bash
# bench.sh measures guard-exec against bare bash and prints SPEC §8's figures
# side by side with their targets: start-up over bash and over the floor (a Go
# program that only starts bash and waits), git status, check per process and
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
# install line in the README says: a cgo build links the C runtime
# dynamically and costs about 1 ms more CPU per command.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(mktemp -d "${TMPDIR:-/tmp}/guard-exec-bench-bin.XXXXXX")
trap 'rm -rf "$bin"' EXIT
export CGO_ENABLED=0
cd "$root"
go build -o "$bin/guard-exec" ./cmd/guard-exec
go build -o "$bin/floor" ./scripts/floor
go build -o "$bin/benchdriver" ./scripts/benchdriver
go test -c -o "$bin/cmd.test" ./cmd/guard-exec
"$bin/benchdriver" -guard "$bin/guard-exec" -floor "$bin/floor" -cmdtest "$bin/cmd.test" -root "$root" "$@"
