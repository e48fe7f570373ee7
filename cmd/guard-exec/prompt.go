package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"syscall"

	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/shim"
)

// askAtTerminal asks a person once, on /dev/tty, whether a held command may
// run. It asks only when a person is there: stdin and stderr are terminals,
// /dev/tty opens, and --ci was not given. An agent with a pipe for stdin
// never sees the question, so it cannot answer it.
func (g *guard) askAtTerminal(d *policy.Decision) bool {
	if g.ci || !shim.IsTerminal(g.st.in) || !shim.IsTerminal(g.st.err) {
		return false
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer tty.Close()
	h := d.Hits[0]
	fmt.Fprintf(tty, "guard-exec: held: %s: %s (%s)\n", h.Rule.ID, h.Rule.Message, h.Span)
	fmt.Fprintf(tty, "guard-exec: hint: %s\n", h.Rule.Hint)
	fmt.Fprint(tty, "guard-exec: run it anyway? [y/N] ")
	line, _ := bufio.NewReader(tty).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	g.answeredNo = true
	return false
}

// tellTerminal writes line to the controlling terminal, if there is one:
// a word for the person at it that stays out of the program's stderr.
func (g *guard) tellTerminal(line string) {
	tty, err := os.OpenFile("/dev/tty", os.O_WRONLY|syscall.O_NOCTTY, 0)
	if err != nil {
		return
	}
	defer tty.Close()
	_, _ = tty.WriteString(line)
}
