// Package parse turns shell source into facts: every command that would run,
// with its program resolved the way bash resolves it, its words marked
// literal or dynamic, its redirections, working directory and input, the
// nested scripts it runs (analysed recursively) and the places where code
// runs that cannot be known statically.
//
// The package parses with mvdan.cc/sh/v3/syntax and expands words with
// mvdan.cc/sh/v3/expand under a configuration that can never run anything.
// It knows nothing of risk: that is package policy's job. It performs no
// I/O beyond what the caller injects.
package parse
