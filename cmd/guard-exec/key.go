package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/guard-exec/guard-exec/internal/paths"
	"github.com/guard-exec/guard-exec/internal/rawread"
)

// The user's key (paths.KeyFile): 32 random bytes, hex, made on first use.
// It authenticates the ledger (ledger/auth.go), the sourced-file cache and
// approvals. Guarded commands may not read it (the self-defence rules deny
// it; the sandbox leaves it out of reach), so a command cannot forge what
// it authenticates. Without one (no home, a read-only configuration
// directory) the ledger is written unauthenticated and the cache is not
// used.

// key returns the user's key, making it when there is none; nil when it
// can be neither read nor made.
func (g *guard) key() []byte {
	if g.keyDone {
		return g.keyVal
	}
	g.keyDone = true
	g.keyVal = loadKey(paths.KeyFile(g.getenv))
	return g.keyVal
}

func loadKey(path string) []byte {
	if path == "" {
		return nil
	}
	if k := readKey(path); k != nil {
		return k
	}
	if err := makeKey(path); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil
	}
	return readKey(path)
}

func readKey(path string) []byte {
	b, err := rawread.File(path, 0, 1024)
	if err != nil {
		return nil
	}
	k, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(k) < 16 {
		return nil
	}
	return k
}

// makeKey writes a new key whole and links it into place, so that two
// guards starting at once agree on one key and neither reads half of it.
func makeKey(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".key-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.WriteString(hex.EncodeToString(raw) + "\n")
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return werr
	}
	return os.Link(tmp.Name(), path)
}
