package shim

import "golang.org/x/sys/unix"

// poll is pollSelect: macOS's poll(2) does not work on terminals.
func poll(fds []unix.PollFd, timeoutMs int) (int, error) { return pollSelect(fds, timeoutMs) }
