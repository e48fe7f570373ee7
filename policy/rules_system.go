package policy

import (
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// Disk and system rules: erasing devices, stopping the machine, killing
// every process. These are never part of an agent's ordinary work, so
// they hold wherever they point; only read-only forms (fdisk -l, wipefs
// listing, shutdown -c) and image files inside the project are let
// through. A fork bomb is denied: it has no legitimate use and approving
// it would freeze the machine the person approving it is sitting at.

var mkfsPrograms = []string{"mkfs", "mke2fs", "mkswap", "mkdosfs", "mkntfs", "mkexfatfs", "mkreiserfs",
	"mkfs.ext2", "mkfs.ext3", "mkfs.ext4", "mkfs.xfs", "mkfs.btrfs", "mkfs.vfat", "mkfs.fat", "mkfs.msdos",
	"mkfs.ntfs", "mkfs.exfat", "mkfs.f2fs", "mkfs.minix", "mkfs.bfs", "mkfs.cramfs", "mkfs.jfs",
	"mkfs.reiserfs", "mkfs.hfsplus", "mkfs.udf", "mkfs.nilfs2", "mkfs.bcachefs", "newfs", "newfs_apfs",
	"newfs_hfs", "newfs_msdos", "newfs_exfat"}

var systemRules = []*Rule{
	{
		ID: "mkfs", Family: "system", Severity: Hold,
		Message:  "creating a filesystem erases the device",
		Hint:     "make a filesystem in an image file inside the project instead",
		Programs: mkfsPrograms,
		Command:  mkfsOnDevice,
		Raw:      `\b(mkfs(\.\w+)?|mke2fs|mkswap|mkdosfs|mkntfs|newfs(_\w+)?)\b[^|;&\n]*/dev/`,
		Examples: []string{
			"mkfs.ext4 /dev/sda1",
			"mkfs -t ext4 /dev/sdb",
			"sudo mkswap /dev/sdb2",
			"mke2fs -F -L data /dev/nvme0n1p3",
			"mkfs.vfat -n BOOT \"$(cat dev.txt)\"",
			"/sbin/mkfs.xfs -f /dev/vdb",
		},
		NotExamples: []string{"echo mkfs.ext4 /dev/sda1", "man mkfs", "mkfs.ext4 -F disk.img", "mkswap /tmp/swapfile", "which mkfs.ext4"},
	},
	{
		ID: "dd-to-device", Family: "system", Severity: Hold,
		Message:  "dd writes raw bytes over a device, destroying what is on it",
		Hint:     "write to an image file inside the project (of=disk.img) and double-check the device name with lsblk",
		Programs: []string{"dd"},
		Command: func(x *Ctx, c *parse.Command) bool {
			for _, of := range c.Operands(parse.RoleWritten) { // dd's row: of=FILE
				if of.Dynamic {
					return true
				}
				if p := abs(x.dirOf(c), of.Value); p == "" || rawDevice(p) {
					return true
				}
			}
			return false
		},
		Raw: `\bdd\b[^|;&\n]*\bof=/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper|md|dm-|loop|sr|mem|kmem|port)`,
		Examples: []string{
			"dd if=/dev/zero of=/dev/sda bs=1M",
			"sudo dd if=image.iso of=/dev/disk2 bs=4m",
			"dd if=/dev/urandom of=/dev/nvme0n1",
			"dd if=x.img of=$(cat dev.txt)",
		},
		NotExamples: []string{
			"dd if=/dev/zero of=/dev/null bs=1M count=100",
			"dd if=/dev/sda of=backup.img",
			"dd if=/dev/zero of=disk.img bs=1M count=64",
			"dd if=/dev/urandom bs=16 count=1 | base64",
		},
	},
	{
		ID: "write-block-device", Family: "system", Severity: Hold,
		Message: "writes straight to a disk device, destroying its partitions and filesystems",
		Hint:    "write to a file inside the project; check device names with lsblk before any raw write",
		Command: writesDevice,
		Raw:     `(>|\btee\b[^|;&\n]*|\bcp\b[^|;&\n]*)\s*/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper|md|dm-|loop|mem|kmem|port)`,
		Examples: []string{
			"cat image.iso > /dev/sda",
			"echo hi > /dev/nvme0n1",
			"> /dev/sdb",
			"exec 3>/dev/sda",
			"cat x | sudo tee /dev/sda",
			"cp disk.img /dev/mmcblk0",
			"head -c 1M /dev/zero >> /dev/vda",
		},
		NotExamples: []string{
			"echo hi > /dev/null",
			"cmd 2>/dev/null",
			"echo x > /dev/stderr",
			"echo x >/dev/tty",
			"printf x > /dev/fd/3",
			"cat /dev/sda > disk.img",
			"echo > /dev/shm/x",
		},
	},
	{
		ID: "sysrq-trigger", Family: "system", Severity: Hold,
		Message: "writing to /proc/sysrq-trigger crashes, reboots or powers off the machine at once",
		Hint:    "do not trigger kernel SysRq actions from an agent; ask a person to reboot the machine if needed",
		Command: func(_ *Ctx, c *parse.Command) bool { return writesPath(c, sysrqPath) },
		Raw:     `/proc/sysrq-trigger`,
		Examples: []string{
			"echo c > /proc/sysrq-trigger",
			"echo b | sudo tee /proc/sysrq-trigger",
		},
		NotExamples: []string{"cat /proc/sys/kernel/sysrq", "echo c > sysrq.txt"},
	},
	{
		ID: "partition-table", Family: "system", Severity: Hold,
		Message:  "edits or wipes a disk's partition table or filesystem signatures, which makes everything on it unreachable",
		Hint:     "list the layout only (fdisk -l, lsblk, parted -l, wipefs without -a) and leave partitioning to a person",
		Programs: []string{"fdisk", "sfdisk", "cfdisk", "parted", "gdisk", "sgdisk", "cgdisk", "wipefs", "blkdiscard"},
		Command:  partitionWrite,
		Raw:      `\b(s?fdisk|cfdisk|parted|[sc]?gdisk|wipefs|blkdiscard)\b[^|;&\n]*/dev/`,
		Examples: []string{
			"fdisk /dev/sda",
			"sudo sfdisk /dev/sdb < layout.txt",
			"parted -s /dev/sda mklabel gpt",
			"parted /dev/sda rm 1",
			"sgdisk --zap-all /dev/nvme0n1",
			"wipefs -a /dev/sda",
			"wipefs --all --force /dev/sdb1",
			"blkdiscard /dev/nvme0n1",
			"gdisk /dev/sdc",
		},
		NotExamples: []string{
			"fdisk -l",
			"sudo fdisk -l /dev/sda",
			"sfdisk -d /dev/sda",
			"parted -l",
			"parted /dev/sda print",
			"sgdisk -p /dev/sda",
			"wipefs /dev/sda",
			"wipefs -n -a /dev/sda",
			"gdisk -l /dev/sda",
		},
	},
	{
		ID: "disk-erase", Family: "system", Severity: Hold,
		Message:  "destroys a volume, pool, encrypted container or the data on a drive",
		Hint:     "inspect only (lvs, zpool status, cryptsetup status) and leave destroying volumes to a person",
		Programs: []string{"lvremove", "vgremove", "pvremove", "zpool", "zfs", "btrfs", "cryptsetup", "mdadm", "badblocks", "hdparm", "nvme", "sg_format", "diskutil"},
		Command:  diskErase,
		Raw:      `\b(lvremove|vgremove|pvremove|zpool\s+(destroy|labelclear)|zfs\s+destroy|btrfs\s+(subvolume|sub|subvol)\s+(delete|del)|cryptsetup\s+(luksFormat|erase|luksErase|luksKillSlot)|diskutil\s+(eraseDisk|eraseVolume|zeroDisk|secureErase|partitionDisk))\b`,
		Examples: []string{
			"lvremove -f vg0/data",
			"vgremove vg0",
			"zpool destroy tank",
			"zfs destroy -r tank/home",
			"btrfs subvolume delete /mnt/data",
			"btrfs sub del -c /home",
			"cryptsetup luksFormat /dev/sdb1",
			"cryptsetup erase /dev/sdb1",
			"mdadm --zero-superblock /dev/sdb",
			"badblocks -wsv /dev/sdb",
			"hdparm --security-erase NULL /dev/sda",
			"nvme format /dev/nvme0n1",
			"diskutil eraseDisk APFS Empty disk2",
		},
		NotExamples: []string{
			"zpool status",
			"zfs list",
			"btrfs subvolume list /",
			"cryptsetup open /dev/sdb1 data",
			"mdadm --detail /dev/md0",
			"badblocks -sv /dev/sdb",
			"hdparm -I /dev/sda",
			"nvme list",
			"diskutil list",
		},
	},
	{
		ID: "power-off", Family: "system", Severity: Hold,
		Message:  "shuts down or reboots the machine, killing every running program and session",
		Hint:     "ask a person to reboot when it is needed; restart only the service you changed (systemctl restart UNIT)",
		Programs: []string{"shutdown", "reboot", "halt", "poweroff", "systemctl", "init", "telinit", "openrc-shutdown", "kexec"},
		Command:  func(x *Ctx, c *parse.Command) bool { return powerAction(c) == Hold },
		Raw:      `(?m)(^|[;&|(]\s*|sudo\s+|-c\s+['"]?)(shutdown|reboot|halt|poweroff)\b|\bsystemctl\s+(poweroff|reboot|halt|kexec)\b|\b(tel)?init\s+[06]\b`,
		Examples: []string{
			"shutdown -h now",
			"sudo shutdown -r +5",
			"reboot",
			"sudo poweroff",
			"halt -f",
			"systemctl reboot",
			"sudo systemctl --no-block poweroff",
			"systemctl isolate rescue.target",
			"systemctl start reboot.target",
			"init 0",
			"telinit 6",
			"kexec -e",
		},
		NotExamples: []string{
			"shutdown -c",
			"systemctl restart nginx",
			"systemctl status",
			"which shutdown",
			"man reboot",
			"git init",
			"./init 0",
			"reboot --help",
		},
	},
	{
		ID: "suspend", Family: "system", Severity: Warn,
		Message:     "suspends or hibernates the machine; everything pauses until a person wakes it",
		Hint:        "leave power management to a person",
		Programs:    []string{"systemctl", "pm-suspend", "pm-hibernate"},
		Command:     func(x *Ctx, c *parse.Command) bool { return powerAction(c) == Warn },
		Examples:    []string{"systemctl suspend", "systemctl hibernate", "pm-suspend"},
		NotExamples: []string{"systemctl status", "systemctl poweroff"},
	},
	{
		ID: "kill-everything", Family: "system", Severity: Hold,
		Message:  "signals every process the user can reach (pid -1, or a whole user's processes), which ends the session and the agent with it",
		Hint:     "kill the specific process by pid (pgrep -f NAME to find it) or by name with pkill NAME",
		Programs: []string{"kill", "pkill", "killall", "killall5"},
		Command:  killsEverything,
		Raw:      `\bkill\s+(-[A-Za-z0-9]+\s+|-s\s+\w+\s+|-n\s+\d+\s+)?(--\s+)?-1\s*($|[;&|)'"])|\bkillall5\b`,
		Examples: []string{
			"kill -9 -1",
			"kill -KILL -1",
			"kill -s KILL -1",
			"kill -SIGKILL -- -1",
			"kill -- -1",
			"kill -1",
			"kill -TERM -1",
			"pkill -9 -u user",
			"pkill -u $USER",
			"killall -u user",
			"killall5 -9",
			"pkill -f .",
			"pkill -P 1",
			"pkill --parent=1",
			"pkill -9 -P 5,1",
		},
		NotExamples: []string{
			"kill 1234",
			"kill -9 1234",
			"kill -1 1234",
			"kill -- -4321",
			"kill %1",
			"kill -l",
			"pkill -f 'node server.js'",
			"pkill -u user node",
			"killall node",
			"kill -9 $(lsof -ti:3000)",
			`pkill -P "$parent_pid"`,
			"pkill -P $$",
			"pkill --parent 4242",
		},
	},
	{
		ID: "fork-bomb", Family: "system", Severity: Deny,
		Message: "a function that starts copies of itself in a pipeline or the background: a fork bomb, which freezes the machine",
		Hint:    "there is no safe form of this; to test process limits, use a container with a pids limit",
		Script: func(_ *Ctx, a *parse.Analysis) []Span {
			if !a.ForkBomb {
				return nil
			}
			for _, c := range a.Commands {
				if c.Recursive && c.Context&(parse.InPipeline|parse.InBackground) != 0 {
					return []Span{{Text: c.Span, Pos: c.Pos}}
				}
			}
			return []Span{{Text: a.Raw, Pos: parse.Pos{Line: 1, Col: 1}}}
		},
		Raw: `(\S+)\s*\(\)\s*\{[^}]*\|\s*\S+\s*&`,
		Examples: []string{
			":(){ :|:& };:",
			"bomb(){ bomb|bomb& };bomb",
			"f() { f | f & }; f",
			"function x { x & x & }; x",
			"perl -e 'fork while 1'",
			"python3 -c 'import os\nwhile True: os.fork()'",
			"ruby -e 'loop { fork }'",
		},
		NotExamples: []string{"f() { echo hi; }; f", "retry() { cmd || retry; }", "echo ':(){ :|:& };:'", "perl -e 'my $p = fork; print $p'", "python3 -c 'while True: print(1)'"},
	},
	{
		ID: "user-delete", Family: "system", Severity: Hold,
		Message:  "deletes a user account together with its home directory and mail",
		Hint:     "lock the account instead (usermod -L USER) and let a person delete it",
		Programs: []string{"userdel", "deluser"},
		Command: func(_ *Ctx, c *parse.Command) bool {
			return c.Row == "userdel" && c.Flag("remove")
		},
		Raw:         `\buserdel\s+(-[a-zA-Z]*r|--remove)|\bdeluser\s+--remove`,
		Examples:    []string{"userdel -r bob", "sudo userdel --remove bob", "deluser --remove-home bob"},
		NotExamples: []string{"useradd -m bob", "id bob", "usermod -L bob"},
	},
	{
		ID: "crontab-remove", Family: "system", Severity: Hold,
		Message:  "crontab -r deletes every scheduled job of the user, without asking",
		Hint:     "list the jobs with crontab -l and edit the one you mean with crontab -e",
		Programs: []string{"crontab"},
		Command: func(_ *Ctx, c *parse.Command) bool {
			return c.Row == "crontab" && c.Flag("remove")
		},
		Raw:         `\bcrontab\s+(-u\s+\S+\s+)?-[a-z]*r`,
		Examples:    []string{"crontab -r", "crontab -u www -r", "crontab -ir"},
		NotExamples: []string{"crontab -l", "crontab -e", "crontab -l -u root"},
	},
	{
		ID: "crontab-replace", Family: "system", Severity: Warn,
		Message:  "installs a new crontab, replacing every scheduled job the user had",
		Hint:     "append to the existing jobs: (crontab -l; echo 'JOB') | crontab -",
		Programs: []string{"crontab"},
		Command: func(_ *Ctx, c *parse.Command) bool {
			if c.Row != "crontab" || c.Flag("remove") || c.Flag("list") || c.Flag("edit") || len(c.Operands(parse.RoleRead)) == 0 {
				return false
			}
			// Appending to the listing keeps the old jobs.
			if c.Stdin != nil && c.Stdin.Kind == parse.InputPipe {
				for _, u := range c.Stdin.Upstream() {
					if u.Row == "crontab" && u.Flag("list") {
						return false
					}
				}
			}
			return true
		},
		Examples:    []string{"crontab jobs.txt", "echo '* * * * * x' | crontab -", "crontab -u www jobs.txt", "crontab jobs.txt -u www"},
		NotExamples: []string{"crontab -l", "(crontab -l; echo '* * * * * x') | crontab -", "(crontab -lu www; echo '* * * * * x') | crontab -u www -", "crontab -r", "crontab -u www -l"},
	},
	{
		ID: "firewall-flush", Family: "system", Severity: Warn,
		Message:  "flushes or disables the firewall, or sets a default-drop policy that can cut off remote access",
		Hint:     "change the one rule you need (iptables -A/-D …) and keep the rest",
		Programs: []string{"iptables", "ip6tables", "iptables-legacy", "iptables-nft", "nft", "ufw"},
		Command:  firewallFlush,
		Examples: []string{"iptables -F", "sudo iptables --flush INPUT", "iptables -P INPUT DROP", "nft flush ruleset", "nft -a flush ruleset",
			"nft -I /etc/nft flush ruleset", "ufw disable", "ufw --force reset", "ufw reset --force"},
		NotExamples: []string{"iptables -L -n", "nft list ruleset", "nft -f flush ruleset", "ufw status", "ufw allow 22"},
	},
	{
		ID: "swap-off", Family: "system", Severity: Warn,
		Message:     "turns all swap off; under memory pressure the kernel starts killing programs",
		Hint:        "leave swap alone unless a person asked for it",
		Programs:    []string{"swapoff"},
		Command:     func(_ *Ctx, c *parse.Command) bool { return c.Flag("all") }, // swapoff's row: -a, --all
		Examples:    []string{"swapoff -a", "sudo swapoff --all"},
		NotExamples: []string{"swapon --show", "swapoff --help"},
	},
	{
		ID: "kernel-setting", Family: "system", Severity: Warn,
		Message:  "changes a kernel or security setting of the running system",
		Hint:     "set it for the program you run instead (its own flag or configuration), or ask a person",
		Programs: []string{"sysctl", "setenforce"},
		Command: func(_ *Ctx, c *parse.Command) bool {
			if c.Row == "setenforce" {
				for _, op := range c.Operands(parse.RoleData) {
					if op.Value == "0" || strings.EqualFold(op.Value, "permissive") {
						return true
					}
				}
				return false
			}
			if c.Flag("write") {
				return true
			}
			for _, op := range c.Operands(parse.RoleData) {
				if strings.Contains(op.Value, "=") {
					return true
				}
			}
			return false
		},
		Examples:    []string{"sysctl -w net.ipv4.ip_forward=1", "sudo sysctl vm.swappiness=10", "setenforce 0"},
		NotExamples: []string{"sysctl -a", "sysctl net.ipv4.ip_forward", "getenforce"},
	},
}

// isProjectScript reports whether a command runs a file by a relative
// path ("./init"), a project script that merely shares a system name.
func isProjectScript(c *parse.Command) bool {
	return strings.Contains(c.Path, "/") && !strings.HasPrefix(c.Path, "/")
}

// mkfsOnDevice holds mkfs unless every path it is given is a file in the
// allowed write roots (a disk image).
func mkfsOnDevice(x *Ctx, c *parse.Command) bool {
	if isProjectScript(c) || c.Flag("info") {
		return false
	}
	files := 0
	for _, a := range c.Operands(parse.RoleData) {
		if a.Dynamic {
			return true
		}
		v := a.Value
		if strings.HasPrefix(v, "/dev/") {
			return true
		}
		if !strings.ContainsAny(v, "./") {
			continue // labels, types, sizes
		}
		if x.place(c, a) != PlaceInside {
			return true
		}
		files++
	}
	return files == 0
}

// rawDevice reports whether p is a device whose contents a write
// destroys: anything under /dev except the streams and pseudo devices a
// program writes to every day.
func rawDevice(p string) bool {
	if !strings.HasPrefix(p, "/dev/") {
		return false
	}
	switch p {
	case "/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/stdout", "/dev/stderr",
		"/dev/stdin", "/dev/tty", "/dev/console", "/dev/ptmx", "/dev/log", "/dev/kmsg":
		return false
	}
	for _, pre := range []string{"/dev/fd/", "/dev/pts/", "/dev/shm/", "/dev/mqueue/", "/dev/tty", "/dev/cu.", "/dev/snd/", "/dev/tcp/", "/dev/udp/"} {
		if strings.HasPrefix(p, pre) {
			return false
		}
	}
	return true
}

const sysrqPath = "/proc/sysrq-trigger"

// writesPath reports whether c writes to path p through a redirection or
// as tee's operand.
func writesPath(c *parse.Command, p string) bool {
	for _, r := range c.Redirs {
		if (r.Write || r.Append) && r.Path == p {
			return true
		}
	}
	for _, ra := range c.Roles {
		if ra.Role == parse.RoleWritten && ra.Path == p {
			return true
		}
	}
	return false
}

// writesDevice reports a redirection, tee or cp that writes to a raw
// device.
func writesDevice(x *Ctx, c *parse.Command) bool {
	for _, r := range c.Redirs {
		if (r.Write || r.Append) && rawDevice(r.Path) {
			return true
		}
	}
	for _, ra := range c.Roles {
		if ra.Role == parse.RoleWritten && rawDevice(abs(x.dirOf(c), ra.Word.Value)) {
			return true
		}
	}
	switch c.Row {
	case "cp", "install":
		ops := c.Operands(parse.RoleData)
		if len(ops) >= 2 && rawDevice(abs(x.dirOf(c), ops[len(ops)-1].Value)) {
			return true
		}
	}
	return false
}

// partitionWrite reports a partitioning tool used in a form that writes.
func partitionWrite(_ *Ctx, c *parse.Command) bool {
	if c.Flag("info") {
		return false
	}
	ops := c.Operands(parse.RoleData)
	switch c.Row {
	case "fdisk", "sfdisk", "gdisk":
		return !c.Flag("lists")
	}
	switch c.Name {
	case "sgdisk":
		return c.Flag("writes") // every option but the printing ones
	case "parted":
		if c.Flag("lists") {
			return false
		}
		if len(ops) < 2 {
			return true // interactive on a device
		}
		for _, op := range ops[1:] {
			switch op.Value {
			case "print", "p", "unit", "s", "B", "kB", "MB", "GB", "MiB", "GiB", "%", "free", "all", "help", "quit":
			default:
				return true
			}
		}
		return false
	case "wipefs":
		return (c.Flag("erases") || len(c.OptionValues("-o")) > 0) && !c.Flag("dry-run")
	}
	return true // cfdisk, cgdisk, blkdiscard
}

// diskErase reports the destructive subcommands of volume managers and
// drive tools.
func diskErase(_ *Ctx, c *parse.Command) bool {
	if c.Flag("info") {
		return false
	}
	sub := first(leadingOperands(c, 1)) // zpool, zfs, nvme, diskutil
	switch c.Name {
	case "lvremove", "vgremove", "pvremove":
		return true
	case "zpool":
		return sub == "destroy" || sub == "labelclear"
	case "zfs":
		return sub == "destroy"
	case "btrfs":
		// btrfs subvolume delete PATH: the subvolume and everything in it.
		ops := leadingOperands(c, 2)
		return len(ops) == 2 && strings.HasPrefix("subvolume", ops[0]) && len(ops[0]) >= 3 && strings.HasPrefix("delete", ops[1]) && len(ops[1]) >= 3
	case "cryptsetup":
		for _, w := range c.Operands(parse.RoleData) {
			switch w.Value {
			case "luksFormat", "erase", "luksErase", "luksKillSlot":
				return true
			}
		}
	case "mdadm", "hdparm", "sg_format":
		return c.Flag("erases")
	case "badblocks":
		return c.Flag("writes")
	case "nvme":
		return sub == "format" || sub == "sanitize"
	case "diskutil":
		switch strings.ToLower(sub) {
		case "erasedisk", "erasevolume", "zerodisk", "randomdisk", "secureerase", "partitiondisk", "reformat":
			return true
		case "apfs":
			for _, w := range c.Operands(parse.RoleData) {
				switch strings.ToLower(w.Value) {
				case "deletecontainer", "deletevolume", "erasevolume":
					return true
				}
			}
		}
	}
	return false
}

// powerAction classifies shutdown-like commands: Hold for stopping or
// rebooting the machine, Warn for suspending it, Allow otherwise.
func powerAction(c *parse.Command) Severity {
	if isProjectScript(c) || c.Flag("info") {
		return Allow
	}
	switch c.Row {
	case "shutdown", "reboot":
		if c.Flag("stays-up") {
			return Allow
		}
		return Hold
	case "pm-suspend":
		return Warn
	case "kexec":
		if c.Flag("execs") {
			return Hold
		}
	case "init":
		if ops := c.Operands(parse.RoleData); len(ops) == 1 {
			switch ops[0].Value {
			case "0", "6", "1", "s", "S", "single":
				return Hold
			}
		}
	case "systemctl":
		ops := c.Operands(parse.RoleData)
		if len(ops) == 0 {
			break
		}
		sub, rest := ops[0].Value, ops[1:]
		switch sub {
		case "poweroff", "reboot", "halt", "kexec", "soft-reboot", "rescue", "emergency":
			return Hold
		case "suspend", "hibernate", "hybrid-sleep", "suspend-then-hibernate", "sleep":
			return Warn
		case "isolate", "start", "restart":
			for _, w := range rest {
				switch strings.TrimSuffix(w.Value, ".target") {
				case "poweroff", "reboot", "halt", "kexec", "rescue", "emergency", "shutdown", "soft-reboot":
					return Hold
				}
			}
		}
	}
	return Allow
}

// killsEverything reports kill of pid -1 (every process the caller may
// signal), and pkill/killall that select a whole user's processes or
// every process.
func killsEverything(x *Ctx, c *parse.Command) bool {
	switch c.Name {
	case "killall5":
		return true
	case "kill":
		return killAll(c)
	case "pkill":
		return pkillAll(c)
	case "killall":
		return len(c.OptionValues("-u")) > 0 && len(c.Operands(parse.RoleData)) == 0
	}
	return false
}

// killAll reports kill of pid -1 (its row reads the signal and the
// pids). "kill -1" alone is read as pid -1: nobody means signal 1 to no
// process.
func killAll(c *parse.Command) bool {
	if c.Row != "kill" || c.Flag("lists") {
		return false
	}
	pids := c.Operands(parse.RoleData)
	for _, p := range pids {
		if p.Value == "-1" {
			return true
		}
	}
	return len(pids) == 0 && c.Flag("minus-one")
}

// pkillAll reports pkill with no pattern but a selector that takes a
// whole user, group, session or terminal, or the children of init, or a
// pattern that matches everything.
func pkillAll(c *parse.Command) bool {
	if c.Row != "pkill" {
		return false
	}
	selector := false
	for _, opt := range []string{"-u", "-U", "-G", "-g", "-s", "-t"} {
		selector = selector || len(c.OptionValues(opt)) > 0
	}
	for _, p := range c.OptionValues("-P") {
		selector = selector || initParent(p.Value)
	}
	patterns := c.Operands(parse.RoleData)
	if len(patterns) == 0 {
		return selector
	}
	for _, p := range patterns {
		switch p.Value {
		case "", ".", ".*", "^", "$", ".+", "^.*$":
			return true
		}
	}
	return false
}

// initParent reports whether a pkill -P list names pid 1 or 0: the
// children of init are every daemon and orphan of the session (a tmux
// server, the user's service manager). Any other parent, known or not
// (pkill -P "$parent_pid", the children of a process the script started),
// is one process's children: a targeted kill, as pkill NAME is.
func initParent(list string) bool {
	for _, p := range strings.Split(list, ",") {
		if p = strings.TrimSpace(p); p == "1" || p == "0" {
			return true
		}
	}
	return false
}

// firewallFlush reports flushing, disabling or default-drop firewall
// changes.
func firewallFlush(_ *Ctx, c *parse.Command) bool {
	switch c.Name {
	case "nft":
		ops := leadingOperands(c, 2)
		return len(ops) == 2 && ops[0] == "flush" && ops[1] == "ruleset"
	case "ufw":
		sub := first(leadingOperands(c, 1))
		return sub == "disable" || sub == "reset"
	}
	if c.Row != "iptables" {
		return false
	}
	if c.Flag("flushes") {
		return true
	}
	// -P CHAIN TARGET
	pol := c.OptionValues("-P")
	for i := 1; i < len(pol); i += 2 {
		if pol[i].Value == "DROP" || pol[i].Value == "REJECT" {
			return true
		}
	}
	return false
}
