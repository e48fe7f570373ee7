package policy

import (
	"github.com/guard-exec/guard-exec/parse"
)

var systemRules = []*Rule{
	{
		ID: "mkfs", Family: "system", Severity: Hold,
		Message: "creating a filesystem erases the device",
		Hint:    "make a filesystem in an image file inside the project instead",
		Programs: []string{"mkfs", "mke2fs", "mkswap", "mkfs.ext2", "mkfs.ext3", "mkfs.ext4", "mkfs.xfs",
			"mkfs.btrfs", "mkfs.vfat", "mkfs.fat", "mkfs.msdos", "mkfs.ntfs", "mkfs.exfat", "mkfs.f2fs", "mkfs.minix"},
		Command:     func(*Ctx, *parse.Command) bool { return true },
		Raw:         `\bmk(fs(\.\w+)?|e2fs|swap)\b`,
		Examples:    []string{"mkfs.ext4 /dev/sda1", "mkfs -t ext4 /dev/sdb", "sudo mkswap /dev/sdb2"},
		NotExamples: []string{"echo mkfs.ext4 /dev/sda1", "man mkfs"},
	},
}
