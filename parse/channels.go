package parse

import (
	"strconv"

	"mvdan.cc/sh/v3/syntax"
)

// Shells fed through a file descriptor: "coproc bash" and
// "exec 3> >(bash)" start a shell whose input is a pipe the script writes
// to later ("echo 'rm -rf ~' >&3", >&"${COPROC[1]}"). The shell is kept
// as a channel; what a later command prints to a descriptor above 2, or
// to one that is not known, is analysed as code that shell runs.

// channelReader reports whether a command runs its standard input as
// shell code: a shell with no -c string and no script file.
func channelReader(c *Command) bool {
	if !shellName(c.Name) {
		return false
	}
	for _, a := range c.Args {
		if a.Value == "-s" || a.Value == "-i" || a.Value == "--" {
			continue
		}
		if len(a.Value) == 0 || a.Value[0] != '-' || a.Value == "-c" || !a.Literal() {
			return false
		}
	}
	return true
}

// addChannels keeps the commands among got that read code from a pipe.
func (fr *frame) addChannels(got []*Command) {
	for _, c := range got {
		if channelReader(c) {
			fr.r.channels = append(fr.r.channels, c)
		}
	}
}

// coproc walks a coprocess and keeps its shell as a channel.
func (fr *frame) coproc(cc *syntax.CoprocClause) {
	sub := fr.subshell(InBackground)
	sub.pipeline, sub.pipeIndex = 0, 0
	got := sub.walkCollect([]*syntax.Stmt{cc.Stmt})
	fr.addChannels(got)
}

// feedChannels analyses what c prints to a descriptor a channel may read.
func (fr *frame) feedChannels(c *Command) {
	if len(fr.r.channels) == 0 {
		return
	}
	for _, rd := range c.Redirs {
		if rd.Op != ">&" || rd.Fd != 1 {
			continue
		}
		if n, err := strconv.Atoi(rd.Target.Value); err == nil && rd.Target.Literal() && n <= 2 {
			continue
		}
		text := c.out
		if !c.outKnown {
			text = Unknown
		}
		for _, ch := range fr.r.channels {
			fr.shellRunner(ch, ch.Name)(text, posMap{at: c.Pos}, []*Command{c}, DynPipeShell)
		}
		return
	}
}
