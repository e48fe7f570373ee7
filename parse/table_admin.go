package parse

// Rows of the programs that erase disks and volumes, stop the machine,
// signal processes and change the firewall: what policy's system rules
// ask of them, as flag meanings and operands. "info" is the meaning of
// the flags that only ask for help or the version, spelled as each
// program spells them (shutdown -h halts, mkfs -V is verbose): such a
// command does nothing else.

// infoFlags are the spellings of help and version most of these programs
// share.
const infoFlags = "!info:-h|--help|-V|--version"

var adminRows = []Program{
	// mkfs's -V is verbose unless it is the only word (then the version):
	// with a device it is no question.
	{Name: "mkfs", Args: "*:data", Flags: "!info:-h|--help|--version",
		Hold: []string{`mkfs -V -t ext4 /dev/sdb`}, Allow: []string{`mkfs --help`}},
	{Name: "mke2fs", Also: []string{"mkswap", "mkdosfs", "mkntfs", "mkexfatfs", "mkreiserfs",
		"mkfs.ext2", "mkfs.ext3", "mkfs.ext4", "mkfs.xfs", "mkfs.btrfs", "mkfs.vfat", "mkfs.fat", "mkfs.msdos",
		"mkfs.ntfs", "mkfs.exfat", "mkfs.f2fs", "mkfs.minix", "mkfs.bfs", "mkfs.cramfs", "mkfs.jfs",
		"mkfs.reiserfs", "mkfs.hfsplus", "mkfs.udf", "mkfs.nilfs2", "mkfs.bcachefs", "newfs", "newfs_apfs",
		"newfs_hfs", "newfs_msdos", "newfs_exfat"}, Args: "*:data", Flags: infoFlags,
		Hold: []string{`mkfs.ext4 -L data /dev/sdb1`}, Allow: []string{`mkfs.ext4 -V`, `mkfs.ext4 -F disk.img`}},
	// sgdisk writes unless every option it is given only prints.
	{Name: "sgdisk", Args: "*:data",
		Flags: infoFlags + " !prints:-p|--print|-v|--verify|-O|--print-mbr|-L|--list-types|-i|--info writes:*",
		Hold:  []string{`sgdisk --zap-all /dev/sda`, `sgdisk -p -Z /dev/sda`, `sgdisk -n 1:0:0 /dev/sda`}, Allow: []string{`sgdisk -p /dev/sda`, `sgdisk -i 1 /dev/sda`}},
	{Name: "cfdisk", Also: []string{"cgdisk", "blkdiscard"}, Args: "*:data", Flags: infoFlags},
	{Name: "lvremove", Also: []string{"vgremove", "pvremove"}, Args: "*:data", Flags: "!info:-h|--help"},
	// cryptsetup ACTION DEVICE: the action is an operand.
	{Name: "cryptsetup", Args: "*:data", Flags: "!info:-h|--help"},
	{Name: "mdadm", Args: "*:data", Flags: "!info:-h|--help erases:--zero-superblock|--create|-C",
		Hold: []string{`mdadm --zero-superblock /dev/sdb`, `mdadm -C /dev/md0 -l 1 -n 2 /dev/sda /dev/sdb`}, Allow: []string{`mdadm --detail /dev/md0`}},
	// hdparm -h is not asked about: it is the erasing flags that matter.
	{Name: "hdparm", Args: "*:data", Flags: "erases:--security-erase|--security-erase-enhanced|--trim-sector-ranges|--write-sector",
		Hold: []string{`hdparm --security-erase NULL /dev/sda`, `hdparm --security-erase-enhanced p /dev/sda`}, Allow: []string{`hdparm -I /dev/sda`}},
	{Name: "sg_format", Args: "*:data", Flags: "!info:-h|--help erases:-F|--format",
		Hold: []string{`sg_format --format /dev/sg1`}, Allow: []string{`sg_format /dev/sg1`}},
	// Stopping the machine: shutdown -c cancels and --show shows a
	// scheduled shutdown; reboot -w only writes the wtmp record. The
	// machine stays up.
	{Name: "shutdown", Args: "*:data", Flags: "!info:--help|--version !stays-up:-c|--show",
		Hold: []string{`shutdown -h now`, `shutdown -r +5`}, Allow: []string{`shutdown -c`, `shutdown --help`}},
	{Name: "reboot", Also: []string{"halt", "poweroff", "openrc-shutdown"}, Args: "*:data",
		Flags: "!info:--help|--version !stays-up:-w|--wtmp-only",
		Hold:  []string{`reboot`, `halt -f`}, Allow: []string{`reboot --help`, `poweroff -w`}},
	{Name: "pm-suspend", Also: []string{"pm-hibernate"}, Args: "*:data", Flags: "!info:--help|--version"},
	{Name: "kexec", Args: "*:data", Flags: "!info:--help|--version execs:-e|--exec",
		Hold: []string{`kexec -e`}, Allow: []string{`kexec -l /boot/vmlinuz`}},
	// init N and telinit N switch the runlevel: 0 halts, 6 reboots.
	{Name: "init", Also: []string{"telinit"}, Opts: "-t= -e=", Args: "*:data", Flags: "!info:--help|--version",
		Hold: []string{`init 0`, `telinit 6`, `telinit -t 5 0`}, Allow: []string{`init --help`, `telinit q`}},
	// kill [-s SIG | -n N | -SIG] [--] PID…: one option at most, then
	// pids, "-1" (every process the caller may signal) among them. "kill
	// -1" alone is read as pid -1: bash takes it for signal 1 and no pid,
	// but nobody means that.
	{Name: "kill", SingleDashLong: true, OneOption: true, Opts: "-s= -n=", Args: "*:data",
		Flags: "!lists:-l|-L|--list minus-one:-1",
		Hold:  []string{`kill -9 -1`, `kill -s KILL -- -1`, `kill -1`, `kill -- -1`}, Allow: []string{`kill -1 1234`, `kill -- -4321`, `kill -l`, `kill -9 1234`}},
	// pkill's signal may come first as one word (-9, -KILL, -USR1), which
	// read as letters would be -U SR1: its words are read one at a time.
	// The selectors that take a whole user, group, session or terminal,
	// and the parents, are the values policy judges.
	{Name: "pkill", SingleDashLong: true, Args: "*:data",
		Opts: "-u|--euid=data -U|--uid=data -G|--group=data -g|--pgroup=data -s|--session=data -t|--terminal=data -P|--parent=data " +
			"--signal= -F|--pidfile= --ns= --nslist= -O|--older=",
		Hold: []string{`pkill -9 -u dev`, `pkill -P 1`, `pkill --parent=1`}, Allow: []string{`pkill -u dev node`, `pkill -P 4242`, `pkill -USR1 node`}},
	// skill [SIGNAL] [OPTIONS] EXPRESSION…: the signal first as pkill's
	// (-KILL, -9), then the processes by command, user, terminal or pid,
	// with or without the option that says which.
	{Name: "skill", SingleDashLong: true, Args: "*:data",
		Opts: "-c|--command=data -u|--user=data -t|--tty=data -p|--pid=data --ns= --nslist="},
	// iptables -F and -X flush and delete chains; -P CHAIN TARGET sets a
	// chain's default.
	{Name: "iptables", Also: []string{"ip6tables", "iptables-legacy", "iptables-nft"}, Args: "*:data",
		Opts:  "-P|--policy=data,data",
		Flags: "flushes:-F|--flush|-X|--delete-chain",
		Allow: []string{`iptables -L -n`, `iptables -A INPUT -p tcp --dport 22 -j ACCEPT`}},
	{Name: "setenforce", Args: "*:data"},
	// dd's operands are KEY=VALUE; of= is the file it writes.
	{Name: "dd", Args: "*:written@of= *:read@if=",
		Hold: []string{`dd if=/dev/zero of=/dev/sda bs=1M`, `dd if=x.img of=$(cat dev.txt)`}, Allow: []string{`dd if=/dev/zero of=disk.img bs=1M count=64`}},
}

// Rows of the database servers' own admin tools: dropdb drops the
// database it is given unless asked for help (-h is its host);
// mysqladmin drop DB drops one.
var dbAdminRows = []Program{
	{Name: "pg_dropcluster", Args: "*:data", Flags: "!info:--help", Hold: []string{`pg_dropcluster 15 main --stop`}, Allow: []string{`pg_dropcluster --help`}},
	{Name: "dropdb", Args: "*:data", Opts: "-h|--host= -p|--port= -U|--username= --maintenance-db=", Flags: "!info:--help|-?|--version|-V",
		Hold: []string{`dropdb -h db.internal app`}, Allow: []string{`dropdb --help`}},
	{Name: "mysqladmin", Args: "*:data", Opts: "-u|--user= -h|--host= -P|--port= -S|--socket="},
}
