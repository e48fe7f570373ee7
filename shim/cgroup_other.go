//go:build !linux

package shim

import (
	"os"
	"syscall"
)

// intoCgroup does nothing: cgroups are Linux's.
func intoCgroup(*syscall.SysProcAttr, *os.File) bool { return false }

func outOfCgroup(*syscall.SysProcAttr) {}
