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
// gone, since its subtree is reparented at once. So once the command has
// run for keeperDelay (20 ms), everything below the guard is moved into a
// cgroup v2 of its own, made below the guard's cgroup where that is
// writable (as root, or in a cgroup delegated to the user, such as a
// systemd user session's), and a keeper watches it: a copy of guard-exec
// started as `guard-exec __keeper DIR` in a session of its own (terminal
// signals do not reach it), with a pipe from the guard as stdin. Until
// then the guard is a child subreaper (lineage.go), so nothing the command
// started has left its tree, whatever it did to its group or session, and
// the move takes it all (in rounds, until none is left outside). When the
// guard ends normally it moves what the command left running (`server &`)
// back to its own cgroup, removes the directory and writes a byte; the
// keeper exits. When the pipe reaches end of file with no byte, the guard
// died: the keeper kills everything in the cgroup (cgroup.kill) and removes
// it. The usual short command, over before keeperDelay, pays for nothing
// of this: starting every command in its cgroup (CLONE_INTO_CGROUP) and
// removing it cost a mkdir and an rmdir each time, 0.13 ms of wall time and
// 0.12 ms of CPU of a fresh `-c true` (median of 300 interleaved rounds).
// A guard killed before keeperDelay leaves its command's children running,
// as it did before. Nothing the command does to its pid, group, session
// or environment takes a process out of the cgroup; writing to
// cgroup.procs of another cgroup does, and needs the same rights as
// making the cgroup did.
//
// The command sees what it saw before: the same parent (the guard), group,
// session, signals and descriptors; /proc/self/cgroup names the new
// cgroup once it was moved.
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
	dir    string // the command's cgroup, once made
	parent string
	done   *os.File // the write end of the keeper's stdin, once it started

	// emptied is set when the command's cgroup was removed right after
	// the command ended: nothing was left in it.
	emptied bool

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

// startKeeper has the command's keeper started after keeperDelay, with
// the command moved into a cgroup of its own then, where one can be made
// (cgroupKeeper), or keeping the guard's process tree where none can.
// Until then the command runs where the guard does, and the usual short
// command pays for no cgroup at all (see above). It sets spec's Slow: the
// goroutine that waits for the command starts the keeper.
func startKeeper(spec *shim.Spec) *keeper {
	k := &keeper{}
	k.later(spec, func() []string {
		if os.Getenv(noCgroupEnv) != "1" {
			if dir := k.cgroupKeeper(); dir != "" {
				return []string{dir}
			}
		}
		// The guard's start is read only when the keeper starts: most
		// commands end before it does.
		since, ok := startTicks(os.Getpid())
		if !ok {
			return nil
		}
		return []string{treeArg + strconv.Itoa(os.Getpid()) + "," + strconv.FormatUint(since, 10)}
	})
	return k
}

// cgroupKeeper makes the command's cgroup below the guard's and moves
// everything below the guard into it: the command and what it started,
// which stays below the guard whatever it did to its group or session
// (the guard is a child subreaper, lineage.go). It moves them in rounds
// until a round finds none left outside, so that a child forked while its
// parent moved follows it. It returns the directory, or "" where no
// cgroup can be made. Called with k.mu held.
func (k *keeper) cgroupKeeper() string {
	parent := ownCgroup()
	if parent == "" {
		return ""
	}
	dir := filepath.Join(parent, "guard-exec-"+strconv.Itoa(os.Getpid()))
	err := unix.Mkdir(dir, 0o755)
	if errors.Is(err, unix.EEXIST) {
		// Left by an earlier guard with this pid, killed after its
		// keeper had died too: what is left in it is that command's.
		_ = os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0)
		_ = unix.Rmdir(dir)
		err = unix.Mkdir(dir, 0o755)
	}
	if err != nil {
		return "" // not writable here
	}
	procs, err := os.OpenFile(filepath.Join(dir, "cgroup.procs"), os.O_WRONLY, 0)
	if err != nil {
		_ = unix.Rmdir(dir)
		return ""
	}
	defer procs.Close()
	moved := map[procKey]bool{}
	for range 64 {
		more := false
		for _, p := range descendants(os.Getpid()) {
			if !moved[p] {
				moved[p], more = true, true
				_, _ = procs.WriteString(strconv.Itoa(p.pid))
			}
		}
		if !more {
			break
		}
	}
	k.dir, k.parent = dir, parent
	return dir
}

// treeArg starts the keeper's argument where it keeps the guard's tree.
const treeArg = "tree="

// later has the keeper started with the arguments args returns (none:
// not started) once the command has run for keeperDelay: a process
// started beside every command cost milliseconds of each `-c true` on a
// busy machine, and most commands are over by then. shim calls it from
// the goroutine that waits for the command (spec.Slow), after waiting on
// the command's pidfd for keeperDelay: a runtime timer would set up the
// poller and wake a thread in every guard, for the usual command that is
// over first.
func (k *keeper) later(spec *shim.Spec, args func() []string) {
	spec.SlowAfter = keeperDelay
	spec.Slow = func() {
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
	}
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
	k.settle()
	procs := filepath.Join(k.parent, "cgroup.procs")
	for i := 0; i < 64 && k.dir != "" && !k.vacated(); i++ {
		for _, pid := range k.procs() {
			_ = os.WriteFile(procs, []byte(strconv.Itoa(pid)), 0)
		}
	}
	k.remove()
	k.mu.Lock()
	if k.done != nil {
		_, _ = k.done.Write([]byte{1})
		k.done.Close()
	}
	k.mu.Unlock()
}

// settle is called once the command has ended: a keeper not started yet
// is not started any more, and one starting has finished, so that the
// cgroup, if one was made, is known.
func (k *keeper) settle() {
	k.mu.Lock()
	k.released = true
	k.mu.Unlock()
}

// inCgroup reports, once the command has ended, whether it was moved into
// a cgroup of its own.
func (k *keeper) inCgroup() bool {
	if k == nil {
		return false
	}
	k.settle()
	return k.dir != ""
}

// remove removes the cgroup directory, when it is empty.
func (k *keeper) remove() {
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
