package ledger

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// rotate runs under the exclusive lock when the active segment is over
// MaxBytes: the oldest kept segment is dropped, the others shift up one
// (ledger.1.jsonl becomes ledger.2.jsonl, …) and the active one becomes
// ledger.1.jsonl. The append that follows finds no active segment, so it
// starts a new one with a header whose prev and last_id carry the chain and
// the id sequence over from ledger.1.jsonl.
//
// A crash between two renames leaves a gap in the numbering, never a
// damaged segment; the next rotation and Verify cope with gaps.
func (l *Ledger) rotate() error {
	keep := l.opts.Keep
	if err := os.Remove(l.path(segmentName(keep))); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("ledger: rotate: %w", err)
	}
	for i := keep - 1; i >= 1; i-- {
		if err := rename(l.path(segmentName(i)), l.path(segmentName(i+1))); err != nil {
			return err
		}
	}
	if err := rename(l.path(activeName), l.path(segmentName(1))); err != nil {
		return err
	}
	if l.opts.Durable {
		if err := syncDir(l.dir); err != nil {
			return err
		}
	}
	l.pruneCasts()
	return nil
}

func rename(from, to string) error {
	if err := os.Rename(from, to); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("ledger: rotate: %w", err)
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("ledger: sync: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("ledger: sync: %w", err)
	}
	return nil
}

// oldestKeptLastID returns the last_id in the header of the oldest kept
// segment: every id up to it lived in segments that rotation has dropped.
func (l *Ledger) oldestKeptLastID() (int64, bool) {
	f, err := os.Open(l.path(segmentName(l.opts.Keep)))
	if err != nil {
		return 0, false
	}
	defer f.Close()
	ln, _, err := newLineReader(f).next()
	if err != nil || ln.long {
		return 0, false
	}
	rec, err := decode(ln.data)
	if err != nil || rec.Kind != KindHeader {
		return 0, false
	}
	return ParseID(rec.LastID)
}
