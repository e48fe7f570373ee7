package policy

// ConfigTemplate is the file `guard-exec config init` writes: every key,
// commented out, with its default. Loaded as it is, it changes nothing.
const ConfigTemplate = `# guard-exec configuration.
#
# Layers, weakest first: built-in defaults < /etc/guard-exec/config.toml <
# this file (the user layer: $XDG_CONFIG_HOME/guard-exec/config.toml, else
# ~/.config/guard-exec/config.toml) < .guard-exec.toml at a project's root.
#
# A project file may only tighten: add rules, raise severities, lower
# loop.block_after, turn scrubbing on. It cannot set mode, exempt rules,
# add allow roots or lower anything; guard-exec says so when one tries.
# A key with a wrong type or a bad value is reported with its file:line
# and the value from the layers below is kept. See what is in effect, and
# where each value comes from, with: guard-exec config show
#
# Top-level keys (mode, exempt) go before the first [table]: in TOML a key
# after a [table] line belongs to that table.

# What verdicts do: "enforce" (held and denied commands do not run),
# "advise" (they run, with a warning naming the rule that would have held),
# "audit" (nothing is printed or blocked; everything is recorded).
# A --mode flag wins over this key. Not allowed in a project file.
#mode = "enforce"

# Rule ids to silence entirely (see guard-exec rules). Not allowed in a
# project file. The rules that judge commands the guard could not analyse
# (parse-error-risky, input-too-large, …) cannot be exempted.
#exempt = ["privilege-escalation"]

# Severity of a rule by id: "warn" (runs, one warning line), "hold" (does
# not run unless a person approves it), "deny" (never runs). A project
# file may only raise a severity.
#[severity]
#git-force-push = "deny"

# Rules of your own. Each [[rule]] names a program (after wrapper peeling:
# sudo psql is psql; a string or an array of names; leave it out to match
# every command), a pattern (RE2, matched against the command as
# "name 'arg' …" with data left out: what echo prints, commit messages,
# grep patterns; with a program named, also against the data the script
# feeds its stdin), or both. examples must match and not_examples must not,
# through the real parser; a rule whose examples fail, or whose pattern is
# not valid RE2, is reported and not loaded. severity defaults to "hold".
# Ids are kebab-case and may not reuse a built-in rule's id.
#[[rule]]
#id = "no-prod-psql"
#command = "psql"
#pattern = '(?i)\bprod\b'
#severity = "hold"
#message = "touches the production database"
#hint = "run it against staging, or ask the user to run it"
#examples = ["psql -h prod.db -c 'select 1'"]
#not_examples = ["psql -h staging.db"]

#[boundary]
# More directories where writes are routine, besides the project, the temp
# dirs and the user caches: absolute paths or ~/…. Not allowed in a
# project file.
#allow_roots = ["~/scratch"]

#[env]
# Remove variables whose names say they are secrets (*_TOKEN, *_SECRET,
# *_KEY, *PASSWORD*, AWS credentials…) from the command's environment, and
# filter git's GIT_CONFIG_COUNT/KEY_n/VALUE_n settings. A project file may
# turn it on, not off.
#strip_credentials = false

#[loop]
# The Nth identical failing command in a row (same text, same directory,
# same session) is held: change the approach instead. 0 turns the brake
# off; 1 is not allowed (it would hold every first attempt). A project file
# may only lower it.
#block_after = 3

#[ledger]
# Rotate the evidence ledger above this many bytes (64 KiB to 1 GiB), and
# keep this many rotated segments (1 to 100). durable = true syncs each
# record to disk. A project file may only keep more.
#max_bytes = 4194304
#keep = 3
#durable = false

#[exec]
# Kill a command's process group after this long ("90s", "10m"; "0s" is
# none). --timeout wins over this key. A project file may only shorten it.
#timeout = "0s"

#[sandbox]
# Run every command under a kernel boundary (Landlock, Linux 5.13+):
# "write" lets the command and all it starts write only inside the
# project, the temp dirs, the user caches and the allow roots, and never
# the ledger, guard-exec's files, .git/hooks, the git config or agent
# settings; "strict" also takes the network away. --sandbox= wins over this
# key. A project file may turn it on or make it stricter, never off.
#mode = "off"
# Without Landlock in the kernel, write/strict hold every command (true)
# or run them unsandboxed with a warning (false). A project file may only
# set it to true.
#required = true
# More write roots for sandboxed commands, beside [boundary] allow_roots.
# Not allowed in a project file.
#allow_roots = ["~/scratch"]

#[export]
# Where guard-exec ship sends the ledger: a collector's OTLP/HTTP endpoint
# (records are posted to /v1/logs under it unless the URL has a path).
# Without it, ship uses OTEL_EXPORTER_OTLP_LOGS_ENDPOINT or
# OTEL_EXPORTER_OTLP_ENDPOINT. headers are sent as written; for a secret,
# headers_from_env names the environment variable holding the value, which
# is read when shipping and never written anywhere. batch is the most
# records one request carries. Not allowed in a project file.
#otlp_endpoint = "http://127.0.0.1:4318"
#batch = 512
#[export.headers]
#X-Scope-OrgID = "team-a"
#[export.headers_from_env]
#Authorization = "OTLP_AUTH_HEADER"
`
