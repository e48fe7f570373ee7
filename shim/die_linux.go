package shim

import (
	"os"
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// DieBy ends the guard by sig, the signal the command died by, so that its caller
// sees what it would have seen from bash: a Python returncode of -15, a shell loop
// that stops at a ^C. The signal's default disposition is restored first (the Go
// runtime has its own handler for most signals, which would turn a SIGSEGV sent by
// kill into nothing or a stack dump) and core dumps are switched off: the core was
// the command's to leave, and a core of the guard would be a lie. DieBy returns
// only if the signal did not end the process (SIGCHLD, a stop); the caller then
// exits with 128+sig as bash's caller would have seen.
func DieBy(sig syscall.Signal) {
	_ = unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{})
	signalDefault(sig)
	runtime.LockOSThread()
	// Unblock it on this thread and send it here, so no other thread takes it
	// while it is still masked there.
	var set unix.Sigset_t
	set.Val[(sig-1)/64] = 1 << ((uint(sig) - 1) % 64)
	_ = unix.PthreadSigmask(unix.SIG_UNBLOCK, &set, nil)
	_ = unix.Tgkill(os.Getpid(), unix.Gettid(), sig)
	if sig != syscall.SIGKILL {
		_ = unix.Kill(os.Getpid(), sig)
	}
}

// kernelSigaction is struct sigaction as the rt_sigaction system call takes it on
// Linux's 64-bit ports (amd64, arm64, riscv64): handler, flags, restorer, mask.
type kernelSigaction struct {
	handler  uintptr
	flags    uint64
	restorer uintptr
	mask     uint64
}

// signalDefault sets sig's disposition to SIG_DFL behind the Go runtime's back;
// the process is about to die by it, so the runtime never needs its handler again.
func signalDefault(sig syscall.Signal) {
	if sig == syscall.SIGKILL || sig == syscall.SIGSTOP {
		return
	}
	_ = rtSigaction(sig, &kernelSigaction{}, nil) // handler 0 is SIG_DFL
}

// rtSigaction is the rt_sigaction system call: sets act (when not nil) and
// returns the previous action in old (when not nil).
func rtSigaction(sig syscall.Signal, act, old *kernelSigaction) error {
	_, _, errno := unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(act)),
		uintptr(unsafe.Pointer(old)), 8, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
