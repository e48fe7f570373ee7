package main

import (
	"errors"
	"os/exec"
	"testing"
	"time"
)

// TestHasChildrenDoesNotReap: a child that has exited is still a child
// (not yet reaped), and asking does not reap it: its own Wait still gets
// its exit status.
func TestHasChildrenDoesNotReap(t *testing.T) {
	c := exec.Command("sh", "-c", "exit 3")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	// The child exits at once; ask a few times while it runs and after.
	for i := 0; i < 5; i++ {
		if !hasChildren() {
			t.Fatal("hasChildren is false with a child started")
		}
		time.Sleep(20 * time.Millisecond)
	}
	var ee *exec.ExitError
	if err := c.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("Wait after hasChildren: %v, want exit status 3 (the child was reaped by the question)", err)
	}
}
