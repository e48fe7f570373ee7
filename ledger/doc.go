// Package ledger keeps guard-exec's evidence: an append-only record of every
// command the guard saw — what ran, where, the verdict, how it ended and a
// redacted digest of its output — that many guard processes can write at
// once without losing or duplicating a record, that readers can consult at
// a cost that does not grow with its size, and that shows when a line was
// edited, inserted or deleted.
//
// This comment is the reference for the format.
//
// # Files
//
// A ledger is one directory (see Location), mode 0700:
//
//	.gitignore        "*": the directory never shows in git status
//	ledger.lock       the lock; empty, never rotated
//	ledger.jsonl      the active segment
//	ledger.1.jsonl    rotated segments, newest first, Options.Keep of them
//	ledger.2.jsonl
//	casts/ev-N.cast   terminal transcripts (asciicast v2) of PTY commands
//
// Files are 0600 and are opened without following symlinks, so a ledger
// file planted as a link (in a repository's .guard-exec, say) is refused.
//
// # Lines
//
// Each segment is JSON Lines: one object per line, UTF-8, ending in "\n".
// The first line of every segment is a header:
//
//	{"kind":"header","time":"…","schema":1,"last_id":"ev-0412","prev":"…"}
//
// schema is SchemaVersion; last_id is the last id allocated before the
// segment began (absent in the very first segment), so the id sequence
// never depends on a segment rotation has deleted. Then come records:
//
//   - exec: written before a command starts. It takes a new id and holds
//     the session, working directory, project, invocation mode, pty or pipe,
//     the canonical command (the fingerprint text), the raw command, the
//     verdict, the enforcement mode, the rule hits, the names of scrubbed
//     environment variables, the parent id of a nested guard and the pid.
//   - exit: written when the command ends, with the id of its exec: exit
//     status or signal, duration, bytes and sha256 of stdout and stderr (or,
//     when hashing gave way to a reader faster than it, sha256_prefix: the
//     hash of the first hashed bytes), a
//     digest (first and last 2 KiB of output, ANSI stripped), timed_out,
//     incomplete, and the path of its transcript. An exec without an exit
//     means the command was interrupted (or is still running).
//   - decision: a command that was held or denied and never ran. It takes a
//     new id.
//   - approval: a person approved the decision in ref once, until expires.
//     It takes a new id.
//
// Ids are "ev-" and a decimal number of at least four digits (ev-0001, …,
// ev-9999, ev-10000): compare them with ParseID, never as strings. They are
// allocated under the lock, one greater than the last exec, decision or
// approval (exits carry older ids) or the header's last_id, so within a
// ledger they are unique and consecutive in file order. Times are RFC 3339
// UTC with milliseconds.
//
// # The chain
//
// Every line carries prev: the hex sha256 of the previous valid line,
// exactly as stored, without its newline. The very first header has
// prev "". A new segment's header chains to the last valid line of the
// segment before it, so the chain runs unbroken across rotation. Verify
// walks the kept segments from the oldest and reports, with file:line, any
// record whose prev does not match: the line before it was changed, or
// lines were deleted or inserted there. It also checks that ids are
// consecutive, that headers open segments, and that each exec has at most
// one exit. The oldest kept header's prev points into a segment rotation
// dropped; that is a note, not a break.
//
// A valid line is one of at most 1 MiB holding a JSON object that decodes
// into a Record with a kind. The writer, the readers and Verify share that
// one definition, and the chain runs through valid lines only. The chain
// is unkeyed: it catches accidental and casual edits, not someone who
// rewrites every line after the one they changed, and nothing can show
// that records were cut off the end. The last line, having no successor,
// can be changed without a break.
//
// # Torn lines
//
// Each append is one write(2) of whole lines on a file opened O_APPEND, so
// a line is torn only when the writer dies in the middle of that write (or
// the disk fills). The lock dies with the writer. Readers skip a line that
// is not valid and report it as a Problem marked Unreadable. The next
// append sees that the file does not end in a newline and writes one first,
// isolating the fragment on its own line: nothing is ever truncated, and
// the fragment stays as evidence. Because prev chains over valid lines
// only, the record after a torn line chains to the last valid line before
// it, and Verify reports the torn line as unreadable while the chain holds
// (Report.ChainIntact). A valid line turned into garbage is still caught:
// the record after it names the original.
//
// # Concurrency
//
// Appends take an exclusive flock(2) on ledger.lock for the append only:
// read the end of the active segment for the last id and the prev, write,
// release. Readers take it shared, so they never see a half-written line or
// a rotation half done; without a lock file they read unlocked rather than
// report nothing. The lock is never held while a command runs. A wait
// longer than Options.LockTimeout fails the call instead of hanging the
// guard. The package needs flock(2), so it builds on Unix systems only.
// Keep the ledger on a local filesystem: O_APPEND is not atomic over NFS.
//
// # Rotation
//
// When the active segment is over Options.MaxBytes (4 MiB), the append that
// finds it so renames it to ledger.1.jsonl, shifting older segments up and
// deleting the one beyond Options.Keep (3), then starts a new active
// segment with a header that continues the ids and the chain. Transcripts
// of ids in the deleted segments are removed with them.
//
// # Bounds
//
// Appends read the last 4 KiB of the active segment in the common case,
// and nothing when the Ledger's own last append left the segment as it is
// (same file, same size: the exit record after its exec record).
// SessionRuns reads back from the end in chunks that start at 8 KiB and
// double, at most RunWindow (256 KiB).
// Tail and Find read back from the end in growing chunks, at most 16 MiB,
// whatever the ledger holds; a line over 1 MiB is skipped, never loaded.
// Tail returns records, not headers; its problems carry a byte Offset
// instead of a line number, which reading backwards cannot know. Find stops
// at the first allocated id below the one it looks for, since ids grow
// along the file.
// Records are bounded before they are written: commands to 32 KiB, the
// digest to 8 KiB, 32 rule hits; a cut text ends in a marker with its full
// length and a hash, so two long commands that differ after the cut still
// differ. Digest builds an exit record's digest from the two ends of the
// output.
//
// # Privacy
//
// Append redacts the command, the raw command, the digest and the rule hits
// with package internal/redact, plus the literal values in Options.Secrets,
// before anything reaches the disk; WriteCast redacts transcripts event by
// event. Redaction is deterministic, so a caller comparing a new command
// with a stored one (the loop brake) redacts the new one the same way first.
// Environment variables are recorded by name only.
package ledger
