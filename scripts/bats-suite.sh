#!/usr/bin/env bash
# Runs bats-core's own test suite twice, with bash and through guard-exec's
# PATH shim in enforce mode, and fails when the shim passes fewer tests or
# holds any command: internal/suites' TestBatsCore, which `go test ./...`
# runs on the release kept as a fixture (v1.8.2). Give the directory of
# another bats-core source tree (one holding bin/bats and test/) to run that
# one instead.
#
#   scripts/bats-suite.sh [/path/to/bats-core]     # a few minutes on two cores
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ $# -gt 0 ]]; then
	src=$(cd "$1" && pwd)
	[[ -x $src/bin/bats && -d $src/test ]] || { echo "no bats-core source tree in $1" >&2; exit 2; }
	export BATS_CORE_DIR=$src
fi
cd "$root"
exec go test -count=1 -timeout 40m -run '^TestBatsCore$' -v ./internal/suites
