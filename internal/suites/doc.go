// Package suites runs test suites that guard-exec's developers did not
// write through guard-exec's PATH shim, and compares them with the same
// suites under plain bash: the shim must be the shell it replaces. They
// take minutes, so `go test ./...` skips them; GUARD_EXEC_SUITES=1 runs
// them, and .ci/run does.
//
// The suites are fixtures, not downloads, kept as archives because their
// trees hold symbolic links and file names (a tab) that a Go module cannot
// carry as files:
//
//   - testdata/bats-core-v1.8.2.tar.gz: bats-core's release v1.8.2 (commit
//     e8c840b5, the version Debian 12 ships; MIT licence, LICENSE.md
//     inside), its bin, libexec, lib and test directories as `git archive
//     v1.8.2` gives them (TestBatsCore).
//   - testdata/bash-5.2-tests.tar.gz: the tests directory of bash-5.2
//     (commit 74091dd4 of the bash repository; GNU GPL version 3 or later,
//     as each file says), as `git archive bash-5.2 tests` gives it
//     (TestBashTests).
package suites
