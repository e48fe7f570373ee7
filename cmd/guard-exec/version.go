package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/guard-exec/guard-exec/internal/buildinfo"
)

// version and buildDate are set at build time with
// -ldflags "-X main.version=v1.2.3 -X main.buildDate=2026-01-02T03:04:05Z";
// a plain build reports the module version (or "devel") and no build date.
var (
	version   = ""
	buildDate = ""
)

// versionInfo is what `guard-exec version` reports.
type versionInfo struct {
	Version    string `json:"version"`
	Commit     string `json:"commit,omitempty"`
	CommitTime string `json:"commit_time,omitempty"`
	Modified   bool   `json:"modified,omitempty"` // built from a work tree with uncommitted changes
	BuildDate  string `json:"build_date,omitempty"`
	Go         string `json:"go"`
	Platform   string `json:"platform"`
	Static     bool   `json:"static"` // false: links the C runtime (cgo)
}

func readVersion() versionInfo {
	v := versionInfo{Version: version, BuildDate: buildDate, Go: runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH, Static: !buildinfo.CgoLinked()}
	bi, ok := debug.ReadBuildInfo()
	if v.Version == "" {
		v.Version = "devel"
		if ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v.Version = bi.Main.Version
		}
	}
	if ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Commit = s.Value
			case "vcs.time":
				v.CommitTime = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	return v
}

func runVersion(_ context.Context, g *guard, args []string) error {
	fs := g.flags("version")
	asJSON := fs.Bool("json", false, "print the version as one JSON object")
	if err := g.parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("version takes no operands (got %q)", fs.Arg(0))
	}
	v := readVersion()
	if *asJSON {
		return newJSONEncoder(g.st.out).Encode(v)
	}
	w := g.st.out
	fmt.Fprintf(w, "guard-exec %s\n", v.Version)
	commit := "unknown (built without version control information)"
	if v.Commit != "" {
		commit = v.Commit
		if v.CommitTime != "" {
			commit += " (" + v.CommitTime + ")"
		}
		if v.Modified {
			commit += ", with uncommitted changes"
		}
	}
	fmt.Fprintf(w, "commit:     %s\n", commit)
	fmt.Fprintf(w, "built:      %s\n", orDefault(v.BuildDate, "unknown (no -X main.buildDate)"))
	fmt.Fprintf(w, "go:         %s %s\n", v.Go, v.Platform)
	kind := "static (no cgo)"
	if !v.Static {
		kind = "dynamic: links the C runtime (cgo); CGO_ENABLED=0 go install ./cmd/guard-exec builds it static"
	}
	fmt.Fprintf(w, "build:      %s\n", kind)
	return nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
