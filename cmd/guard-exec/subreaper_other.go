//go:build !linux

package main

// becomeSubreaper does nothing here: the lineage reads Linux's /proc, and
// approve refuses every terminal on other systems (approve_tty_other.go).
func becomeSubreaper() {}
