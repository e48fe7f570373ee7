#!/usr/bin/env bash
# Runs bats-core's own test suite three ways, with bash, through guard-exec's
# PATH shim in enforce mode, and the same under the kernel sandbox, and
# fails when the shim fails a test bash passes or holds a command, beyond
# the lists of known ones: internal/suites' TestBatsCore, on the release
# kept as a fixture (v1.8.2). Give the directory of another bats-core source
# tree (one holding bin/bats and test/) to run that one instead.
# GUARD_EXEC_BATS_PASSES=shim runs only the shim's pass, as .ci/run does.
#
#   scripts/bats-suite.sh [/path/to/bats-core]     # about six minutes on two cores
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ $# -gt 0 ]]; then
	src=$(cd "$1" && pwd)
	[[ -x $src/bin/bats && -d $src/test ]] || { echo "no bats-core source tree in $1" >&2; exit 2; }
	export BATS_CORE_DIR=$src
fi
cd "$root"
export GUARD_EXEC_SUITES=1
exec go test -count=1 -timeout 40m -run '^TestBatsCore$' -v ./internal/suites
