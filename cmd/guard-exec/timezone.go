package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/guard-exec/guard-exec/internal/tzdefer"
)

// localZone is the local time zone as package time would find it from
// the caller's TZ (guard-exec's own time.Local is UTC: internal/tzdefer):
// unset, /etc/localtime; empty, UTC; a path (after an optional ":"), that
// file; otherwise a zone name. UTC when it cannot be loaded, as in time.
// Only what shows times to a person (log, show) asks for it.
var localZone = sync.OnceValue(func() *time.Location {
	tz, had := tzdefer.TZ()
	if had && tz == "" {
		return time.UTC
	}
	name := strings.TrimPrefix(tz, ":")
	if !had {
		name = "/etc/localtime"
	}
	if filepath.IsAbs(name) {
		if b, err := os.ReadFile(name); err == nil {
			if loc, err := time.LoadLocationFromTZData("Local", b); err == nil {
				return loc
			}
		}
		return time.UTC
	}
	if loc, err := time.LoadLocation(name); err == nil {
		return loc
	}
	return time.UTC
})
