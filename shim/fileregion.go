package shim

import (
	"os"

	"golang.org/x/sys/unix"
)

// fileRegion is a regular file the command writes to directly (`guard-exec -c …
// > log`). It is digested after the command exited, from the region the command
// wrote: from the file offset at the start to the offset at the end (for a file
// opened with O_APPEND, from its size at the start to its size at the end),
// clipped to the file's size. Whatever else wrote the file meanwhile through the
// same region (a second writer of an append-only log) is in the digest too; a
// command that reopened the file and rewrote it from the start (`echo x
// >/dev/stdout`) shows only from the old offset on.
type fileRegion struct {
	fd     int
	start  int64
	append bool
}

// newFileRegion notes where output to f starts, or returns nil when f is not a
// regular file (nothing to read back: /dev/null, a terminal, a device).
func newFileRegion(f *os.File) *fileRegion {
	fd := rawFd(f)
	var st unix.Stat_t
	if fd < 0 || unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil
	}
	r := &fileRegion{fd: fd}
	if fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0); err == nil && fl&unix.O_APPEND != 0 {
		r.append, r.start = true, st.Size
		return r
	}
	if off, err := unix.Seek(fd, 0, 1); err == nil {
		r.start = off
	}
	return r
}

// fileHashLimit bounds how much of a file's region is read back for the hash: the
// command has exited, and the caller waits for the guard while it reads. Head and
// tail are always read; Stream.Hashed says what the hash covers.
const fileHashLimit = 16 << 20

// stream reads the region back and digests it.
func (r *fileRegion) stream(keep int) Stream {
	var st unix.Stat_t
	if unix.Fstat(r.fd, &st) != nil {
		return Stream{}
	}
	end := st.Size
	if !r.append {
		if off, err := unix.Seek(r.fd, 0, 1); err == nil {
			end = min(off, st.Size)
		}
	}
	n := max(end-r.start, 0)
	if n == 0 {
		// Nothing was written: the digest of no bytes, without opening the
		// file again (an open through /proc, registered with the runtime's
		// poller, and a 64 KiB buffer, for the usual `-c true > log`).
		return newDigest(keep).stream()
	}
	// The caller's descriptor may be write-only (`> log`): read through a new
	// open of the same file.
	f, err := os.Open(fdPath(r.fd))
	if err != nil {
		return Stream{Bytes: n}
	}
	defer f.Close()
	d := newDigest(keep)
	buf := make([]byte, 64<<10)
	off, hashEnd := r.start, r.start+min(n, fileHashLimit)
	for off < hashEnd {
		m, err := f.ReadAt(buf[:min(int64(len(buf)), hashEnd-off)], off)
		d.write(buf[:m], true)
		off += int64(m)
		if err != nil || m == 0 {
			break
		}
	}
	if off < end { // past the hash limit: only the tail is read
		tailAt := max(off, end-int64(keep))
		d.total += tailAt - off
		m, _ := f.ReadAt(buf[:min(int64(len(buf)), end-tailAt)], tailAt)
		d.write(buf[:m], false)
	}
	return d.stream()
}
