package ledger

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/guard-exec/guard-exec/internal/rawread"
)

// The anchor. The chain says nothing of records missing at its end, so
// each append also leaves, outside the ledger directory, in a place
// guarded commands may not write (the user's state directory; see
// paths.AnchorDir), the last id allocated and a tag of the last line's
// link, authenticated with the key. Verify compares the end of the ledger
// with it: a ledger that ends before the anchor's record (deleted newest
// records, a truncated segment, a ledger deleted and started again) is
// reported, with both places. Appends allocate ids after the anchor's
// last, so ids never repeat, even after a ledger was wiped.
//
// The anchor holds a tag of the link, never the link itself: the link of
// the last line is the prev a forged record appended after it would need.

const anchorMagic = "guard-exec-anchor 1"

// anchor is what one anchor file says.
type anchor struct {
	dir  string
	last int64
	tag  string // the keyring's tag of the last line's link
}

func (a anchor) text() string {
	return fmt.Sprintf("%s\ndir %q\nlast %s\nlink %s\n", anchorMagic, a.dir, FormatID(a.last), a.tag)
}

// AnchorFile is the anchor of the ledger in dir, inside anchorDir.
func AnchorFile(anchorDir, dir string) string {
	if anchorDir == "" || dir == "" {
		return ""
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	return filepath.Join(anchorDir, hashLine([]byte(abs))[:32])
}

// writeAnchor records the end of the chain. It is one write(2) at offset
// 0 of a file that only grows (ids only grow), ended by its mac line, so
// a reader never takes a half-written anchor for a whole one. Called under
// the append lock; a failure is not the command's: the next append
// writes it again, and Verify says the anchor is behind.
func (l *Ledger) writeAnchor(last int64, link string) {
	if l.anchorPath == "" || l.keys == nil {
		return
	}
	a := anchor{dir: l.absDir, last: last, tag: l.keys.tag(link)}
	body := a.text()
	buf := []byte(body + "mac " + l.keys.tag(body) + "\n")
	f, err := openRaw(l.anchorPath, syscall.O_WRONLY|syscall.O_CREAT, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		if os.MkdirAll(filepath.Dir(l.anchorPath), 0o700) != nil {
			return
		}
		f, err = openRaw(l.anchorPath, syscall.O_WRONLY|syscall.O_CREAT, 0o600)
	}
	if err != nil {
		return
	}
	defer f.Close()
	if f.writeAt(buf, 0) == nil {
		if size, err := f.size(); err == nil && size > int64(len(buf)) {
			_ = syscall.Ftruncate(f.fd, int64(len(buf)))
		}
	}
}

// errNoAnchor: the ledger has no anchor (yet, or it was never keyed).
var errNoAnchor = errors.New("no anchor")

// readAnchor reads and authenticates the anchor.
func (l *Ledger) readAnchor() (anchor, error) {
	if l.anchorPath == "" || l.keys == nil {
		return anchor{}, errNoAnchor
	}
	b, err := rawread.File(l.anchorPath, 0, 64<<10)
	if errors.Is(err, fs.ErrNotExist) {
		return anchor{}, errNoAnchor
	}
	if errors.Is(err, rawread.ErrTooLarge) {
		return anchor{}, errors.New("anchor too large")
	}
	if err != nil {
		return anchor{}, err
	}
	i := bytes.LastIndex(b, []byte("mac "))
	if i < 0 || !bytes.HasPrefix(b, []byte(anchorMagic+"\n")) {
		return anchor{}, errors.New("not an anchor")
	}
	body := string(b[:i])
	mac, _, _ := strings.Cut(string(b[i+4:]), "\n")
	if mac != l.keys.tag(body) {
		return anchor{}, errors.New("its authentication does not match: it was changed, or written with another key")
	}
	a := anchor{}
	for _, ln := range strings.Split(strings.TrimSuffix(body, "\n"), "\n")[1:] {
		k, v, _ := strings.Cut(ln, " ")
		switch k {
		case "dir":
			a.dir, _ = strconv.Unquote(v)
		case "last":
			a.last, _ = ParseID(v)
		case "link":
			a.tag = v
		}
	}
	if a.dir != l.absDir {
		return anchor{}, fmt.Errorf("it belongs to %s", a.dir)
	}
	return a, nil
}
