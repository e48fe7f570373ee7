//go:build !linux

package policy

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// binarySalt identifies the running executable by device, inode, size
// and modification time: one stat, and it changes with every build.
// Without /proc the executable is found by os.Executable; x/sys names
// the modification time Mtim on every system.
func binarySalt() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	var st unix.Stat_t
	if err := unix.Stat(exe, &st); err != nil {
		return "unknown"
	}
	return fmt.Sprintf("%d:%d:%d:%d.%d", st.Dev, st.Ino, st.Size, st.Mtim.Sec, st.Mtim.Nsec)
}
