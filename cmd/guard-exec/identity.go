package main

import (
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// programIdentity tells the analysis which known program a file run by
// its path is, so that `cp /usr/bin/rm ./del; ./del -rf ~` and a symlink
// named mybash are judged as rm and bash. A symlink is resolved; a
// regular file is compared with the programs worth knowing as found on
// PATH: the same inode (a hard link), or the same size and SHA-256 (a
// copy). The programs' identities are read once per process; a digest is
// computed only when a size matches, and cached.
type programIdentity struct {
	getenv func(string) string
	once   sync.Once
	byIno  map[progKey]string
	bySize map[int64][]string // size -> paths of known programs
	mu     sync.Mutex
	sums   map[string][32]byte
}

type progKey struct{ dev, ino uint64 }

// identityPrograms are the programs whose copies matter: what deletes,
// writes devices, runs code or rewrites history.
var identityPrograms = []string{
	"rm", "dd", "shred", "mkfs", "bash", "sh", "dash", "zsh", "ksh", "fish", "busybox", "python3", "python",
	"perl", "ruby", "node", "php", "git", "curl", "wget", "sudo", "chmod", "chown", "mv", "cp", "find",
	"xargs", "env", "ssh", "scp", "rsync", "tar", "guard-exec", "kill", "pkill", "truncate",
}

func (pi *programIdentity) load() {
	pi.byIno = map[progKey]string{}
	pi.bySize = map[int64][]string{}
	pi.sums = map[string][32]byte{}
	path := pi.getenv("PATH")
	for _, name := range identityPrograms {
		for _, dir := range filepath.SplitList(path) {
			if dir == "" || !filepath.IsAbs(dir) {
				continue
			}
			p := filepath.Join(dir, name)
			fi, err := os.Stat(p)
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			if st, ok := fi.Sys().(*syscall.Stat_t); ok {
				k := progKey{uint64(st.Dev), uint64(st.Ino)}
				if _, seen := pi.byIno[k]; !seen {
					pi.byIno[k] = name
				}
			}
			pi.bySize[fi.Size()] = append(pi.bySize[fi.Size()], p)
			break
		}
	}
}

// ProgramAt implements parse.ProgramIdentifier.
func (pi *programIdentity) ProgramAt(p string) (string, bool) {
	name := pi.programAt(p)
	if name != "" {
		return name, true
	}
	return "", compiled(p)
}

// compiled reports whether a file starts like a compiled program (ELF,
// Mach-O, PE, a wasm module) rather than a script.
func compiled(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [4]byte
	if n, _ := io.ReadFull(f, b[:]); n < 4 {
		return false
	}
	switch string(b[:]) {
	case "\x7fELF", "\xcf\xfa\xed\xfe", "\xce\xfa\xed\xfe", "\xca\xfe\xba\xbe", "\x00asm":
		return true
	}
	return b[0] == 'M' && b[1] == 'Z'
}

func (pi *programIdentity) programAt(p string) string {
	fi, err := os.Lstat(p)
	if err != nil {
		return ""
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		t, err := filepath.EvalSymlinks(p)
		if err != nil {
			return ""
		}
		if name := filepath.Base(t); name != filepath.Base(p) {
			if id := pi.programAt(t); id != "" {
				return id
			}
			return name
		}
		return ""
	}
	if !fi.Mode().IsRegular() {
		return ""
	}
	pi.once.Do(pi.load)
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		if name, ok := pi.byIno[progKey{uint64(st.Dev), uint64(st.Ino)}]; ok {
			return name
		}
	}
	cands := pi.bySize[fi.Size()]
	if len(cands) == 0 {
		return ""
	}
	sum, ok := pi.sum(p, false) // the file run may change: not cached
	if !ok {
		return ""
	}
	for _, c := range cands {
		if cs, ok := pi.sum(c, true); ok && cs == sum {
			return strings.TrimSuffix(filepath.Base(c), filepath.Ext(c))
		}
	}
	return ""
}

// maxDigest bounds the files digested.
const maxDigest = 64 << 20

func (pi *programIdentity) sum(p string, cache bool) ([32]byte, bool) {
	pi.mu.Lock()
	s, ok := pi.sums[p]
	pi.mu.Unlock()
	if ok && cache {
		return s, true
	}
	f, err := os.Open(p)
	if err != nil {
		return s, false
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, maxDigest)); err != nil {
		return s, false
	}
	copy(s[:], h.Sum(nil))
	if cache {
		pi.mu.Lock()
		pi.sums[p] = s
		pi.mu.Unlock()
	}
	return s, true
}
