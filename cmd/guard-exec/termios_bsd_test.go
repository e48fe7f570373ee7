//go:build unix && !linux

package main

import "golang.org/x/sys/unix"

// ioctlGetTermios reads a terminal's modes (tcgetattr); TCGETS on Linux.
const ioctlGetTermios = unix.TIOCGETA
