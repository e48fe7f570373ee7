package main

import (
	"fmt"
	"strings"

	"github.com/guard-exec/guard-exec/internal/redact"
	"github.com/guard-exec/guard-exec/ledger"
	"github.com/guard-exec/guard-exec/shim"
)

// digest is the bounded, readable part of a command's output kept in the
// ledger: the first and last bytes of each stream, escapes stripped. The
// ledger redacts it before writing.
func digest(res *shim.Result) string {
	var b strings.Builder
	stream(&b, "", res.Stdout)
	if !res.Merged && res.Stderr.Bytes > 0 {
		stream(&b, "[stderr]\n", res.Stderr)
	}
	return b.String()
}

func stream(b *strings.Builder, label string, s shim.Stream) {
	if s.Bytes == 0 {
		return
	}
	b.WriteString(label)
	b.Write(redact.StripANSI(s.Head))
	if len(s.Tail) > 0 {
		if gap := s.Bytes - int64(len(s.Head)+len(s.Tail)); gap > 0 {
			fmt.Fprintf(b, "\n[… %d bytes …]\n", gap)
		}
		b.Write(redact.StripANSI(s.Tail))
	}
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteByte('\n')
	}
}

// streamInfo is what the ledger keeps of a stream: its length, and the hash of
// all of it, or of the prefix hashed when hashing gave way to a fast reader.
func streamInfo(s shim.Stream) *ledger.StreamInfo {
	if s.Hashed < s.Bytes && s.SHA256 != "" {
		return &ledger.StreamInfo{Bytes: s.Bytes, PrefixSHA256: s.SHA256, Hashed: s.Hashed}
	}
	return &ledger.StreamInfo{Bytes: s.Bytes, SHA256: s.SHA256}
}
