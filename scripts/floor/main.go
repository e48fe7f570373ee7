// Command floor is the cheapest Go program that stands in for a shell: it
// finds bash on PATH, starts it with its own arguments and the caller's
// stdio, waits, and exits with its status. Nothing else. scripts/bench.sh
// measures guard-exec against it: the difference is what guard-exec's own
// work (analysis, rules, ledger) costs per command, separated from the cost
// every Go interposer pays to start a runtime and a child.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	bash, err := exec.LookPath("bash")
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(125)
	}
	c := exec.Command(bash, os.Args[1:]...)
	c.Args[0] = "bash"
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = c.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		os.Exit(0)
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			os.Exit(128 + int(ws.Signal()))
		}
		os.Exit(ee.ExitCode())
	}
	fmt.Fprintln(os.Stderr, "floor:", err)
	os.Exit(125)
}
