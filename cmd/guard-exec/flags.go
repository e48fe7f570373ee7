package main

import (
	"strings"
	"time"

	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/shim"
)

// ownFlags takes guard-exec's own options off the front of a shell-style
// command line (`guard-exec --pty=always -c CMD`). They are long options
// bash does not have, so they cannot be confused with the shell's; once a
// bash option or operand appears the rest belongs to the shell grammar.
func (g *guard) ownFlags(args []string) ([]string, error) {
	for len(args) > 0 {
		name, val, hasVal := strings.Cut(args[0], "=")
		if !isOwnFlag(name) {
			return args, nil
		}
		args = args[1:]
		switch name {
		case "--ci":
			g.ci = true
			continue
		case "--strict":
			g.strict = true
			continue
		}
		if !hasVal {
			if len(args) == 0 {
				return nil, usagef("%s needs a value", name)
			}
			val, args = args[0], args[1:]
		}
		if err := g.setOwnFlag(name, val); err != nil {
			return nil, err
		}
	}
	return args, nil
}

// ownFlagNames are the options --help lists, for suggestions.
var ownFlagNames = []string{"pty", "mode", "timeout", "ci", "strict", "help", "version"}

func isOwnFlag(name string) bool {
	switch name {
	case "--pty", "--mode", "--timeout", "--ci", "--strict":
		return true
	}
	return false
}

func (g *guard) setOwnFlag(name, val string) error {
	switch name {
	case "--pty":
		m, err := parsePTY(val)
		if err != nil {
			return err
		}
		g.pty = m
	case "--mode":
		m, err := policy.ParseMode(val)
		if err != nil {
			return usagef("--mode: %v", err)
		}
		g.mode = &m
	case "--timeout":
		d, err := time.ParseDuration(val)
		if err != nil || d < 0 {
			return usagef("--timeout: want a duration such as 90s or 10m, got %q", val)
		}
		g.timeout = d
	}
	return nil
}

func parsePTY(v string) (shim.PTYMode, error) {
	switch v {
	case "auto":
		return shim.PTYAuto, nil
	case "always":
		return shim.PTYAlways, nil
	case "never":
		return shim.PTYNever, nil
	}
	return shim.PTYAuto, usagef("--pty: want auto, always or never, got %q", v)
}
