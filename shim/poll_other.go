//go:build unix && !darwin

package shim

import "golang.org/x/sys/unix"

// poll is poll(2); macOS's, which does not work on terminals, is in poll_darwin.go.
func poll(fds []unix.PollFd, timeoutMs int) (int, error) { return unix.Poll(fds, timeoutMs) }
