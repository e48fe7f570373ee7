// Package policy decides what happens to a command line: allow, warn, hold
// or deny. It matches rules against the facts package parse found — never
// against raw text, except for the raw-text fallback when a script cannot be
// parsed — and takes everything else it needs (the filesystem, loop history)
// through small interfaces, so it can be tested without touching either.
//
// Rules are data: an id, a family, a severity, a one-line message, a hint
// naming the safer alternative, and examples that must and must not match.
// The verdict of a command line is the highest severity among its hits, then
// the mode (enforce, advise, audit) is applied. Command rules are indexed by
// program name (Rule.Programs), so a command no rule names costs only the
// three rules that look at every command (redirections to devices, the
// SysRq trigger, privilege wrappers).
//
// # Hold or warn
//
// A rule holds when what it does cannot be undone or is lost for other
// people, and warns when it loses one named thing that something else
// still has (the reflog, the remote) or switches a safety check off.
// Choices the specification leaves open:
//
//   - Where a destructive operation lands decides (places.go): inside the
//     project or an allowed write root (temp dirs, user caches) is the
//     agent's own work and is allowed; everything in the project root at
//     once (rm -rf ., *, find . -delete) warns; the project directory
//     itself and its .git hold; anything outside, the home directory, a
//     parent, a system path, and anything that cannot be known hold. A
//     project that is "/" or the home directory (a shell outside any
//     repository) does not count as a write root. Symlinks are resolved.
//   - Dynamic paths are judged by their known prefix: "/tmp/$X" is in the
//     temp dir, "build/$X" in the project, "$HOME/$X" anywhere in the home
//     directory. Arguments find -exec and xargs supply are judged by find's
//     roots (entries below them when the expression narrows with a test
//     such as -name; -type does not narrow) and by xargs's input (literal
//     text, or a command that lists relative paths).
//   - Paths on another host (ssh, docker exec) are judged without a project:
//     /, the operating system's directories (/etc, /usr, /bin, /lib…) at any
//     depth, and whole application, account or data directories (a path
//     two levels deep, such as /srv/app or /home/deploy, or /var/lib/NAME)
//     hold; deeper paths (/srv/app/releases/old) are that machine's working
//     files and relative paths are not judged.
//     A container that docker/podman run starts is the image's files plus
//     its mounts (places_container.go): a path under a bind mount is judged
//     as the host path it maps to, one under a volume as outside, one above
//     a mount takes the mount's contents, and the rest is the container's
//     own; when the mounts cannot be known (compose, --volumes-from,
//     --privileged, a remote daemon) the container is another host.
//   - git: a force push (also --mirror and +refspec), reset --hard/--merge,
//     clean -f, discarding every uncommitted change (checkout ., checkout -f,
//     restore ., switch -f/--discard-changes), stash clear, history rewrites,
//     update-ref -d, reflog expire and gc --prune=now hold; deleting a remote
//     main/release branch holds and other remote branches warn; discarding
//     named files, stash drop, branch -D, worktree remove --force,
//     --no-verify (and commit -n, hooksPath=/dev/null, HUSKY=0 on the
//     command) and signing switched off warn.
//   - Databases: DROP DATABASE/SCHEMA, DROP TABLE (IF EXISTS too),
//     TRUNCATE, DELETE or UPDATE without WHERE (or with WHERE 1=1) and
//     ALTER TABLE … DROP COLUMN hold; DROP of an index, view, function or
//     role warns. SQL is read by a small scanner that skips string
//     literals, quoted identifiers and comments. An in-memory SQLite or
//     DuckDB database is not judged. SQL in a file (psql -f) is not read.
//     Framework resets (rails db:reset, prisma migrate reset, artisan
//     migrate:fresh, manage.py flush) warn, and hold when the environment
//     says production.
//   - Publishing a package holds, a dry run does not; pushing an image, a
//     chart or creating a GitHub release warns.
//   - Infrastructure: destroying a stack, namespace, node, volume, CRD,
//     --all/-A, a Helm release, a data-bearing cloud resource (instances,
//     databases, clusters, buckets, projects), a repository or making it
//     public holds; other single-object deletes, kubectl drain,
//     terraform apply -auto-approve and docker compose down -v warn; docker
//     system prune -a/--volumes and volume prune hold.
//   - System: mkfs on anything but an image file in the write roots, dd
//     and any write to a raw device, partitioning and volume tools in their
//     writing forms, shutdown/reboot, kill of pid -1 or a whole user's
//     processes, crontab -r and userdel -r hold; a fork bomb is denied.
//   - Remote code: a download or a decoded blob fed to a shell or an
//     interpreter holds, and so does a file downloaded and then run in the
//     same command line. A script written and run in the same command line
//     is judged by its content.
//   - Dynamic execution: content that cannot be known warns, unless it
//     only comes from a well-known environment generator (ssh-agent,
//     pyenv init, direnv hook, kubectl completion …); a computed command
//     name holds when its arguments would hold for some program it could
//     be (the other rules are run on the hypothetical command; options,
//     not bare paths, must carry the danger unless the name's known parts
//     pin the program). Nesting beyond the analysis depth holds.
//
// # Unparseable scripts
//
// A script the parser rejects has no facts: every rule's Raw pattern (RE2,
// compiled on first use) is scanned over the raw text, any hit holds, and
// otherwise the line only warns, since bash will reject it too. Nested
// scripts the parser rejects (bash -c '…' with broken quoting) are scanned
// the same way.
//
// Configuration (config*.go) is TOML in layers — built-in defaults, the
// system file, the user file, the project's .guard-exec.toml — merged by
// LoadConfig, which never fails: every problem is reported with its
// file:line and the value of the layers below is kept, and the project
// layer may only tighten. NewEngineFromConfig builds the engine a
// configuration asks for. User rules (userrule.go) are data like the
// built-ins: a program name, an RE2 pattern over the command's text
// (CommandText), a severity, and examples checked through the real parser
// when the file is loaded.
package policy

// # Path boundary
//
// One table (writes.go) says, for each program, which operands and option
// values it writes and how: content written or appended, edited in place,
// deleted, permissions changed, a file touched or a directory made, or a
// directory receiving files the command names itself (tar -x -C, unzip -d,
// git clone, curl -O). Every write redirection counts too. Each write is
// resolved the way the kernel will resolve it — "~", variables, ".." taken
// after the symlinks before it, links in the project followed to where
// they point — except that rm, unlink, mv and ln act on a link itself. It
// then gets one verdict, the most specific first:
//
//   - guard-exec's own configuration, ledger or shims: deny (self-*);
//     a coding agent's settings (.claude/settings*.json, .codex/,
//     .gemini/settings.json): hold; creating the project's .guard-exec.toml:
//     warn, since that layer can only add protection and repositories ship
//     one; deleting, editing or replacing an existing one: hold, since that
//     drops the rules it adds (a file that is not valid TOML is ignored
//     whole, so an append can do it too);
//   - a credential store: hold (cred-write) — the home directory's stores
//     always, a secret-named file (.env, *.key) only outside the allowed
//     roots: writing the project's own .env is routine, and chmod 600 on a
//     key is not a write of the secret;
//   - a persistence point (shell profiles, ~/.ssh/authorized_keys and
//     config, crontabs, systemd and autostart units, LaunchAgents, sudoers,
//     ~/.gitconfig, and .git/hooks and .git/config of any repository, the
//     project's own included): hold even when creating; so is unpacking
//     unknown files into a directory that holds such points (tar -x -C ~);
//     deleting one, touching or making a directory there is not planting;
//   - inside the allowed roots (the project, $TMPDIR, /tmp, /var/tmp, the
//     user's caches, configured roots), ~/.ssh/known_hosts and a CI
//     runner's step files ($GITHUB_ENV…): allowed;
//   - a system directory (/etc, /usr, /bin, /sbin, /lib*, /boot, /opt,
//     /var/lib, /var/spool, /srv, /root unless it is the home directory,
//     /sys, /proc): hold, even creating; so is unpacking unknown files into
//     a directory that holds one (tar -x -C /); recursive deletes there are
//     the filesystem rules' to judge;
//   - elsewhere: overwriting, changing or deleting an existing file holds;
//     creating one, or changing permissions, warns. A mode that only takes
//     access from others (600, go-rwx) passes; one that takes the owner's
//     own read (000, a-r) is a change, not a fix.
//
// /dev (null, stderr, ttys, /dev/fd/N) and /proc/self/fd are never judged
// as files; /dev/tcp and /dev/udp are judged as network sends. Writes a
// program makes on its own (npm install into ~/.npm, pip install --user
// into ~/.local) are not in the table and are not judged: the boundary
// sees the targets a command names.
//
// git config is judged by setting, in every scope. A setting that names
// where git takes hooks, templates or more configuration from
// (core.hooksPath, include.path, init.templateDir, filters…) holds whatever
// its value, except a repository's own core.hooksPath naming a directory of
// its work tree (.husky, .githooks: hooks as visible to review as any
// script of the project, unlike .git/hooks); a setting whose value git runs (core.pager, core.editor,
// core.sshCommand, credential.helper, diff drivers…) holds when the value
// is more than an installed program — shell syntax, sh -c or python -c, an
// ssh ProxyCommand, a program outside the system directories — and an
// alias holds when it starts with !. core.editor "code --wait",
// credential.helper store, user.name, user.email, safe.directory and the
// like are ordinary setup and pass.
//
// # Credentials
//
// Credential stores are ~/.ssh (but not *.pub, known_hosts, config,
// authorized_keys), ~/.aws, ~/.kube/config, ~/.npmrc, ~/.pypirc, ~/.netrc,
// ~/.git-credentials, ~/.docker/config.json, ~/.config/gh, ~/.gnupg,
// ~/.config/gcloud, ~/.azure and a few more, plus anywhere: .env and
// .env.* except templates (.example, .sample, .template, .dist,
// .defaults), private keys by name (id_rsa…, *.key, *.p12, *.pfx, and
// *.pem unless its name says certificate or chain), and /proc/*/environ.
// A program that shows or copies them (cat, grep, base64, cp from, tar -c,
// < file, source…) warns (cred-read); using them through their tool (ssh
// -i, aws, kubectl) does not, and neither does logging in through a tool
// (gh auth login, docker login, npm config set, aws configure), which
// writes its own store: only writes that name a store are held.
//
// Sending one off the machine is denied (cred-exfil): a network sink
// (curl, wget, nc, socat, telnet, openssl s_client, ssh, scp/sftp/rsync to
// a host, aws s3 cp, gh gist create, mail, interpreter code using a network
// API, a /dev/tcp redirect) uploading the file by name, or reading it on
// standard input from a redirect, a pipeline through any filters, or a
// here-string; a tainted command writing into /dev/tcp; and a command
// substitution that captured it in a script that talks to the network.
// The same holds for the environment (env-exfil): env, printenv, set,
// export -p, declare -p|-x, /proc/self/environ, or an echo of a
// secret-named variable. Tokens printed by their tools (gh auth token, git
// credential fill, gcloud auth print-access-token…) count as credentials.
// A secret variable used directly as an argument (curl -H "Authorization:
// Bearer $TOKEN") is authentication, not a leak, and passes; a credential
// copied to a file by one command and uploaded by the next is not followed.
