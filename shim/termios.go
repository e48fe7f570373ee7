package shim

import (
	"os"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// outerTerminal is the terminal the person types at, seen from the guard: it is put
// in raw mode while the command runs under the pty, and restored on every way out.
type outerTerminal struct {
	fd    int         // the caller's stdin, when it is a terminal; -1 otherwise
	saved *term.State // its modes before raw mode; nil while not raw
}

// makeRaw puts the outer terminal in raw mode, so that every key (Ctrl-C as 0x03,
// Ctrl-Z as 0x1a) travels to the pty, whose own line discipline turns it into a
// signal for the command, not for the guard. Output processing is kept (OPOST|ONLCR):
// the pty's slave has ONLCR cleared, so the digest sees the command's "\n" as it
// wrote it and the outer terminal adds the "\r" for display only.
func (t *outerTerminal) makeRaw() error {
	if t.fd < 0 || t.saved != nil {
		return nil
	}
	saved, err := term.MakeRaw(t.fd)
	if err != nil {
		return err
	}
	t.saved = saved
	tio, err := unix.IoctlGetTermios(t.fd, ioctlGetTermios)
	if err != nil {
		return err
	}
	tio.Oflag |= unix.OPOST | unix.ONLCR
	return unix.IoctlSetTermios(t.fd, ioctlSetTermios, tio)
}

// restore puts back the modes makeRaw found; it is safe to call more than once.
func (t *outerTerminal) restore() {
	if t.saved != nil {
		_ = term.Restore(t.fd, t.saved)
		t.saved = nil
	}
}

// clearONLCR stops the pty slave from turning "\n" into "\r\n", so that the bytes
// read from the master are the bytes the command wrote. Only ONLCR: making the slave
// raw would also drop ISIG, ICANON and ECHO, and Ctrl-C and line editing with them.
func clearONLCR(tty *os.File) error {
	fd := rawFd(tty)
	tio, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return err
	}
	tio.Oflag &^= unix.ONLCR
	return unix.IoctlSetTermios(fd, ioctlSetTermios, tio)
}

// windowSize reads the size of the first terminal among files, with 80x24 when
// there is none (a pty of size 0x0 breaks programs that lay out text).
func windowSize(files ...*os.File) *unix.Winsize {
	for _, f := range files {
		if fd := rawFd(f); fd >= 0 {
			if ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ); err == nil && ws.Col > 0 && ws.Row > 0 {
				return ws
			}
		}
	}
	return &unix.Winsize{Col: 80, Row: 24}
}
