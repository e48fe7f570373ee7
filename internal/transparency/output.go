package transparency

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// Output sums up one output file of a run: its length and SHA-256, and its
// bytes when they are few enough to show in a diff.
type Output struct {
	Path   string
	Size   int64
	SHA256 string
	Data   []byte // nil when the file is larger than KeepForDiff
}

// KeepForDiff bounds the bytes an Output keeps.
const KeepForDiff = 64 << 10

// SumFile reads the output file at path.
func SumFile(path string) (Output, error) {
	f, err := os.Open(path)
	if err != nil {
		return Output{}, err
	}
	defer f.Close()
	h := sha256.New()
	var head bytes.Buffer
	n, err := io.Copy(io.MultiWriter(h, &limitedBuffer{&head, KeepForDiff + 1}), f)
	if err != nil {
		return Output{}, err
	}
	o := Output{Path: path, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}
	if n <= KeepForDiff {
		o.Data = head.Bytes()
	}
	return o, nil
}

// Same reports whether two outputs hold the same bytes.
func (o Output) Same(p Output) bool { return o.Size == p.Size && o.SHA256 == p.SHA256 }

// WithoutFirstLine returns the output with its first line removed, when
// that line starts with prefix (a guard-exec warning the case expects);
// ok is false when it does not, or the output was too large to keep.
func (o Output) WithoutFirstLine(prefix string) (rest Output, ok bool) {
	if o.Data == nil || !bytes.HasPrefix(o.Data, []byte(prefix)) {
		return o, false
	}
	i := bytes.IndexByte(o.Data, '\n')
	if i < 0 {
		return o, false
	}
	data := o.Data[i+1:]
	sum := sha256.Sum256(data)
	return Output{Path: o.Path, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Data: data}, true
}

// Diff says how got differs from want (bash's): both texts when they are
// small, their lengths and sums otherwise.
func Diff(got, want Output) string {
	if want.Data != nil && got.Data != nil {
		return fmt.Sprintf("\n got: %q\nbash: %q", got.Data, want.Data)
	}
	return fmt.Sprintf(": %d bytes sha256 %s, bash gave %d bytes sha256 %s", got.Size, got.SHA256, want.Size, want.SHA256)
}

type limitedBuffer struct {
	b   *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
