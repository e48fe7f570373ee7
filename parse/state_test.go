package parse

import (
	"maps"
	"testing"

	"mvdan.cc/sh/v3/expand"
)

// TestExportedShortcut checks that exported, which hands out the base
// environment itself when nothing changes it, gives what building it
// afresh gives: assignments equal and unequal to the environment,
// exported and not, unset, unknown, and PWD.
func TestExportedShortcut(t *testing.T) {
	base := map[string]string{"HOME": "/home/dev", "PWD": "/p", "A": "1"}
	set := func(v string, exported bool) *variable {
		return &variable{known: true, v: expand.Variable{Set: true, Kind: expand.String, Str: v}, exported: exported}
	}
	for name, st := range map[string]*state{
		"nothing":            {base: base, baseKnown: true, dir: "/p"},
		"no dir":             {base: base, baseKnown: true},
		"other dir":          {base: base, baseKnown: true, dir: "/q"},
		"same value":         {base: base, baseKnown: true, dir: "/p", vars: map[string]*variable{"A": set("1", true)}},
		"new value":          {base: base, baseKnown: true, dir: "/p", vars: map[string]*variable{"A": set("2", true)}},
		"new exported":       {base: base, baseKnown: true, dir: "/p", vars: map[string]*variable{"B": set("2", true)}},
		"local":              {base: base, baseKnown: true, dir: "/p", vars: map[string]*variable{"B": set("2", false)}},
		"unset":              {base: base, baseKnown: true, dir: "/p", vars: map[string]*variable{"A": {known: true}}},
		"exported, not set":  {base: base, baseKnown: true, dir: "/p", vars: map[string]*variable{"A": {known: true, exported: true}}},
		"exported, new, not": {base: base, baseKnown: true, dir: "/p", vars: map[string]*variable{"C": {known: true, exported: true}}},
		"unknown":            {base: base, baseKnown: true, dir: "/p", vars: map[string]*variable{"A": {exported: true}}},
		"unknown base":       {base: base, baseKnown: false, dir: "/p"},
		"no base":            {dir: "/p"},
		"poisoned":           {base: base, baseKnown: true, poisoned: true},
	} {
		got, gotKnown := st.exported()
		want, wantKnown := st.buildExported()
		if !maps.Equal(got, want) || gotKnown != wantKnown {
			t.Errorf("%s: exported %v %v, want %v %v", name, got, gotKnown, want, wantKnown)
		}
	}
	if len(base) != 3 || base["PWD"] != "/p" || base["A"] != "1" {
		t.Errorf("the base environment was changed: %v", base)
	}
}
