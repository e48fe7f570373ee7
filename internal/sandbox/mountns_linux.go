package sandbox

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// enterMountNS gives the calling thread a mount namespace of its own with
// binds made in it. Mounts do not propagate back: the namespace is made a
// slave of the caller's first. A namespace that cannot be made (no
// CAP_SYS_ADMIN) is reported as not made, not as an error: the caller
// falls back to journaling; a namespace made but not finished is an error.
func enterMountNS(s *Spec, binds []bind) (made bool, bound []string, err error) {
	if len(binds) == 0 || s.NoMountNamespace || os.Getenv(NoMountNSEnv) == "1" {
		return false, nil, nil
	}
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return false, nil, nil
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_SLAVE, ""); err != nil {
		return false, nil, fmt.Errorf("mount namespace: %w", err)
	}
	for _, b := range binds {
		if err := unix.Mount(b.path, b.path, "", unix.MS_BIND, ""); err != nil {
			return false, nil, fmt.Errorf("bind %s: %w", b.path, err)
		}
		if !b.readOnly {
			continue
		}
		var st unix.Statfs_t
		flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY)
		if unix.Statfs(b.path, &st) == nil {
			flags |= uintptr(st.Flags) & (unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC | unix.MS_NOATIME | unix.MS_NODIRATIME | unix.MS_RELATIME)
		}
		if err := unix.Mount("", b.path, "", flags, ""); err != nil {
			return false, nil, fmt.Errorf("read-only %s: %w", b.path, err)
		}
		bound = append(bound, b.path)
	}
	return true, bound, nil
}

func hasSysAdmin() bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if unix.Capget(&hdr, &data[0]) != nil {
		return false
	}
	return data[unix.CAP_SYS_ADMIN/32].Effective&(1<<(unix.CAP_SYS_ADMIN%32)) != 0
}
