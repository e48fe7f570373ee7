package shim

import (
	"strconv"

	"golang.org/x/sys/unix"
)

// The few system interfaces that differ between Linux and the BSDs (macOS
// included) under one name each; the BSDs' are in sys_bsd.go.

// pipe2 is pipe(2) with flags (O_CLOEXEC, O_NONBLOCK) set atomically.
func pipe2(p []int, flags int) error { return unix.Pipe2(p, flags) }

// fionread is the ioctl that reports how many bytes wait in a pipe (FIONREAD).
const fionread = unix.TIOCINQ

// The ioctls that read and set a terminal's modes (tcgetattr, tcsetattr TCSANOW).
const (
	ioctlGetTermios = unix.TCGETS
	ioctlSetTermios = unix.TCSETS
)

// fdPath names the file open on fd, to be opened anew (for reading, whatever
// fd's own mode).
func fdPath(fd int) string { return "/proc/self/fd/" + strconv.Itoa(fd) }
