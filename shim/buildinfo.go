package shim

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
)

// goMainPath reads the main package path from the Go build information of
// the executable at path, the way debug/buildinfo would for a Go 1.18 or
// later binary. debug/buildinfo would link debug/elf, debug/dwarf,
// compress/flate and internal/zstd into guard-exec, whose package
// initialisation every command paid for; this needs only to find one
// string. The build information is a blob that starts with a fixed magic
// (16-byte aligned, in the data segment): a 32-byte header, then the Go
// version and the module information as length-prefixed strings, the latter
// starting with a 16-byte sentinel and "path\t<main package>\n".
func goMainPath(path string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	const chunk = 1 << 20
	buf := make([]byte, chunk+len(buildInfoMagic))
	var off int64
	for {
		n, err := f.ReadAt(buf, off)
		if i := bytes.Index(buf[:n], buildInfoMagic); i >= 0 {
			return mainFromBlob(f, off+int64(i))
		}
		if err != nil || n < len(buf) {
			return "", false
		}
		off += chunk
	}
}

var buildInfoMagic = []byte("\xff Go buildinf:")

// mainFromBlob parses the blob at off: only the inline-strings form (flags
// bit 2, every Go since 1.18) is read.
func mainFromBlob(r io.ReaderAt, off int64) (string, bool) {
	b := make([]byte, 64<<10)
	n, _ := r.ReadAt(b, off)
	b = b[:n]
	if len(b) < 32 || b[15]&2 == 0 {
		return "", false
	}
	b = b[32:]
	for i := 0; i < 2; i++ { // the version, then the module information
		size, w := binary.Uvarint(b)
		if w <= 0 || size > uint64(len(b)-w) {
			return "", false
		}
		s := b[w : w+int(size)]
		b = b[w+int(size):]
		if i == 0 {
			continue
		}
		if len(s) < 16 {
			return "", false
		}
		line, _, _ := bytes.Cut(s[16:], []byte("\n"))
		p, ok := bytes.CutPrefix(line, []byte("path\t"))
		return string(p), ok
	}
	return "", false
}
