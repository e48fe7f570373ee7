package main

import (
	"os"
	"strings"
	"syscall"
)

// fileKey names one version of a file: a write changes mtime or at least
// ctime, which no user-space call can set back.
func fileKey(fi os.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return strings.Join([]string{
		itoa(int64(st.Dev)), itoa(int64(st.Ino)), itoa(st.Size),
		itoa(st.Mtim.Nano()), itoa(st.Ctim.Nano()),
	}, ":")
}
