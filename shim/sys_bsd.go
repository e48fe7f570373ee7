//go:build unix && !linux

package shim

import (
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// The BSDs' (and macOS's) side of sys_linux.go.

// pipe2 is pipe(2) with O_CLOEXEC and O_NONBLOCK set after the fact, under the
// fork lock, so no child started meanwhile inherits the descriptors (macOS has
// no pipe2).
func pipe2(p []int, flags int) error {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err := unix.Pipe(p); err != nil {
		return err
	}
	if flags&unix.O_CLOEXEC != 0 {
		unix.CloseOnExec(p[0])
		unix.CloseOnExec(p[1])
	}
	if flags&unix.O_NONBLOCK != 0 {
		for _, fd := range p {
			if err := unix.SetNonblock(fd, true); err != nil {
				unix.Close(p[0])
				unix.Close(p[1])
				return err
			}
		}
	}
	return nil
}

// fionread is FIONREAD, _IOR('f', 127, int) in <sys/filio.h> on macOS and the
// BSDs alike (golang.org/x/sys does not name it there).
const fionread = 0x4004667f

// The ioctls that read and set a terminal's modes (tcgetattr, tcsetattr TCSANOW).
const (
	ioctlGetTermios = unix.TIOCGETA
	ioctlSetTermios = unix.TIOCSETA
)

// fdPath names the file open on fd, to be opened anew: /dev/fd/N, which on
// macOS and FreeBSD duplicates fd and so opens for reading only a descriptor
// that can read (a command's `> log` is write-only: its digest then holds only
// the length). FreeBSD without fdescfs has only 0 to 2 there.
func fdPath(fd int) string { return "/dev/fd/" + strconv.Itoa(fd) }
