// Package worktree tells whether anything in a project's files changed
// after a moment, cheaply and within a bound. The loop brake asks it only
// when a command is about to be held for failing repeatedly: an agent that
// edited the code between two runs of the same failing test is not looping.
//
// A change is an entry whose inode change time (ctime) is later than the
// moment asked about. ctime moves on every write, create, rename, delete
// (of a directory's entries) and chmod, and, unlike the modification time,
// no tool can set it back, so a file restored with its old mtime (cp -p,
// tar, an editor that keeps times) still counts as changed.
//
// The walk does not follow symbolic links, does not enter the directories
// named in SkipNames (version control data, dependency and cache trees that
// are large and not the project's own text) nor the ones the caller names,
// and stops after Options.MaxEntries entries. What happens then is the
// caller's choice; this package reports it as Result.Capped.
package worktree
