package main

import (
	"context"
	"fmt"
	"runtime/debug"
)

// version is set at build time with -ldflags "-X main.version=…"; a plain
// build reports the module version, or "devel".
var version = ""

func runVersion(_ context.Context, g *guard, _ []string) error {
	fmt.Fprintf(g.st.out, "guard-exec %s\n", guardVersion())
	return nil
}

// moduleVersion is the module version the build recorded, or "devel".
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

const usage = `guard-exec stands in for the shell of coding agents: it checks each command
line before bash runs it, and records what ran.

Usage:
  guard-exec -c 'COMMAND' [ARG0 ARGS...]   run a command line, guarded (bash options accepted)
  guard-exec SCRIPT [ARGS...]              run a script file, guarded as a whole
  guard-exec -- PROGRAM [ARGS...]          run one program, guarded, without a shell
  guard-exec check [--json] [--cwd DIR] -c 'COMMAND'
  guard-exec check --batch                 JSON Lines in, one decision per line out
  guard-exec explain [--json] -c 'COMMAND' what the analysis sees, and why
  guard-exec rules [--json]                the rules in effect
  guard-exec approve ev-N                  a person at a terminal lets a held command run once
  guard-exec config show|init|check        the configuration in effect, a commented template, validation
  guard-exec shim install|uninstall|status [--dir DIR]
                                           bash and sh links to guard-exec, for PATH
  guard-exec hook claude|gemini            answer an agent's pre-tool hook (JSON on stdin)
  guard-exec doctor [--dir DIR]            check the setup with a live must-hold probe
  guard-exec log [-n N] [--json|--format otlp] [--session S] [--failed] [--blocked] [--verify]
  guard-exec ship [--endpoint URL]         send unshipped records to an OpenTelemetry collector
  guard-exec show [--replay] ev-N          everything about one command
  guard-exec stats [--json]                counts by verdict and rule, failing commands
  guard-exec loops                         this session's failing streaks
  guard-exec version

Own options, before the shell's: --pty=auto|always|never, --mode=enforce|advise|audit,
--timeout=DURATION, --ci (never ask at a terminal).

Exit status: the command's own; 126 when guard-exec held or denied it; 125 when
guard-exec itself failed.
`

func runHelp(_ context.Context, g *guard, _ []string) error {
	fmt.Fprint(g.st.out, usage)
	return nil
}
