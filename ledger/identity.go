package ledger

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// idName holds the ledger's identity: 32 hex digits, random, written once.
const idName = "ledger.id"

// Identity returns the ledger's id, creating it on first use. Record ids
// (ev-0001, …) are unique within one ledger only; a record shipped
// elsewhere is named by the ledger id and its own id together, so that a
// backend receiving the same record twice can drop one, and records of
// two ledgers never collide. A ledger directory deleted and started again
// restarts its record ids and gets a new identity with them.
//
// The id is written to a file of its own and linked into place, so that
// two processes creating it at once agree on one, and a reader never sees
// it half written.
func (l *Ledger) Identity() (string, error) {
	if id, err := l.readIdentity(); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return id, err
	}
	if err := l.setup(); err != nil {
		return "", err
	}
	b, err := randomID()
	if err != nil {
		return "", fmt.Errorf("ledger: identity: %w", err)
	}
	tmp, err := os.CreateTemp(l.dir, ".ledger.id.*")
	if err != nil {
		return "", fmt.Errorf("ledger: identity: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(hex.EncodeToString(b[:]) + "\n")
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("ledger: identity: %w", err)
	}
	// link(2) fails if the name exists: whoever linked first wins, and
	// everyone reads the winner's id.
	if err := os.Link(tmp.Name(), l.path(idName)); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("ledger: identity: %w", err)
	}
	return l.readIdentity()
}

// randomID reads 16 bytes from the kernel's generator. crypto/rand would
// do the same, but linking it (and the math/big it brings) adds package
// initialisation to every guarded command's start.
func randomID() ([16]byte, error) {
	var b [16]byte
	f, err := openRaw("/dev/urandom", os.O_RDONLY, 0)
	if err != nil {
		return b, err
	}
	defer f.Close()
	for n := 0; n < len(b); {
		m, err := syscall.Read(f.fd, b[n:])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return b, err
		case m == 0:
			return b, io.ErrUnexpectedEOF
		}
		n += m
	}
	return b, nil
}

func (l *Ledger) readIdentity() (string, error) {
	f, err := openRaw(l.path(idName), os.O_RDONLY, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var b [64]byte
	n, err := f.ReadAt(b[:], 0)
	if n == 0 && err != nil {
		return "", fmt.Errorf("ledger: identity: %w", err)
	}
	id := strings.TrimSpace(string(b[:n]))
	if len(id) != 32 || strings.Trim(id, "0123456789abcdef") != "" {
		return "", fmt.Errorf("ledger: identity: %s does not hold an id (32 hex digits); remove it to start a new one", idName)
	}
	return id, nil
}
