package main

import "golang.org/x/sys/unix"

// ioctlGetTermios reads a terminal's modes (tcgetattr); TIOCGETA on the BSDs.
const ioctlGetTermios = unix.TCGETS
