package policy

import (
	"slices"
	"sync"
	"sync/atomic"
)

// nameIndex finds the rules that name a program. A command line names a
// few programs, and scanning the rules' program lists for each (some 500
// short strings) costs about a microsecond, where indexing every name up
// front costs tens of microseconds on every start of the program. Past
// scansBeforeIndex lookups (a long script, check --batch) the index is
// built once and used from then on. Safe for concurrent use.
type nameIndex struct {
	rules  []*Rule // the Command rules with Programs, in registration order
	scans  atomic.Int32
	once   sync.Once
	byName map[string][]*Rule
	built  atomic.Bool
}

const scansBeforeIndex = 32

// lookup returns the rules naming program name, in registration order,
// appended to buf when it scans.
func (n *nameIndex) lookup(name string, buf []*Rule) []*Rule {
	if n.built.Load() || n.scans.Add(1) > scansBeforeIndex {
		return n.index()[name]
	}
	for _, r := range n.rules {
		if slices.Contains(r.Programs, name) {
			buf = append(buf, r)
		}
	}
	return buf
}

// index returns the rules by program name, building it on first use.
func (n *nameIndex) index() map[string][]*Rule {
	n.once.Do(func() {
		total := 0
		for _, r := range n.rules {
			total += len(r.Programs)
		}
		n.byName = make(map[string][]*Rule, total)
		for _, r := range n.rules {
			for _, p := range r.Programs {
				n.byName[p] = append(n.byName[p], r)
			}
		}
		n.built.Store(true)
	})
	return n.byName
}
