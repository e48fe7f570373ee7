// Package buildinfo reports how the running guard-exec was built, for
// guard-exec doctor and version.
//
// A default `go build` links the cgo runtime whenever a C compiler is
// around: pflag imports net and the shell parser's expand package imports
// os/user, both of which have cgo variants. The program is then linked
// dynamically, and every guarded command pays for the dynamic loader and
// the C runtime's start: about 1 ms more CPU per `guard-exec -c true` than
// a static build (README, Performance). CGO_ENABLED=0, or -tags
// netgo,osusergo, builds it static.
package buildinfo

import (
	"runtime/debug"
	"strings"
	_ "unsafe" // for go:linkname
)

// iscgo is set by runtime/cgo's initialisation when that package is linked
// in; the runtime exports it for linkname (go.dev/issue/67401).
//
//go:linkname iscgo runtime.iscgo
var iscgo bool

// CgoLinked reports whether the running program links the cgo runtime:
// exactly whether runtime/cgo is in it, whatever the build settings say
// (with CGO_ENABLED=1 and -tags netgo,osusergo it is not).
func CgoLinked() bool { return iscgo }

// Setting returns the value of a build setting of the running program
// (CGO_ENABLED, -tags, -trimpath, vcs.revision, …), or "".
func Setting(key string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, s := range bi.Settings {
		if s.Key == key {
			return s.Value
		}
	}
	return ""
}

// CgoAdvice is what doctor says about a cgo build: "" for a static one.
func CgoAdvice() string {
	if !CgoLinked() {
		return ""
	}
	how := "CGO_ENABLED=0 go install ./cmd/guard-exec"
	if tags := Setting("-tags"); tags != "" && !strings.Contains(tags, "netgo") {
		how = "CGO_ENABLED=0 go install -tags " + tags + " ./cmd/guard-exec"
	}
	return "this guard-exec links the C runtime (built with cgo), which costs every command about 1 ms more; rebuild it static: " + how
}
