package shim

import (
	"os"
	"testing"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// TestPollSelect: the select(2) form of poll that macOS's pty loops use reports
// what poll(2) reports for a pipe, a stopper and a pty master.
func TestPollSelect(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	st, err := newStopper()
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	master, slave, err := pty.Open()
	if err != nil {
		t.Skip("no pty:", err)
	}
	defer master.Close()
	defer slave.Close()
	pr, pw, pm := int32(rawFd(r)), int32(rawFd(w)), int32(rawFd(master))
	fds := []unix.PollFd{{Fd: pr, Events: unix.POLLIN}, {Fd: int32(st.r), Events: unix.POLLIN}, {Fd: -1},
		{Fd: pm, Events: unix.POLLIN}, {Fd: pw, Events: unix.POLLOUT}}
	check := func(when string, want ...int16) {
		t.Helper()
		n, err := pollSelect(fds, 0)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		ready := 0
		for i, f := range fds {
			if f.Revents != want[i] {
				t.Errorf("%s: fd %d revents %#x, want %#x", when, f.Fd, f.Revents, want[i])
			}
			if want[i] != 0 {
				ready++
			}
		}
		if n != ready {
			t.Errorf("%s: %d ready, want %d", when, n, ready)
		}
	}
	check("idle", 0, 0, 0, 0, unix.POLLOUT)
	w.Write([]byte("x"))
	slave.Write([]byte("y\n"))
	check("written", unix.POLLIN, 0, 0, unix.POLLIN, unix.POLLOUT)
	st.stop()
	check("stopped", unix.POLLIN, unix.POLLIN, 0, unix.POLLIN, unix.POLLOUT)
	fds[0].Fd = unix.FD_SETSIZE
	if n, err := pollSelect(fds[:1], -1); err != nil || n != 1 || fds[0].Revents != unix.POLLNVAL {
		t.Errorf("a descriptor past FD_SETSIZE: %d %v revents %#x", n, err, fds[0].Revents)
	}
}
