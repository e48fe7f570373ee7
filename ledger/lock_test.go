package ledger

import (
	"strings"
	"syscall"
	"testing"
	"time"
)

// A holder that never lets go (a guard stopped with SIGSTOP mid-append)
// must not hang every command after it: the wait is bounded, the error
// says why, and once the holder lets go appends work again.
func TestLockTimeout(t *testing.T) {
	l := newLedger(t, Options{LockTimeout: 100 * time.Millisecond})
	pair(t, l, "a", 0)
	holder, err := openRaw(l.path(lockName), syscall.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(holder.fd, syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = l.Append(&Record{Kind: KindExec})
	if err == nil || !strings.Contains(err.Error(), "held by another process") {
		t.Fatalf("Append under a held lock: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("gave up after %v", d)
	}
	if _, _, err := l.Tail(1); err == nil {
		t.Error("Tail under an exclusive lock did not time out")
	}
	holder.Close()
	if id := pair(t, l, "b", 0); id != "ev-0002" {
		t.Errorf("after release: %s", id)
	}
}
