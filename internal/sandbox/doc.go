// Package sandbox runs one command inside a kernel-enforced boundary
// (Landlock, and a mount namespace where one can be made), leaving the
// guard that starts it unrestricted.
//
// # What it bounds
//
// Write mode: the command and everything it starts may create, change,
// rename and delete files only inside the write roots (and write the
// null, random and terminal devices); everything else is read-only to it.
// Reading and executing are not restricted. Paths inside the roots that
// must stay unchanged (Spec.Protected) are bound read-only onto themselves
// in a mount namespace of the command's own, with the directories between
// the root and them pinned by a bind so they cannot be renamed away; a
// sandboxed command cannot mount, unmount or remount (Landlock forbids it),
// so it cannot undo that. Strict mode adds: every TCP connect and bind
// denied by Landlock (ABI 4+), and, where guard-exec may make one, a
// network namespace of the command's own with no interface up, which also
// stops UDP, ICMP and abstract unix sockets (Landlock restricts UDP only
// from ABI 10).
//
// The restriction is applied with no_new_privs: setuid programs (sudo, su)
// cannot raise privileges inside the sandbox.
//
// # What it does not bound
//
// Writes made on the command's behalf by a process outside the sandbox
// (the Docker daemon through its socket, a systemd user service, an
// already running editor or language server); ioctls on inherited
// descriptors; chmod, chown and utime of files it may not write (Landlock
// does not control them; a read-only bind does); signals to other
// processes; the agent's own file tools, which never pass through
// guard-exec.
//
// # How, and at what cost
//
// Landlock is per thread and inherited across fork. Start restricts a
// fresh, locked OS thread and forks the command from it (see start.go);
// the guard's other threads never enter the domain. That costs about a
// tenth of a millisecond, where re-executing a helper to restrict itself
// costs several. The restricted thread lives until the command exits, so
// Pdeathsig keeps its meaning; the command can reach guard-exec through it
// only by ptrace-class access, which ptrace.go closes. No Landlock library
// is used: the three system calls and x/sys's constants are all it takes,
// and a library would restrict the whole process (all threads), which is
// what must not happen here.
package sandbox
