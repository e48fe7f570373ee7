package main

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// runMan prints guard-exec(1) in roff: the overview and every command's
// help, as --help prints them.
func runMan(ctx context.Context, g *guard, args []string) error {
	fs := g.flags("man")
	if err := g.parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("man takes no operands (got %q)", fs.Arg(0))
	}
	w := g.st.out
	fmt.Fprintf(w, ".TH GUARD-EXEC 1 \"\" \"guard-exec %s\" \"User Commands\"\n", roff(readVersion().Version))
	fmt.Fprint(w, ".SH NAME\nguard-exec \\- a guarded stand-in for the shell of coding agents and CI jobs\n")
	fmt.Fprint(w, ".SH DESCRIPTION\n")
	var b strings.Builder
	printOverview(&b)
	preformatted(w, b.String())
	fmt.Fprint(w, ".SH COMMANDS\n")
	for _, c := range commands {
		fmt.Fprintf(w, ".SS %s\n", roffLine("guard-exec "+c.name))
		var b strings.Builder
		h := newGuard(nil, &stdio{})
		h.helpOut = &b
		_ = h.helpFor(ctx, c, "")
		preformatted(w, b.String())
	}
	fmt.Fprint(w, ".SH SEE ALSO\nbash(1)\n")
	return nil
}

// preformatted writes text as a no-fill block, line for line.
func preformatted(w io.Writer, text string) {
	fmt.Fprint(w, ".nf\n")
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Fprintf(w, "%s\n", roffLine(l))
	}
	fmt.Fprint(w, ".fi\n")
}

// roff escapes text for roff; roffLine also keeps a line that starts with
// a dot or a quote from being read as a request.
func roff(s string) string { return strings.ReplaceAll(s, `\`, `\e`) }

func roffLine(s string) string {
	s = roff(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	if s == "" {
		return ".sp"
	}
	return strings.ReplaceAll(s, "-", `\-`)
}
