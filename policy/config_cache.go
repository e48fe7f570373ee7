package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ExampleCache remembers user rules whose examples have passed, so that a
// configuration file that has not changed does not cost a parse per
// example on every command (about 14 µs each: a few rules would eat a good
// part of the guard's budget). Keys cover everything the check depends on.
//
// A cache can only ever make the loader skip a check, never fail one, and
// skipping it can only load a rule that would otherwise have been dropped:
// a rule adds hits and takes none away, so a stale or forged cache cannot
// weaken the guard below its defaults.
type ExampleCache interface {
	Passed(key string) bool
	Remember(key string)
}

// FileExampleCache keeps the keys in one small file, one per line, newest
// last, salted with the identity of the running binary: a new guard-exec,
// whose parser may read an example differently, checks everything again.
type FileExampleCache struct {
	Path string
	// ReadOnly: Flush writes nothing (a guard inside a sandboxed command,
	// where guard-exec's own files are protected and a write is undone).
	ReadOnly bool

	loaded bool
	salt   string
	keys   []string
	set    map[string]bool
	dirty  bool
}

const (
	maxCachedRules = 256
	maxCacheFile   = 64 << 10
)

func (c *FileExampleCache) load() {
	if c.loaded {
		return
	}
	c.loaded = true
	c.salt = binarySalt()
	c.set = map[string]bool{}
	data, _, err := readBounded(c.Path, maxCacheFile)
	if err != nil {
		return
	}
	for _, k := range strings.Split(string(data), "\n") {
		if len(k) == 32 && !c.set[k] {
			c.set[k] = true
			c.keys = append(c.keys, k)
		}
	}
}

func (c *FileExampleCache) salted(key string) string {
	sum := sha256.Sum256([]byte(c.salt + "\x00" + key))
	return hex.EncodeToString(sum[:16])
}

// Passed reports whether the rule with this key passed before.
func (c *FileExampleCache) Passed(key string) bool {
	c.load()
	return c.set[c.salted(key)]
}

// Remember records a rule that passed.
func (c *FileExampleCache) Remember(key string) {
	c.load()
	k := c.salted(key)
	if c.set[k] {
		return
	}
	c.set[k] = true
	c.keys = append(c.keys, k)
	c.dirty = true
}

// Flush writes the file when something was added, keeping the newest
// entries. It replaces the file in one rename, so a reader never sees half
// of it; a failure only means the next load checks again.
func (c *FileExampleCache) Flush() {
	if !c.dirty || c.ReadOnly {
		return
	}
	c.dirty = false
	keys := c.keys
	if len(keys) > maxCachedRules {
		keys = keys[len(keys)-maxCachedRules:]
	}
	var b bytes.Buffer
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte('\n')
	}
	dir := filepath.Dir(c.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	tmp := fmt.Sprintf("%s.%d.tmp", c.Path, os.Getpid())
	if err := os.WriteFile(tmp, b.Bytes(), 0o600); err != nil {
		os.Remove(tmp)
		return
	}
	if err := os.Rename(tmp, c.Path); err != nil {
		os.Remove(tmp)
	}
}
