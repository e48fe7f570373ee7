package main

import (
	"bytes"
	"errors"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/guard-exec/guard-exec/internal/rawread"
	"github.com/guard-exec/guard-exec/shim"
)

// No orphans. A guard killed by SIGKILL cannot end what its command
// started: the command's own process dies with it (shim's Pdeathsig), but
// its children are reparented and run on (`yes | tee f` kept writing). The
// command stays in the caller's process group and session, so that job
// control and `timeout -s KILL` work as under bash, which rules out
// killing a group; and a process tree cannot be walked once the guard is
// gone, since its subtree is reparented at once. So the command is started
// in a cgroup v2 of its own, made below the guard's cgroup where that is
// writable (as root, or in a cgroup delegated to the user, such as a
// systemd user session's), and a keeper watches it: a copy of guard-exec
// started as `guard-exec __keeper DIR` in a session of its own (terminal
// signals do not reach it), with a pipe from the guard as stdin. When the
// guard ends normally it moves what the command left running (`server &`)
// back to its own cgroup, removes the directory and writes a byte; the
// keeper exits. When the pipe reaches end of file with no byte, the guard
// died: the keeper kills everything in the cgroup (cgroup.kill) and removes
// it. The keeper starts once the command has run for keeperDelay (20 ms),
// so that the usual short command pays only a mkdir and an rmdir (tried
// first: it succeeds only on an empty cgroup, so cgroup.procs is read
// only when something was left); a guard
// killed before that leaves its command's children running, as before, in
// a cgroup that the next guard with the same pid kills. Nothing the command does to its pid, group, session or environment
// takes a process out of the cgroup; writing to cgroup.procs of another
// cgroup does, and needs the same rights as making the cgroup did.
//
// The command sees what it saw before: the same parent (the guard), group,
// session, signals and descriptors; /proc/self/cgroup names the new
// cgroup.
//
// Where no cgroup can be made (no cgroup v2, or not writable: a container,
// a user without a delegated subtree) the keeper still starts, and keeps
// the command's process tree instead: the guard is a child subreaper while
// the command runs (lineage.go), so everything the command starts stays
// below the guard, whatever it does to its group, session or environment
// (setsid, a double fork, env -i). The keeper looks at that tree when it
// starts and again every treeLook (a few milliseconds at first, then less
// often), and remembers every process it saw (pid and start time). When
// the guard died, the processes it remembers that still run are stopped,
// whatever is below them is found, and all of them are killed, in rounds
// until none is left. What this misses, and the cgroup does not: a process
// started since the keeper's last look whose parent died in that time,
// and everything of a guard killed before its keeper started.

// noCgroupEnv makes guard-exec behave as where no cgroup can be made (the
// tests use it, as GUARD_EXEC_SANDBOX_NO_LANDLOCK for Landlock).
const noCgroupEnv = "GUARD_EXEC_NO_CGROUP"

// keeperArg is the first argument of guard-exec started as a keeper.
const keeperArg = "__keeper"

// cgroup2Magic is CGROUP2_SUPER_MAGIC, statfs's type of a cgroup v2 mount.
const cgroup2Magic = 0x63677270

// keeper is the cgroup a command runs in and the pipe to its keeper.
type keeper struct {
	dir    string
	parent string
	fd     *os.File // the directory, for CLONE_INTO_CGROUP
	done   *os.File // the write end of the keeper's stdin, once it started

	// emptied is set when the command's cgroup was removed right after
	// the command ended: nothing was left in it.
	emptied bool

	timer    *time.Timer
	mu       sync.Mutex // guards the keeper's start against release
	released bool
	keeper   int // the keeper's pid, once started
}

// pid is the keeper's pid; 0 without one.
func (k *keeper) pid() int {
	if k == nil {
		return 0
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.keeper
}

// cgroupRoot is where cgroup v2 is mounted: /sys/fs/cgroup on a unified
// system, /sys/fs/cgroup/unified on a hybrid one.
func cgroupRoot() string {
	for _, d := range []string{"/sys/fs/cgroup", "/sys/fs/cgroup/unified"} {
		var st unix.Statfs_t
		if unix.Statfs(d, &st) == nil && st.Type == cgroup2Magic {
			return d
		}
	}
	return ""
}

// ownCgroup is the guard's cgroup v2 directory, from /proc/self/cgroup's
// "0::/path" line.
func ownCgroup() string {
	root := cgroupRoot()
	if root == "" {
		return ""
	}
	b, err := rawread.File("/proc/self/cgroup", 0, 64<<10)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok && strings.HasPrefix(p, "/") && !strings.Contains(p, "..") {
			return filepath.Join(root, p)
		}
	}
	return ""
}

// startKeeper makes the command's cgroup, sets spec to start the command
// there and has the keeper started after keeperDelay. It returns nil,
// having changed nothing, where no cgroup can be made.
func startKeeper(spec *shim.Spec) *keeper {
	parent := ""
	if os.Getenv(noCgroupEnv) != "1" {
		parent = ownCgroup()
	}
	if parent == "" {
		return startTreeKeeper()
	}
	dir := filepath.Join(parent, "guard-exec-"+strconv.Itoa(os.Getpid()))
	err := unix.Mkdir(dir, 0o755)
	if errors.Is(err, unix.EEXIST) {
		// Left by an earlier guard with this pid, killed before its keeper
		// started (keeperDelay): that guard is dead, and what is left in it
		// is its command's orphans.
		_ = os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0)
		_ = unix.Rmdir(dir)
		err = unix.Mkdir(dir, 0o755)
	}
	if err != nil {
		return startTreeKeeper() // not writable here
	}
	k := &keeper{dir: dir, parent: parent}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		_ = unix.Rmdir(dir)
		return nil
	}
	k.fd = os.NewFile(uintptr(fd), dir)
	k.later(func() []string { return []string{dir} })
	spec.Cgroup = k.fd
	return k
}

// startTreeKeeper is startKeeper where no cgroup can be made: the keeper
// keeps the guard's process tree.
func startTreeKeeper() *keeper {
	k := &keeper{}
	// The guard's start is read only when the keeper starts: most
	// commands end before it does.
	k.later(func() []string {
		since, ok := startTicks(os.Getpid())
		if !ok {
			return nil
		}
		return []string{treeArg + strconv.Itoa(os.Getpid()) + "," + strconv.FormatUint(since, 10)}
	})
	return k
}

// treeArg starts the keeper's argument where it keeps the guard's tree.
const treeArg = "tree="

// later has the keeper started with the arguments args returns (none:
// not started) once the command has run for keeperDelay: a process
// started beside every command cost milliseconds of each `-c true` on a
// busy machine, and most commands are over by then.
func (k *keeper) later(args func() []string) {
	k.timer = time.AfterFunc(keeperDelay, func() {
		k.mu.Lock()
		defer k.mu.Unlock()
		if k.released {
			return
		}
		argv := args()
		if argv == nil {
			return
		}
		r, w, err := os.Pipe()
		if err != nil {
			return
		}
		if k.keeper = spawnKeeper(argv, r); k.keeper != 0 {
			k.done = w
		} else {
			w.Close()
		}
		r.Close()
	})
}

// keeperDelay is how long a command runs before its keeper starts.
const keeperDelay = 20 * time.Millisecond

// spawnKeeper starts `guard-exec __keeper ARGS…` with r as its stdin, in a
// session of its own, and returns its pid (0 when it could not start).
func spawnKeeper(args []string, r *os.File) int {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return 0
	}
	defer null.Close()
	// syscall.StartProcess, not os.StartProcess: the latter's first use
	// forks a test process to see that pidfds work (shim/spawn_linux.go),
	// and the keeper needs no pidfd: it exits on its own, and whoever reaps
	// orphans reaps it.
	pid, _, err := syscall.StartProcess("/proc/self/exe", append([]string{"guard-exec", keeperArg}, args...), &syscall.ProcAttr{
		Dir: "/", Env: []string{}, Files: []uintptr{r.Fd(), null.Fd(), null.Fd()},
		Sys: &syscall.SysProcAttr{Setsid: true},
	})
	runtime.KeepAlive(r)
	if err != nil {
		return 0
	}
	return pid
}

// procs lists the processes in the cgroup.
func (k *keeper) procs() []int {
	b, _ := rawread.File(filepath.Join(k.dir, "cgroup.procs"), 0, 1<<20)
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// vacated reports whether the cgroup is gone: it tries to remove it, which
// the kernel refuses (EBUSY) while a process is in it. After the command
// ended this is the one system call the usual command pays, where
// listing cgroup.procs for the lineage and again for release cost two
// opens and reads of a cgroup file.
func (k *keeper) vacated() bool {
	if k.dir == "" {
		return true
	}
	if !k.emptied {
		err := unix.Rmdir(k.dir)
		k.emptied = err == nil || errors.Is(err, unix.ENOENT)
	}
	return k.emptied
}

// left lists what the command left running, for the lineage: everything in
// its cgroup once it has ended.
func (k *keeper) left() []procKey {
	if k.vacated() {
		return nil
	}
	var out []procKey
	for _, pid := range k.procs() {
		if st, ok := startTicks(pid); ok {
			out = append(out, procKey{pid, st})
		}
	}
	return out
}

// release ends the keeper's watch after the command ended: what the
// command left running is meant to outlive it (`server &`) and goes back to
// the guard's own cgroup, the directory is removed, and the keeper is told
// to exit without killing.
func (k *keeper) release() {
	if k == nil {
		return
	}
	procs := filepath.Join(k.parent, "cgroup.procs")
	for i := 0; i < 64 && k.dir != "" && !k.vacated(); i++ {
		for _, pid := range k.procs() {
			_ = os.WriteFile(procs, []byte(strconv.Itoa(pid)), 0)
		}
	}
	k.remove()
	k.mu.Lock()
	k.released = true
	k.timer.Stop()
	if k.done != nil {
		_, _ = k.done.Write([]byte{1})
		k.done.Close()
	}
	k.mu.Unlock()
}

// remove closes and removes the cgroup directory, when it is empty.
func (k *keeper) remove() {
	if k.fd != nil {
		k.fd.Close()
	}
	if k.dir != "" && !k.emptied {
		_ = unix.Rmdir(k.dir)
	}
}

// keeperMain is guard-exec started as a keeper of the cgroup dir (or of
// the tree of guard "tree=PID,START"): it waits for its guard's byte, or
// for end of file when the guard died, and then kills everything in the
// cgroup and removes it (or everything of the tree).
func keeperMain(arg string) int {
	spec, byTree := strings.CutPrefix(arg, treeArg)
	var guard int
	var since uint64
	switch {
	case len(os.Args) != 3:
		return 2
	case byTree:
		p, t, _ := strings.Cut(spec, ",")
		var err1, err2 error
		guard, err1 = strconv.Atoi(p)
		since, err2 = strconv.ParseUint(t, 10, 64)
		if err1 != nil || err2 != nil || guard <= 1 {
			return 2
		}
	case filepath.Base(arg) == "" || !strings.HasPrefix(filepath.Base(arg), "guard-exec-"):
		return 2
	}
	signal.Ignore(syscall.SIGINT, syscall.SIGQUIT, syscall.SIGHUP, syscall.SIGPIPE)
	ended := make(chan bool, 1)
	go func() {
		var b [1]byte
		n, _ := os.Stdin.Read(b[:])
		ended <- n == 1 // a byte: the guard ended normally and took the cgroup down
	}()
	if !byTree {
		if <-ended {
			return 0
		}
		killCgroup(arg)
		return 0
	}
	keepTree(procKey{guard, since}, ended, nil) // keeper_tree.go
	return 0
}

// killCgroup kills every process in dir and removes it: cgroup.kill
// (Linux 5.14) kills them all at once, forks in flight included; on older
// kernels the listed processes are killed until none is left.
func killCgroup(dir string) {
	_ = os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if err := unix.Rmdir(dir); err == nil || errors.Is(err, unix.ENOENT) || time.Now().After(deadline) {
			return
		}
		b, _ := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
		for _, f := range bytes.Fields(b) {
			if pid, err := strconv.Atoi(string(f)); err == nil && pid > 1 {
				_ = unix.Kill(pid, unix.SIGKILL)
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
}
