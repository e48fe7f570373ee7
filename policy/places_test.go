package policy

import (
	"testing"

	"github.com/guard-exec/guard-exec/parse"
)

// TestPlaces classifies operands in worlds other than the corpus's: a
// project under a system directory, a shell in the home directory outside
// any repository, a shell in /.
func TestPlaces(t *testing.T) {
	for _, tc := range []struct {
		project, cwd, script string
		want                 Place
	}{
		{"/usr/src/app", "/usr/src/app", "rm -rf build", PlaceInside},
		{"/usr/src/app", "/usr/src/app", "rm -rf /usr/src/other", PlaceSystem},
		{"/usr/src/app", "/usr/src/app", "rm -rf ..", PlaceParent},
		{"/var/www/html", "/var/www/html", "rm -rf cache/*", PlaceInside},
		{"/srv/app", "/srv/app", "rm -rf .", PlaceProjectTop},
		{testHome, testHome, "rm -rf Documents", PlaceOutside},
		{testHome, testHome, "rm -rf .cache/x", PlaceInside},
		{"/", "/", "rm -rf etc", PlaceSystem},
		{"/usr", "/usr", "rm -rf lib", PlaceSystem},
		{testProject, testProject, "rm -rf keys", PlaceOutside},
		{testProject, testProject, "rm -rf /tmp/../etc", PlaceSystem},
		{testProject, "/tmp", "rm -rf x", PlaceInside},
		{"/tmp/work", "/tmp/work", "rm -rf build", PlaceInside},
		{"/tmp/work", "/tmp/work", "rm -rf /tmp/other", PlaceInside},
		{"/tmp/work", "/tmp/work", "rm -rf /etc", PlaceSystem},
	} {
		x := testCtx()
		// /tmp is a link to /private/tmp, as on macOS.
		fs := x.FS.(*fakeFS)
		fs.files["/private"], fs.files["/private/tmp"], fs.files["/private/tmp/work"] = true, true, true
		fs.links["/tmp"] = "/private/tmp"
		x.Project, x.Cwd = tc.project, tc.cwd
		a := parse.Analyze(tc.script, parse.Options{Env: x.Env, Dir: tc.cwd})
		if a.Err != nil || len(a.Commands) == 0 {
			t.Fatalf("%q: %v", tc.script, a.Err)
		}
		c := a.Commands[0]
		_, ops := rmArgs(c)
		if got := x.place(c, ops[0]); got != tc.want {
			t.Errorf("project %s, cwd %s, %q: got %s, want %s", tc.project, tc.cwd, tc.script, got, tc.want)
		}
	}
}

// TestWorldWritable reads chmod modes.
func TestWorldWritable(t *testing.T) {
	for mode, want := range map[string]bool{
		"777": true, "0777": true, "666": true, "1777": true, "2": true, "755": false, "775": false, "700": false,
		"a+rwx": true, "o+w": true, "ugo+rwx": true, "a=rwx": true, "+w": false, "u+w": false, "go-w": false,
		"u+x,o+w": true, "g+w": false, "": false,
	} {
		if got := worldWritable(mode); got != want {
			t.Errorf("worldWritable(%q) = %v, want %v", mode, got, want)
		}
	}
}

// TestSQLScanner checks statements are told apart from data.
func TestSQLScanner(t *testing.T) {
	for text, want := range map[string]sqlRisk{
		"DROP DATABASE x":                 sqlDropDatabase,
		"drop schema if exists s cascade": sqlDropDatabase,
		"DROP TABLE t":                    sqlDropTable,
		"DROP TEMPORARY TABLE t":          sqlDropTable,
		"truncate t":                      sqlDropTable,
		"DELETE FROM t":                   sqlAllRows,
		"DELETE FROM t WHERE id = 1":      sqlSafe,
		"delete from t where 1 = 1":       sqlAllRows,
		"UPDATE t SET a = 1":              sqlAllRows,
		"UPDATE t SET a = (SELECT 1 WHERE true) WHERE id=2": sqlSafe,
		"ALTER TABLE t DROP COLUMN c":                       sqlDropColumn,
		"ALTER TABLE t DROP CONSTRAINT c":                   sqlSafe,
		"DROP INDEX i":                                      sqlDropObject,
		"SELECT 'DROP TABLE t'":                             sqlSafe,
		"SELECT 1 -- DROP TABLE t":                          sqlSafe,
		"SELECT 1 # DROP TABLE t":                           sqlSafe,
		"SELECT /* DROP TABLE t */ 1":                       sqlSafe,
		"SELECT $tag$ DROP TABLE t $tag$":                   sqlSafe,
		"SELECT 'it''s'; DROP TABLE t":                      sqlDropTable,
		`SELECT "DROP TABLE t"`:                             sqlSafe,
		"INSERT INTO log VALUES ('DELETE FROM t')":          sqlSafe,
		"CREATE TABLE t AS SELECT * FROM u":                 sqlSafe,
		"WITH x AS (SELECT 1) DELETE FROM t":                sqlAllRows,
		"":                                                  sqlSafe,
	} {
		if got := worstSQL(text); got != want {
			t.Errorf("worstSQL(%q) = %d, want %d", text, got, want)
		}
	}
}

// TestContainerPlaces judges the operands of commands docker run starts
// through the run command's mounts, and those of containers whose mounts
// are not known as another host's.
func TestContainerPlaces(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   Place
	}{
		// the container's own files, from the image
		{"docker run --rm alpine rm -rf /etc", PlaceInside},
		{"docker run --rm -w /app node:20 rm -rf node_modules", PlaceInside},
		{"docker run --rm alpine rm -rf /", PlaceRoot},
		{"docker run --rm alpine rm -rf /*", PlaceRoot},
		// bind mounts: the host path they map to
		{`docker run --rm -v "$PWD":/app -w /app node:20 rm -rf node_modules`, PlaceInside},
		{`docker run --rm -v "$PWD":/app node:20 rm -rf node_modules`, PlaceInside},
		{`docker run --rm -v "$PWD":/app node:20 rm -rf /app/dist`, PlaceInside},
		{`docker run --rm -v "$PWD":/app node:20 rm -rf /app/*`, PlaceProjectTop},
		{`docker run --rm --volume="$PWD:/src" alpine rm -rf /src/x/..`, PlaceProjectRoot},
		{`docker run --rm --volume="$PWD:/src" alpine rm -rf /src/..`, PlaceRoot},
		{"docker run --rm -v /:/host alpine rm -rf /host", PlaceRoot},
		{"docker run --rm -v /:/host alpine rm -rf /host/etc", PlaceSystem},
		{`docker run --rm -v "$HOME":/h alpine rm -rf /h/.ssh`, PlaceOutside},
		{`docker run --rm -v "$HOME":/h alpine rm -rf /h/.cache/pip`, PlaceInside},
		{`docker run --rm -v "$HOME":/root alpine rm -rf .ssh`, PlaceOutside},
		{`docker run --rm -v "$HOME:/root" -w /root alpine rm -rf *`, PlaceHome},
		{"docker run --rm -v ~:/h alpine rm -rf /h/x", PlaceOutside}, // bash leaves "~:" as it is: a volume name
		{"docker run --rm --mount type=bind,source=/home/user,target=/data alpine rm -rf /data", PlaceHome},
		{"podman run --rm -v /etc:/cfg alpine rm -rf /cfg/ssh", PlaceSystem},
		// a path above a mount takes its contents
		{`docker run --rm -v "$HOME":/mnt/h alpine rm -rf /mnt`, PlaceHome},
		{`docker run --rm -v "$HOME":/mnt/h alpine rm -rf /mnt/*`, PlaceHome},
		// volumes hold data the guard cannot see
		{"docker run --rm -v pgdata:/var/lib/postgresql/data postgres rm -rf /var/lib/postgresql/data", PlaceOutside},
		{"docker run --rm -v /cache alpine rm -rf /cache/x", PlaceOutside},
		{`docker run --rm -v "$(pwd)":/app alpine rm -rf /app/x`, PlaceInside},
		{`docker run --rm -v "$(cat d)":/app alpine rm -rf /app/x`, PlaceUnknown},
		{`docker run --rm -v ./data:/data alpine rm -rf /data/x`, PlaceInside},
		// mounts that cannot be known: judged as another host's
		{"docker exec web rm -rf /app/tmp", PlaceOutside},
		{"docker exec db rm -rf /var/lib/postgresql/data", PlaceOutside},
		{"docker exec db rm -rf /var/lib/mysql/ibdata1", PlaceOutside},
		{"docker exec web rm -rf /var/lib/apt/lists/*", PlaceInside},
		{"docker exec web rm -rf /srv/app/releases/old", PlaceInside},
		{"docker compose run --rm app rm -rf /app/tmp", PlaceOutside},
		{"docker run --rm --volumes-from db alpine rm -rf /app/tmp", PlaceOutside},
		{"docker run --rm --privileged alpine rm -rf /app/tmp", PlaceOutside},
		{"docker -H tcp://build:2375 run --rm -v /srv:/s alpine rm -rf /s/x", PlaceOutside},
		{"DOCKER_HOST=ssh://ci docker run --rm alpine rm -rf /app/tmp", PlaceOutside},
		{"ssh ci docker run --rm -v /:/host alpine rm -rf /host/x", PlaceOutside},
	} {
		x := testCtx()
		a := parse.Analyze(tc.script, parse.Options{Env: x.Env, Dir: x.Cwd})
		if a.Err != nil {
			t.Fatalf("%q: %v", tc.script, a.Err)
		}
		x.a = a
		var rm *parse.Command
		for _, c := range a.Commands {
			if c.Name == "rm" {
				rm = c
			}
		}
		if rm == nil {
			t.Fatalf("%q: no rm found", tc.script)
		}
		_, ops := rmArgs(rm)
		if got := x.place(rm, ops[0]); got != tc.want {
			t.Errorf("%q: got %s, want %s", tc.script, got, tc.want)
		}
	}
}
