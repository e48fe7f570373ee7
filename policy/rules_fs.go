package policy

import (
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// Filesystem rules: operations that destroy files wholesale. Where they
// land decides the verdict (places.go): inside the project or a temp dir
// is the agent's own work; the project root as a whole warns; the
// project directory itself, its history, anything outside, and anything
// that cannot be known hold. Writes outside the project in general are
// the boundary rules' business; these are the destructive operations.

// rmPrograms are the programs that delete recursively: rm, the Node
// packages that do the same (run directly, or by a package runner, whose
// row gives parse the program to follow: npx rimraf dist is rimraf dist),
// and the archivers that delete what they archived when told to (tar
// --remove-files, zip -m, 7z a -sdel): their rows give those operands RoleDeleted,
// as a tree where it goes with everything below it (rmArgs).
var rmPrograms = []string{"rm", "rimraf", "del-cli", "tar", "gtar", "bsdtar", "zip", "7z", "7za", "7zr", "7zz"}

var filesystemRules = []*Rule{
	{
		ID: "rm-recursive-dangerous", Family: "filesystem", Severity: Hold, Bounded: true,
		Message:  "recursive delete of a place outside the project (/, home, a parent, a system or unknown path)",
		Hint:     "delete the specific files inside the project you mean, or move them to a temp dir first",
		Programs: rmPrograms,
		Command:  func(x *Ctx, c *parse.Command) bool { return rmRecursive(x, c, Place.Dangerous) },
		Raw:      `\brm\s+(-[a-zA-Z]*[rR]|--rec)[^|;&\n]*\s["']?(/\*?(\s|$|["'])|/(etc|usr|bin|sbin|lib|lib64|boot|var|home|opt|srv|root|mnt|Users)\b|~/?\*?(\s|$|["'])|~/[^.\s]|\$\{?HOME\}?/?\*?(\s|$|["'])|\.\.(/|\s|$))`,
		Examples: []string{
			"rm -rf /",
			"rm -rf ~",
			"rm -rf ~/",
			"rm -R -f /",
			"rm --recursive --force /",
			"rm --rec --fo /home/user",
			"rm -r -f ~/Documents",
			"rm -rf -- /",
			"rm -rf --no-preserve-root /",
			"rm / -rf",
			"sudo rm -rf /",
			"rm -rf /*",
			"rm -rf ~/*",
			"rm -rf ..",
			"rm -rf ../..",
			"rm -rf /etc",
			"rm -rf /usr/local",
			`\rm -r''f "/"`,
			`$'\x72\x6d' -rf /`,
			"{rm,-rf,/}",
			"cd / && rm -rf *",
			"cd / && rm -rf .",
			"cd \"$X\" && rm -rf *",
			"cd ~/work-$$ && rm -rf *",
			"cd /etc/conf-$$ && rm -rf *",
			"cd \"$TMPDIR/t-$$\" && rm -rf ../../*",
			"d=$(mktemp -d); cd \"$d\" && rm -rf ..",
			"d=$(mktemp -d); cd \"$d\" && rm -rf \"$X\"",
			"cd /tmp/$X/.. && rm -rf *",
			`python3 -c 'import os;[os.remove(os.path.join(r,f)) for r,d,fs in os.walk(os.environ["HOME"]) for f in fs]'`,
			`python3 -c 'import os; [os.remove(f) for f in os.listdir(os.path.expanduser("~"))]'`,
			`python3 -c 'import glob,os; [os.remove(f) for f in glob.glob(os.path.expanduser("~")+"/*")]'`,
			`node -e 'const fs=require("fs"); for (const f of fs.readdirSync(process.env.HOME)) fs.unlinkSync(process.env.HOME+"/"+f)'`,
			`perl -MFile::Find -e 'find(sub { unlink $_ }, $ENV{HOME})'`,
			`ruby -e 'Dir.glob(File.expand_path("~")+"/**/*").each { |f| File.delete(f) }'`,
			"cd \"/tmp/$(cat f)\" && rm -rf *",
			"x=$(cat f); cd \"$TMPDIR/$x\" && rm -rf *",
			"rm -rf $UNSET_DIR/",
			"rm -rf \"$HOME\"",
			"tar czf /tmp/h.tgz --remove-files ~",
			"zip -rm /tmp/h.zip ~",
			"7z a -sdel /tmp/h.7z ~",
			"tar -C ~ -cf /tmp/h.tar --remove-files .",
			"rm -rf \"$HOME/$X\"",
			"rm -rf \"$(cat dir.txt)\"",
			"X=/; rm -rf $X",
			"find . -type d | xargs rm -rf /",
			"echo / | xargs rm -rf",
			"cat dirs.txt | xargs rm -rf",
			"git ls-files ../other | xargs rm -rf",
			"ls -d /tmp/build* | xargs rm -rf",
			"find / -name '*.log' -exec rm -rf {} +",
			"ssh host rm -rf /",
			"docker run --rm -v /:/host alpine rm -rf /host/etc",
			"docker run --rm -v \"$HOME\":/h alpine sh -c 'rm -rf /h/*'",
			"docker exec web rm -rf /srv/data",
			"npx rimraf /",
			"rimraf ~",
			"npm exec -- rimraf ~",
			"bun x rimraf /",
		},
		NotExamples: []string{
			"rm -rf build/",
			"rm -rf /tmp/x",
			"rm -rf \"$TMPDIR/x\"",
			"rm -rf node_modules dist",
			"rm -rf build/$X",
			"rm -f /etc/x.conf",
			"rm -rf ~/.cache/pip",
			"cd /tmp && rm -rf *",
			"builtin cd $TMPDIR/glob-test-$$ || exit 1; rm -rf *",
			"cd \"$(mktemp -d)\" && rm -rf *",
			"d=$(mktemp -d); cd \"$d\" && rm -rf ./* sub",
			"d=$(mktemp -d); cd \"$d\"; cd a/b && rm -rf *",
			"cd /tmp/run-$$ && rm -rf out",
			`python3 -c 'import glob,os; [os.remove(f) for f in glob.glob("*.pyc")]'`,
			`python3 -c 'import os; d="build"; [os.remove(os.path.join(d,f)) for f in os.listdir(d)]'`,
			`python3 -c 'import os; print(os.listdir(".")); os.remove("x.tmp")'`,
			`node -e 'const fs=require("fs"); for (const f of fs.readdirSync("dist")) fs.unlinkSync("dist/"+f)'`,
			"find . -name node_modules -type d -prune -exec rm -rf {} +",
			"find . -type d -name __pycache__ | xargs rm -rf",
			"git ls-files -o | xargs rm -rf",
			"ls -d build* | xargs rm -rf",
			`echo "rm -rf /"`,
			"rm -f \"$file\"",
			"ls /",
			"npx rimraf dist node_modules",
			"7z a /tmp/h.7z ~",
			"7z a -sdel logs.7z logs/old",
			"tar -C build -cf /tmp/b.tar --remove-files .",
			"npm exec rimraf dist",
			"npm rm lodash",
			"bun rm left-pad",
			"docker run --rm -v \"$PWD\":/app -w /app node:20 sh -c 'rm -rf node_modules && npm ci'",
			"docker run --rm alpine rm -rf /usr/share/doc",
		},
	},
	{
		ID: "rm-recursive-project-dir", Family: "filesystem", Severity: Hold,
		Message:  "recursive delete of the project directory itself or of its .git history, which nothing can restore",
		Hint:     "delete the build outputs inside the project by name; to start over, clone into a new directory",
		Programs: rmPrograms,
		Command: func(x *Ctx, c *parse.Command) bool {
			return rmRecursive(x, c, func(p Place) bool { return p == PlaceProjectRoot })
		},
		Raw: `\brm\s+(-[a-zA-Z]*[rR]|--rec)[^|;&\n]*\s\.git\b`,
		Examples: []string{
			"rm -rf .git",
			"rm -rf ./.git/",
			"rm -rf /home/user/project",
			"rm -rf \"$PWD\"",
			"cd .. && rm -rf project",
			"rm -rf .git/objects",
			"rm -rf .git/refs/heads",
		},
		NotExamples: []string{"rm -rf app/.git", "rm -rf .github/old", "rm -rf build", "rm .gitignore", "rm -rf .git/rebase-merge", "rm -f .git/index.lock"},
	},
	{
		ID: "rm-recursive-project-root", Family: "filesystem", Severity: Warn,
		Message:  "recursive delete of everything in the project root",
		Hint:     "name the build outputs to remove instead of the project root",
		Programs: rmPrograms,
		Command: func(x *Ctx, c *parse.Command) bool {
			return rmRecursive(x, c, func(p Place) bool { return p == PlaceProjectTop })
		},
		Examples: []string{
			"rm -rf .",
			"rm -rf *",
			"rm -rf ./*",
			"rm -rf .*",
			"rm -rf \"./$X\"",
			"find . -exec rm -rf {} +",
		},
		NotExamples: []string{
			"rm -rf build",
			"rm -rf /",
			"rm -rf *.egg-info",
			"rm -rf build-*",
			"rm -f *",
		},
	},
	{
		ID: "find-delete-dangerous", Family: "filesystem", Severity: Hold, Bounded: true,
		Message:  "find deletes files under a place outside the project (/, home, a system or unknown path)",
		Hint:     "run the same find with -print first, and start it inside the project or a temp dir",
		Programs: []string{"find"},
		Command: func(x *Ctx, c *parse.Command) bool {
			return findDeletes(c) && x.worst(x.findRootPlaces(c, true)).Dangerous()
		},
		Raw: `\bfind\s+(/|~|\$|\.\.)[^|;&\n]*(-delete|-exec(dir)?\s+(rm|unlink|shred)\b)`,
		Examples: []string{
			"find / -name '*.bak' -delete",
			"find ~ -type f -delete",
			"find / -exec rm {} \\;",
			"find /etc -name '*.conf' -execdir rm -f {} +",
			"find \"$(cat dir.txt)\" -delete",
			"find .. -name '*.o' -delete",
			"sudo find /var -mtime +1 -exec shred -u {} \\;",
			"find -D tree / -delete",
		},
		NotExamples: []string{
			"find . -name '*.o' -delete",
			"find /tmp -name 'test-*' -delete",
			"find / -name '*.conf'",
			"find . -name '*.pyc' -exec rm -f {} +",
			"find ~ -name x -print",
			"find ~/.cache -type f -delete",
			"find / -exec echo -delete \\;",
			"find / -name -delete -print",
		},
	},
	{
		ID: "find-delete-project-root", Family: "filesystem", Severity: Warn,
		Message:  "find deletes everything in the project root: its expression has no test that narrows it",
		Hint:     "add the test that selects what to delete (-name, -type, -path) and check it with -print first",
		Programs: []string{"find"},
		Command: func(x *Ctx, c *parse.Command) bool {
			if !findDeletes(c) {
				return false
			}
			p := x.worst(x.findRootPlaces(c, true))
			return p == PlaceProjectTop || p == PlaceProjectRoot
		},
		Examples:    []string{"find . -delete", "find . -exec rm -rf {} +", "find -delete"},
		NotExamples: []string{"find . -name '*.tmp' -delete", "find build -delete", "find . -print"},
	},
	{
		ID: "shred-outside", Family: "filesystem", Severity: Hold, Bounded: true,
		Message:  "shred or truncate destroys the contents of a file outside the project, beyond recovery",
		Hint:     "work on a copy inside the project, or delete the file normally if it must go",
		Programs: []string{"shred", "truncate", "wipe", "srm"},
		Command: func(x *Ctx, c *parse.Command) bool {
			for _, op := range c.Operands(parse.RoleData) {
				if !ownStream(op) && x.place(c, op).Dangerous() {
					return true
				}
			}
			return false
		},
		Raw: `\b(shred|truncate|wipe|srm)\b[^|;&\n]*\s(/|~|\$)`,
		Examples: []string{
			"shred -u ~/.ssh/id_ed25519",
			"shred /dev/sda",
			"truncate -s 0 /var/log/syslog",
			"truncate --size=0 ~/notes.txt",
			"shred -n 3 -z \"$(cat f)\"",
		},
		NotExamples: []string{
			"shred -u build/secret.tmp",
			"truncate -s 0 app.log",
			"truncate -s 10M /tmp/disk.img",
			"man shred",
			"truncate -s3 /dev/stdout",
			"truncate -s 0 /proc/self/fd/2",
		},
	},
	{
		ID: "chmod-world-writable-recursive", Family: "filesystem", Severity: Hold,
		Message:  "recursive chmod that makes a whole tree writable by every user: a security hole that cannot be undone file by file",
		Hint:     "grant the permission the program needs on the specific files (chmod u+w FILE, or chmod -R u+rwX,go-w DIR)",
		Programs: []string{"chmod"},
		Command: func(x *Ctx, c *parse.Command) bool {
			mode, rec, _ := chmodArgs(c)
			return rec && worldWritable(mode.Value)
		},
		Raw: `\bchmod\s+(-[a-zA-Z]*R|--recursive)[^|;&\n]*\s(0?[0-7]{2}[2367]|a\+[rwx]*w|o\+[rwx]*w|ugo\+[rwx]*w)\b`,
		Examples: []string{
			"chmod -R 777 .",
			"chmod -R 777 /",
			"chmod -R a+rwx storage",
			"chmod --recursive 0777 /var/www",
			"chmod -R o+w ~",
			"sudo chmod -R 666 /etc",
			"chmod -R ugo+rwx,go-x /srv",
			"chmod 777 -R .",
		},
		NotExamples: []string{
			"chmod -R 755 build",
			"chmod 777 /tmp/x",
			"chmod -R u+w src",
			"chmod -R go-w .",
			"chmod +x script.sh",
		},
	},
	{
		ID: "chmod-system", Family: "filesystem", Severity: Hold,
		Message:  "chmod of the root, a system directory, the home directory or a parent of the project breaks the system or the account's security",
		Hint:     "change the mode of the specific file you need, inside the project",
		Programs: []string{"chmod"},
		Command: func(x *Ctx, c *parse.Command) bool {
			m, rec, ops := chmodArgs(c)
			mode := m.Value
			for _, op := range ops {
				p := x.place(c, op)
				if p == PlaceUnknown || !rec && userDevice(abs(x.dirOf(c), op.Value)) {
					continue
				}
				if rec && p.Broad() || worldWritable(mode) && (p.Broad() || p == PlaceOutside) {
					return true
				}
			}
			return false
		},
		Raw: `\bchmod\s+(-[a-zA-Z]*R|--recursive)[^|;&\n]*\s(/|~)\S*`,
		Examples: []string{
			"chmod -R 700 /",
			"chmod -R 755 /usr",
			"chmod 777 /etc/passwd",
			"chmod 777 ~",
			"chmod -R g-rwx ~",
			"chmod 666 ~/.bashrc",
			"sudo chmod -R 755 /var/www/html",
		},
		NotExamples: []string{
			"chmod 600 ~/.ssh/id_ed25519",
			"chmod +x /usr/local/bin/tool",
			"chmod -R 700 ~/.ssh",
			"chmod -R 755 dist",
			"chmod 644 README.md",
			"sudo chmod 666 /dev/ttyUSB0",
			"sudo chmod a+rw /dev/kvm",
		},
	},
	{
		ID: "chown-system", Family: "filesystem", Severity: Hold,
		Message:  "recursive chown of the root, a system directory, the home directory or a parent of the project breaks the system",
		Hint:     "change the owner of the specific directory you need, inside the project",
		Programs: []string{"chown", "chgrp"},
		Command: func(x *Ctx, c *parse.Command) bool {
			if c.Row != "chown" || !c.Flag("recursive") {
				return false
			}
			for _, op := range ownedFiles(c) {
				if p := x.place(c, op); p.Broad() && p != PlaceUnknown {
					return true
				}
			}
			return false
		},
		Raw: `\bch(own|grp)\s+(-[a-zA-Z]*R|--recursive)[^|;&\n]*\s(/|~)\S*`,
		Examples: []string{
			"chown -R nobody /",
			"sudo chown -R $USER /usr/local",
			"chown -R user:user ~",
			"chgrp -R staff /etc",
			"chown user -R /var",
		},
		NotExamples: []string{
			"chown -R user:user .",
			"sudo chown -R user ~/.npm",
			"chown user /etc/x.conf",
			"chown -R 1000:1000 ./data",
		},
	},
	{
		ID: "mv-system", Family: "filesystem", Severity: Hold,
		Message:  "moving the root, the home directory, a parent of the project or a system directory away breaks the system; moving into /dev/null destroys the file",
		Hint:     "move the specific files you mean, and never to /dev/null; delete a file with rm",
		Programs: []string{"mv"},
		Command:  mvDangerous,
		Raw:      `\bmv\s+[^|;&\n]*(\s(/|~|/etc|/usr|/bin|/boot|/lib)\s|\s/dev/null\b)`,
		Examples: []string{
			"mv / /tmp/root",
			"mv ~ /tmp/home",
			"mv /etc /etc.old",
			"sudo mv /usr/bin /tmp",
			"mv important.db /dev/null",
			"mv -t /tmp ~",
			"mv .. /tmp/x",
		},
		NotExamples: []string{
			"mv a.txt b.txt",
			"mv build /tmp/old-build",
			"mv /etc/x.conf /etc/x.conf.bak",
			"mv ~/Downloads/file.zip .",
		},
	},
	{
		ID: "rsync-delete-dangerous", Family: "filesystem", Severity: Hold, Bounded: true,
		Message:  "rsync --delete removes everything in the destination that the source lacks, and the destination is outside the project",
		Hint:     "sync into a directory inside the project, or run with --dry-run first and without --delete",
		Programs: []string{"rsync"},
		Command: func(x *Ctx, c *parse.Command) bool {
			if !c.Flag("deletes") && !c.Flag("moves") || c.Flag("dry-run") {
				return false
			}
			ops := c.Operands(parse.RoleData)
			if len(ops) < 2 {
				return false
			}
			dst := ops[len(ops)-1]
			if remoteSpec(dst.Value) {
				return false
			}
			return x.place(c, dst).Dangerous()
		},
		Raw: `\brsync\b[^|;&\n]*--del[^|;&\n]*\s(/|~)\S*\s*$`,
		Examples: []string{
			"rsync -a --delete empty/ ~/",
			"rsync -av --delete ./dist/ /var/www/html/",
			"rsync -a --delete-after src/ /",
		},
		NotExamples: []string{
			"rsync -a --delete src/ build/",
			"rsync -av --delete dist/ host:/srv/app/",
			"rsync -a --delete --dry-run src/ /srv/x/",
			"rsync -a src/ /tmp/x/",
		},
	},
}

// rmArgs reads rm's arguments: whether it is recursive, and its operands.
// What rm's flags mean is its program table row's (parse.Program.Flags):
// parse records the meanings (rm / -rf, rm --rec, a flag word whose value
// is not known) and gives the operands RoleDeleted.
func rmArgs(c *parse.Command) (recursive bool, ops []parse.Word) {
	if c.Name == "rm" {
		return c.Flag("recursive"), c.Operands(parse.RoleDeleted)
	}
	// A row's deleted operands (rimraf's, tar --remove-files, zip -m):
	// recursive where the row says the role takes a tree or a flag says
	// recursive.
	for _, ra := range c.Roles {
		if ra.Role == parse.RoleDeleted {
			ops = append(ops, ra.Word)
			recursive = recursive || ra.Lang == "tree" || c.Flag("recursive")
		}
	}
	return recursive, ops
}

// rmRecursive reports whether c is a recursive rm with an operand whose
// place satisfies pred.
func rmRecursive(x *Ctx, c *parse.Command, pred func(Place) bool) bool {
	rec, ops := rmArgs(c)
	if !rec {
		return false
	}
	for _, op := range ops {
		if pred(x.place(c, op)) {
			return true
		}
	}
	return false
}

// findDeletes reports whether find deletes what it finds: -delete, or
// -exec/-execdir/-ok/-okdir of rm, unlink or shred.
func findDeletes(c *parse.Command) bool {
	if c.Flag("deletes") {
		return true
	}
	for _, p := range findRuns(c) {
		switch baseName(p.Value) {
		case "rm", "unlink", "shred", "srm":
			return true
		}
	}
	return false
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// remoteSpec reports whether an rsync or scp operand names another host
// (host:path, user@host:path, rsync://…).
func remoteSpec(v string) bool {
	if strings.Contains(v, "://") {
		return true
	}
	i := strings.IndexByte(v, ':')
	return i > 0 && !strings.Contains(v[:i], "/")
}

// chmodArgs returns what chmod's row reads: the mode (its operand of
// LANG "mode"; none when --reference gives it), whether it is recursive,
// and the files.
func chmodArgs(c *parse.Command) (mode parse.Word, recursive bool, files []parse.Word) {
	for _, ra := range c.Roles {
		switch {
		case ra.Opt != "" || ra.Role != parse.RoleData:
		case ra.Lang == "mode":
			mode = ra.Word
		default:
			files = append(files, ra.Word)
		}
	}
	return mode, c.Flag("recursive"), files
}

// worldWritable reports whether a chmod mode lets every user write:
// an octal mode with the others' write bit, or a symbolic clause that
// adds or sets w for others or all.
func worldWritable(mode string) bool {
	if mode == "" {
		return false
	}
	if strings.Trim(mode, "01234567") == "" {
		last := mode[len(mode)-1] - '0'
		return last&2 != 0 // octal modes are right-aligned: the last digit is the others'

	}
	for _, clause := range strings.Split(mode, ",") {
		i := strings.IndexAny(clause, "+=")
		if i < 0 {
			continue
		}
		who, perms := clause[:i], clause[i+1:]
		if (who == "" || strings.ContainsAny(who, "ao")) && strings.ContainsRune(perms, 'w') {
			if who == "" && clause[i] == '+' {
				continue // "+w" is limited by the umask, which keeps others out
			}
			return true
		}
	}
	return false
}

// mvDangerous reports a mv that takes a critical tree away or throws a
// file into /dev/null.
func mvDangerous(x *Ctx, c *parse.Command) bool {
	ops := c.Operands(parse.RoleData)
	var target []string
	for _, w := range c.OptionValues("-t") {
		target = append(target, w.Value)
	}
	var srcs []parse.Word
	switch {
	case len(target) > 0:
		srcs = ops
		if anyString(target, "/dev/null") {
			return true
		}
	case len(ops) >= 2:
		srcs = ops[:len(ops)-1]
		if ops[len(ops)-1].Value == "/dev/null" {
			return true
		}
	}
	for _, s := range srcs {
		switch x.place(c, s) {
		case PlaceRoot, PlaceHome, PlaceParent:
			return true
		case PlaceSystem:
			if p := abs(x.dirOf(c), s.Value); p != "" && !s.Glob && strings.Count(p, "/") <= 2 && isSystemTree(p) {
				return true
			}
		}
	}
	return false
}

// isSystemTree reports whether p is a system directory itself or one
// directly in it (/usr, /usr/bin), not a file deeper down.
func isSystemTree(p string) bool {
	switch p {
	case "/etc", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/boot", "/var", "/opt", "/root",
		"/home", "/dev", "/proc", "/sys", "/srv", "/usr/bin", "/usr/lib", "/usr/sbin", "/usr/local",
		"/usr/share", "/var/lib", "/var/log", "/etc/ssh", "/etc/systemd":
		return true
	}
	return false
}

func anyString(ss []string, v string) bool {
	for _, s := range ss {
		if s == v {
			return true
		}
	}
	return false
}

// userDevice reports a character device people open every day (serial
// ports, the KVM device, cameras, sound): making one usable by everyone
// is a common setup step, not a system change. Disks and memory are not
// among them.
func userDevice(p string) bool {
	for _, pre := range []string{"/dev/tty", "/dev/cu.", "/dev/kvm", "/dev/video", "/dev/snd/", "/dev/bus/usb/", "/dev/hidraw", "/dev/dri/", "/dev/net/tun", "/dev/uinput", "/dev/fuse"} {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return false
}

// ownStream reports whether w names one of the command's own descriptors
// (/dev/stdout, /dev/fd/1, /proc/self/fd/2): the file behind it is what the
// caller gave the command as its output, which it may truncate as under bash.
func ownStream(w parse.Word) bool {
	if !w.Literal() {
		return false
	}
	v := w.Value
	switch v {
	case "/dev/stdout", "/dev/stderr":
		return true
	}
	for _, pre := range []string{"/dev/fd/", "/proc/self/fd/"} {
		if n, ok := strings.CutPrefix(v, pre); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			return true
		}
	}
	return false
}
