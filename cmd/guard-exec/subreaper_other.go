//go:build !linux

package main

// becomeSubreaper does nothing here: the lineage reads Linux's /proc, and
// approve refuses every terminal on other systems (approve_tty_other.go).
func becomeSubreaper() {}

// hasChildren answers false: there is no lineage to record here.
func hasChildren() bool { return false }
