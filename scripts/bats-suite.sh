#!/usr/bin/env bash
# Runs bats-core's own test suite twice, with bash and through guard-exec's
# PATH shim in enforce mode, and fails when the shim passes fewer tests or
# holds any command. The suite is not downloaded: give the directory of a
# bats-core source tree (a release's tag, e.g. v1.8.2, the version Debian 12
# ships), which holds bin/bats and test/.
#
#   scripts/bats-suite.sh /path/to/bats-core        # ~100 s per run on two cores
set -euo pipefail
src=${1:?usage: scripts/bats-suite.sh BATS_CORE_SOURCE_DIR}
[[ -x $src/bin/bats && -d $src/test ]] || { echo "no bats-core source tree in $src" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/guard-exec" "$root/cmd/guard-exec"
mkdir "$work/shim"
ln -s "$work/guard-exec" "$work/shim/bash"
ln -s "$work/guard-exec" "$work/shim/sh"

count() { grep -c '^ok' "$1" || true; }

(cd "$src" && bin/bats test >"$work/bash.tap" 2>&1) || true
(cd "$src" && GUARD_EXEC_LEDGER_DIR="$work/ledger" PATH="$work/shim:$PATH" bin/bats test >"$work/shim.tap" 2>&1) || true
with_bash=$(count "$work/bash.tap")
with_shim=$(count "$work/shim.tap")
# The ledger rotates (ledger.jsonl, then ledger.1.jsonl, …): count every segment.
held=$(cat "$work"/ledger/ledger*.jsonl 2>/dev/null | grep -c '"kind":"decision"' || true)
echo "bats-core suite: $with_bash tests pass with bash, $with_shim through the shim; ${held:-0} commands held"
if [[ $with_shim -lt $with_bash || ${held:-0} -gt 0 ]]; then
	grep '^not ok' "$work/shim.tap" | head -20 >&2 || true
	cat "$work"/ledger/ledger*.jsonl 2>/dev/null | grep '"kind":"decision"' | grep -o '"rules":\[{"id":"[^"]*"' | sort | uniq -c | sort -rn | head >&2 || true
	exit 1
fi
