package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// runArgv is `guard-exec -- PROG ARGS…`: the argv is judged as one simple
// command (a shell argv such as bash -c S is judged through S) and run
// directly, with no shell in between.
func runArgv(ctx context.Context, g *guard, argv []string) error {
	if len(argv) == 0 {
		return usagef("-- needs a program to run")
	}
	dir := g.workdir()
	a := g.analyzeArgvSourced(argv, parse.Options{Env: g.vars, Dir: dir})
	path, err := lookPath(argv[0], g.vars["PATH"])
	if errors.Is(err, fs.ErrPermission) {
		// bash's words and status for a file it may not execute
		fmt.Fprintf(g.st.err, "guard-exec: %s: Permission denied\n", argv[0])
		return status(exitBlocked)
	}
	if err != nil {
		fmt.Fprintf(g.st.err, "guard-exec: %s: command not found\n", argv[0])
		return status(exitNotFound)
	}
	return g.execute(ctx, &job{
		script: strings.Join(quoteAll(argv), " "), dir: dir,
		path: path, argv: argv, analysis: a,
	})
}

// lookPath finds a program on the caller's PATH (not the guard's own, which
// may differ when the caller passed a modified environment).
func lookPath(name, path string) (string, error) {
	if strings.Contains(name, "/") {
		return exec.LookPath(name)
	}
	var denied error // a file by that name that may not be executed, as bash remembers one
	for _, dir := range strings.Split(path, ":") {
		if dir == "" {
			dir = "."
		}
		p, err := exec.LookPath(dir + "/" + name)
		if err == nil {
			return p, nil
		}
		if denied == nil && errors.Is(err, fs.ErrPermission) {
			denied = err
		}
	}
	if denied != nil {
		return "", denied
	}
	return "", exec.ErrNotFound
}

func quoteAll(argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		q, err := quote(a)
		if err != nil {
			q = a
		}
		out[i] = q
	}
	return out
}
