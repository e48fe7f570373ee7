package policy

import (
	"path/filepath"
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// systemDirs hold the operating system and what the package manager
// installed: a write there changes the machine for every user, so it is
// held even when it only creates a file. /dev is not among them: writes to
// /dev/null, /dev/stderr and /dev/fd/N are routine, and writes to block
// devices are the disk rules' business.
var systemDirs = []string{
	"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/opt",
	"/var/lib", "/var/spool", "/var/db", "/srv", "/root", "/sys", "/proc", "/snap",
	"/System", "/Library", "/private/etc", "/private/var/db",
}

// systemPath reports whether p is in a system directory. The home
// directory is never a system path, even when it is /root; a process's
// own descriptors under /proc (/proc/self/fd/1) are not either.
func (x *Ctx) systemPath(p string) bool {
	if x.Home != "" && within(p, x.Home) {
		return false
	}
	if within(p, "/proc") && procFd(p) {
		return false
	}
	for _, d := range systemDirs {
		if within(p, d) {
			return true
		}
	}
	return false
}

// holdsSystem reports whether the directory p holds a system directory
// (/ holds them all, /var holds /var/lib), so that files landing in it
// under names the command does not show can land in one. The home
// directory and what is in it never do.
func (x *Ctx) holdsSystem(p string) bool {
	if x.Home != "" && within(p, x.Home) {
		return false
	}
	for _, d := range systemDirs {
		if within(d, p) {
			return true
		}
	}
	return false
}

// procFd reports whether p is /proc/self/fd/N, /proc/PID/fd/N or the like.
func procFd(p string) bool {
	rest := strings.TrimPrefix(p, "/proc/")
	_, after, ok := strings.Cut(rest, "/")
	return ok && (after == "fd" || strings.HasPrefix(after, "fd/"))
}

// Persistence points are files and directories whose content runs later
// without anyone asking: at login, at boot, on a schedule, on the next
// ssh connection or git command. A write there is held even inside the
// allowed roots.
var (
	// homePersistFiles are relative to the home directory.
	homePersistFiles = []string{
		".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zprofile",
		".zshenv", ".zlogin", ".zlogout", ".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".login", ".xprofile",
		".xinitrc", ".xsession", ".xsessionrc", ".pam_environment", ".gitconfig", ".config/git/config",
		".config/fish/config.fish", ".ssh/authorized_keys", ".ssh/authorized_keys2", ".ssh/config", ".ssh/rc",
		".ssh/environment", ".config/environment.d", ".config/systemd/user", ".local/share/systemd/user",
		".config/autostart", ".config/fish/conf.d", ".config/fish/functions", ".bashrc.d", ".zshrc.d",
		"Library/LaunchAgents", ".config/git/hooks", ".config/upstart",
		// Editors and tools that run what their startup files say: a vim
		// autocmd, an emacs init form, a VS Code terminal or task setting,
		// direnv's own library, a tmux run-shell.
		".vimrc", ".gvimrc", ".exrc", ".vim/plugin", ".vim/pack", ".vim/autoload", ".config/nvim", ".emacs",
		".emacs.d/init.el", ".emacs.d/early-init.el", ".config/emacs/init.el", ".config/Code/User/settings.json",
		".config/Code/User/tasks.json", ".config/Cursor/User/settings.json",
		"Library/Application Support/Code/User/settings.json", ".direnvrc", ".config/direnv/direnvrc",
		".config/direnv/lib", ".tmux.conf", ".config/tmux/tmux.conf",
	}
	// systemPersistPaths are absolute.
	systemPersistPaths = []string{
		"/etc/profile", "/etc/profile.d", "/etc/bash.bashrc", "/etc/bashrc", "/etc/zshrc", "/etc/zsh",
		"/etc/environment", "/etc/sudoers", "/etc/sudoers.d", "/etc/crontab", "/etc/cron.d", "/etc/cron.daily",
		"/etc/cron.hourly", "/etc/cron.weekly", "/etc/cron.monthly", "/etc/anacrontab", "/var/spool/cron",
		"/etc/systemd", "/lib/systemd", "/usr/lib/systemd", "/etc/init.d", "/etc/rc.local", "/etc/init",
		"/etc/xdg/autostart", "/etc/ld.so.preload", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/pam.d",
		"/etc/ssh/sshd_config", "/etc/ssh/sshd_config.d", "/etc/gitconfig", "/etc/udev/rules.d",
		"/Library/LaunchAgents", "/Library/LaunchDaemons",
	}
)

// persistencePoint reports whether p is a persistence point or inside one.
func (x *Ctx) persistencePoint(p string) bool {
	if gitCodePath(p) || pythonStartupHook(p) {
		return true
	}
	if x.Home != "" && within(p, x.Home) && p != x.Home {
		rel := p[len(x.Home)+1:]
		for _, f := range homePersistFiles {
			if rel == f || strings.HasPrefix(rel, f+"/") {
				return true
			}
		}
	}
	for _, s := range systemPersistPaths {
		if within(p, s) {
			return true
		}
	}
	return false
}

// pythonStartupHook reports whether p is a file every Python start runs:
// a .pth file (its import lines run) or sitecustomize.py or
// usercustomize.py in a site-packages directory, a user's, a
// virtualenv's or the system's, or in a directory the line computes
// ("$(python3 -c 'import site; print(site.getusersitepackages())')/x.pth").
func pythonStartupHook(p string) bool {
	base := filepath.Base(p)
	if !strings.HasSuffix(base, ".pth") && base != "sitecustomize.py" && base != "usercustomize.py" {
		return false
	}
	dir := filepath.Dir(p)
	return strings.Contains(dir, "/site-packages") || strings.Contains(dir, "/dist-packages") || strings.Contains(dir, parse.Unknown)
}

// holdsPersistence reports whether the directory p contains persistence
// points, so that a command unpacking unknown files into it (tar -x -C ~,
// cp -r dotfiles ~/) can plant one: the home directory, ~/.ssh, ~/.config,
// a .git directory.
func (x *Ctx) holdsPersistence(p string) bool {
	if filepath.Base(p) == ".git" {
		return true
	}
	if x.Home != "" && within(x.Home, p) && p != "/" {
		return true // the home directory or one above it
	}
	if x.Home != "" && within(p, x.Home) {
		rel := p[len(x.Home)+1:]
		for _, f := range homePersistFiles {
			if strings.HasPrefix(f, rel+"/") {
				return true
			}
		}
	}
	for _, s := range systemPersistPaths {
		if within(s, p) && p != "/" {
			return true
		}
	}
	return false
}

// gitCodePath reports whether p is where a repository keeps what git runs
// by itself: the hooks directory and the config file (which can name a
// hooks path, a pager, an ssh command or a filter), in any repository —
// the project's own too, since a hook runs on the next git command.
func gitCodePath(p string) bool {
	i := strings.Index(p, "/.git/")
	if i < 0 {
		return false
	}
	rest := p[i+len("/.git/"):]
	for {
		if rest == "config" || rest == "hooks" || strings.HasPrefix(rest, "hooks/") {
			return true
		}
		// Submodules and linked worktrees: .git/modules/NAME/…, .git/worktrees/NAME/…
		var ok bool
		if rest, ok = cutRepoPrefix(rest); !ok {
			return false
		}
	}
}

func cutRepoPrefix(rest string) (string, bool) {
	for _, pre := range []string{"modules/", "worktrees/"} {
		if after, ok := strings.CutPrefix(rest, pre); ok {
			if _, tail, ok := strings.Cut(after, "/"); ok {
				return tail, true
			}
		}
	}
	return "", false
}
