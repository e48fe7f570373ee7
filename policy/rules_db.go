package policy

import (
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// Database rules: statements that destroy data, reaching a database
// client through its command-line argument (-c, -e, --eval, a positional
// statement), its standard input (a heredoc, a here-string, a pipe from
// literal data), or a CLI that drops a database by itself (dropdb).
//
// DROP DATABASE/SCHEMA, DROP TABLE, TRUNCATE, DELETE or UPDATE without a
// WHERE and ALTER TABLE … DROP COLUMN hold, including DROP TABLE IF
// EXISTS: an agent cannot tell a developer's scratch database from the
// one that matters, and a wrong guess is unrecoverable, while a
// migration or test run that legitimately drops tables goes through the
// project's own migration tool, which these rules do not read. DROP of an
// index, view, function or other object loses no rows and only warns. An
// in-memory SQLite or DuckDB database (no file, or :memory:) is not
// judged: nothing outlives the command.
//
// Framework commands that reset a database (rails db:reset, prisma
// migrate reset, artisan migrate:fresh, manage.py flush) are routine on a
// development database and warn, unless the environment says production,
// where they hold.

var dbClients = []string{"psql", "mysql", "mariadb", "sqlite3", "sqlite", "duckdb", "clickhouse-client",
	"clickhouse", "cockroach", "sqlcmd", "usql", "mongo", "mongosh", "snowsql", "bq", "dropdb", "pg_dropcluster", "mysqladmin", "cqlsh",
	"litecli", "pgcli", "mycli", "turso"}

var dbRules = []*Rule{
	{
		ID: "sql-drop-database", Family: "database", Severity: Hold,
		Message:  "drops a whole database or schema with every table in it",
		Hint:     "back it up first (pg_dump, mysqldump) and let a person run the drop",
		Programs: dbClients,
		Command:  func(_ *Ctx, c *parse.Command) bool { return dbRisk(c) >= sqlDropDatabase },
		Raw:      `(?i)\bdrop\s+(database|schema)\b|\bdropdb\b|\.dropDatabase\(`,
		Examples: []string{
			`psql -c "DROP DATABASE prod"`,
			`mysql -uroot -e 'drop database app'`,
			`mysql -u root -p"$PW" -e "DROP SCHEMA IF EXISTS app"`,
			"psql <<'EOF'\nDROP DATABASE app;\nEOF",
			`echo "DROP DATABASE x;" | psql -h db`,
			`mysql <<< "DROP DATABASE prod"`,
			"dropdb app_production",
			"mysqladmin -f drop app",
			`mongosh --eval "db.dropDatabase()"`,
			`sudo -u postgres psql -c 'drop database x'`,
			`docker exec db psql -U postgres -c "DROP DATABASE app"`,
			`clickhouse-client --query "DROP DATABASE logs"`,
		},
		NotExamples: []string{
			`psql -c "SELECT 'drop database x'"`,
			`psql -c "CREATE DATABASE x"`,
			`grep -r "DROP DATABASE" .`,
			`echo "DROP DATABASE x" > notes.sql`,
			"psql -l",
			"dropdb --help",
		},
	},
	{
		ID: "sql-drop-table", Family: "database", Severity: Hold,
		Message:  "drops or truncates a table, destroying every row in it",
		Hint:     "back the table up first, or do the change through the project's migration tool",
		Programs: dbClients,
		Command:  func(_ *Ctx, c *parse.Command) bool { return dbRisk(c) == sqlDropTable },
		Raw:      `(?i)\b(drop\s+table|truncate\s+(table\s+)?\w)|\.drop\(\)`,
		Examples: []string{
			`psql -c "DROP TABLE users"`,
			`psql -c "drop table if exists tmp_x"`,
			`mysql -e "TRUNCATE TABLE orders"`,
			`sqlite3 app.db "DROP TABLE users"`,
			`sqlite3 app.db 'truncate t'`,
			"psql mydb <<EOF\nBEGIN;\nTRUNCATE events;\nCOMMIT;\nEOF",
			`mongosh app --eval 'db.users.drop()'`,
			`duckdb data.duckdb -c "DROP TABLE t"`,
			`psql -c "select 1; drop table t"`,
		},
		NotExamples: []string{
			`sqlite3 :memory: "create table t(x); drop table t"`,
			`sqlite3 "DROP TABLE t"`,
			`psql -c "SELECT * FROM users -- drop table users"`,
			`psql -c "/* TRUNCATE x */ SELECT 1"`,
			`psql -c 'SELECT $$drop table x$$'`,
			`mysql -e 'select "drop table x"'`,
			`mongosh --eval 'db.notes.insertOne({t: "db.x.drop()"})'`,
		},
	},
	{
		ID: "sql-delete-all-rows", Family: "database", Severity: Hold,
		Message:  "a DELETE or UPDATE without a WHERE clause changes every row of the table",
		Hint:     "add the WHERE clause that selects the rows you mean, and check it with SELECT COUNT(*) first",
		Programs: dbClients,
		Command:  func(_ *Ctx, c *parse.Command) bool { return dbRisk(c) == sqlAllRows },
		Raw:      `(?i)\bdelete\s+from\s+[\w."]+\s*(;|"|'|$)|\bdeleteMany\(\s*(\{\s*\})?\s*\)`,
		Examples: []string{
			`psql -c "DELETE FROM users"`,
			`mysql -e "delete from orders;"`,
			`psql -c "DELETE FROM users WHERE 1=1"`,
			`psql -c "UPDATE users SET email = NULL"`,
			`sqlite3 app.db "delete from t"`,
			`mongosh --eval "db.users.deleteMany({})"`,
			`echo 'DELETE FROM sessions;' | mysql app`,
		},
		NotExamples: []string{
			`psql -c "DELETE FROM users WHERE id = 42"`,
			`psql -c "UPDATE users SET name='x' WHERE id IN (SELECT id FROM t)"`,
			`psql -c "WITH old AS (SELECT id FROM t) DELETE FROM t WHERE id IN (SELECT id FROM old)"`,
			`mongosh --eval "db.users.deleteMany({age: {\$lt: 18}})"`,
			`psql -c "SELECT * FROM t"`,
		},
	},
	{
		ID: "sql-drop-column", Family: "database", Severity: Hold,
		Message:  "drops a column (ALTER TABLE … DROP COLUMN), deleting its data in every row",
		Hint:     "make the change in a migration, after backing up the column",
		Programs: dbClients,
		Command:  func(_ *Ctx, c *parse.Command) bool { return dbRisk(c) == sqlDropColumn },
		Raw:      `(?i)\balter\s+table\b[^;]*\bdrop\s+(column\s+)?\w`,
		Examples: []string{
			`psql -c "ALTER TABLE users DROP COLUMN email"`,
			`mysql -e "alter table t drop c"`,
		},
		NotExamples: []string{
			`psql -c "ALTER TABLE t DROP CONSTRAINT t_fk"`,
			`psql -c "ALTER TABLE t ADD COLUMN c int"`,
			`psql -c "ALTER TABLE t ALTER COLUMN c DROP DEFAULT"`,
		},
	},
	{
		ID: "sql-drop-object", Family: "database", Severity: Warn,
		Message:  "drops a database object (index, view, function, role …); no table data is lost",
		Hint:     "make sure nothing depends on it, and keep its definition to recreate it",
		Programs: dbClients,
		Command:  func(_ *Ctx, c *parse.Command) bool { return dbRisk(c) == sqlDropObject },
		Examples: []string{
			`psql -c "DROP INDEX idx_users_email"`,
			`psql -c "drop view if exists v_report"`,
			`mysql -e "DROP USER 'x'@'%'"`,
		},
		NotExamples: []string{`psql -c "DROP TABLE t"`, `psql -c "CREATE INDEX i ON t(c)"`},
	},
	{
		ID: "redis-flush", Family: "database", Severity: Hold,
		Message:  "deletes every key of the Redis database (FLUSHDB) or of all of them (FLUSHALL)",
		Hint:     "delete the keys you mean (redis-cli --scan --pattern 'prefix:*' | xargs redis-cli del)",
		Programs: []string{"redis-cli", "valkey-cli", "keydb-cli"},
		Command:  redisFlush,
		Raw:      `(?i)\bflush(all|db)\b`,
		Examples: []string{
			"redis-cli FLUSHALL",
			"redis-cli -h cache -n 2 flushdb async",
			"echo FLUSHALL | redis-cli",
			"redis-cli <<< 'flushall'",
			"docker exec redis redis-cli flushall",
		},
		NotExamples: []string{"redis-cli GET key", "redis-cli -n 1 DEL session:1", "redis-cli INFO", "echo flushall"},
	},
	{
		ID: "kv-delete-all", Family: "database", Severity: Hold,
		Message:  "deletes every key of a key-value store or every index of a search cluster",
		Hint:     "delete the keys or the index you mean by name, after listing them",
		Programs: []string{"etcdctl", "consul", "curl", "http", "https", "xh"},
		Command:  kvDeleteAll,
		Raw:      `\betcdctl\b[^|;&\n]*\bdel\b[^|;&\n]*(--prefix|--from-key)\s+("?"|'?'|/)(\s|$)|\bconsul\s+kv\s+delete\s+-recurse\b|-X\s*DELETE\b[^|;&\n]*/(_all|[\w.-]*\*)|_delete_by_query\b[^|;&\n]*match_all`,
		Examples: []string{
			`etcdctl del "" --prefix`,
			"etcdctl del --from-key ''",
			"consul kv delete -recurse",
			"curl -X DELETE http://localhost:9200/_all",
			"curl -XDELETE 'http://es:9200/*'",
			"http DELETE es:9200/_all",
			"curl -XDELETE 'localhost:9200/logs-*'",
			`curl -X POST http://es:9200/_all/_delete_by_query -d '{"query":{"match_all":{}}}'`,
		},
		NotExamples: []string{
			"etcdctl del /app/config/x",
			"curl -X DELETE http://es:9200/logs-2024.01.01",
			`curl -X POST http://es:9200/logs/_delete_by_query -d '{"query":{"term":{"user":"x"}}}'`,
			"etcdctl get '' --prefix --keys-only",
			"consul kv delete app/config",
			"curl -X DELETE http://localhost:8080/api/items/42",
			"curl http://localhost:9200/_all/_search",
		},
	},
	{
		ID: "db-reset", Family: "database", Severity: Hold,
		Message:  "resets or drops the application's database through its framework, deleting its data",
		Hint:     "run the migrations instead (rails db:migrate, prisma migrate dev), or point the reset at the test database (RAILS_ENV=test)",
		Programs: withPrograms(dbResetPrograms, pythons),
		Command:  func(x *Ctx, c *parse.Command) bool { return dbReset(c) && envNamed(x, c) == "" },
		Raw:      `(?i)\b(db:(drop|reset|purge)|migrate\s+reset|migrate:(fresh|reset)|ecto\.(drop|reset)|manage\.py\s+flush|database\s+drop)\b`,
		Examples: []string{
			"rails db:reset",
			"bin/rails db:drop db:create db:migrate",
			"bundle exec rake db:schema:load",
			"npx prisma migrate reset --force",
			"python manage.py flush --noinput",
			"php artisan migrate:fresh --seed",
			"mix ecto.reset",
			"dotnet ef database drop -f",
		},
		NotExamples: []string{"rails db:migrate", "npx prisma migrate dev", "python manage.py migrate", "php artisan migrate",
			"rails server", "RAILS_ENV=test rails db:reset"},
	},
	{
		ID: "db-reset-test", Family: "database", Severity: Warn,
		Message:  "resets the test database through the application's framework",
		Hint:     "fine for a test database; make sure the environment really points at one",
		Programs: withPrograms(dbResetPrograms, pythons),
		Command:  func(x *Ctx, c *parse.Command) bool { return dbReset(c) && isTestEnv(envNamed(x, c)) },
		Examples: []string{
			"RAILS_ENV=test rails db:reset",
			"MIX_ENV=test mix ecto.reset",
			"NODE_ENV=test npx prisma migrate reset --force",
			"NODE_ENV=test yarn prisma migrate reset --force",
			"NODE_ENV=test pnpm dlx prisma migrate reset --force",
		},
		NotExamples: []string{"rails db:reset", "RAILS_ENV=test rails db:migrate", "RAILS_ENV=production rails db:reset"},
	},
	{
		ID: "db-reset-production", Family: "database", Severity: Hold,
		Message:  "resets or drops a database the environment marks as production",
		Hint:     "never reset a production database from an agent; ask a person",
		Programs: withPrograms(dbResetPrograms, pythons),
		Command:  func(x *Ctx, c *parse.Command) bool { return dbReset(c) && isProd(envNamed(x, c)) },
		Raw:      `(?i)\b(RAILS|RACK|NODE|APP|MIX)_ENV=prod\w*\s[^;&|\n]*\b(db:(drop|reset|purge)|migrate\s+reset|migrate:(fresh|reset)|ecto\.(drop|reset))\b`,
		Examples: []string{
			"RAILS_ENV=production rails db:reset",
			"NODE_ENV=production npx prisma migrate reset --force",
			"NODE_ENV=production bunx prisma migrate reset --force",
			"DISABLE_DATABASE_ENVIRONMENT_CHECK=1 rake db:drop",
			"php artisan migrate:fresh --env=production --force",
		},
		NotExamples: []string{"RAILS_ENV=test rails db:reset", "RAILS_ENV=production rails db:migrate"},
	},
}

var dbResetPrograms = []string{"rails", "rake", "prisma", "php", "artisan", "manage.py", "django-admin", "mix",
	"dotnet", "sequelize", "sequelize-cli", "typeorm", "knex", "alembic", "flask", "supabase"}

// dbTexts returns the statements c runs against its database, and whether
// the database is a real one (not an in-memory SQLite or DuckDB).
func dbTexts(c *parse.Command) (texts []string, mongo bool) {
	stdin := func() {
		if c.Stdin != nil && c.Stdin.Text != "" && (c.Stdin.Kind == parse.InputHeredoc || c.Stdin.Kind == parse.InputHereString || c.Stdin.Kind == parse.InputPipe || c.Stdin.Kind == parse.InputFile || c.Stdin.Kind == parse.InputProcSubst) {
			texts = append(texts, strings.ReplaceAll(c.Stdin.Text, parse.Unknown, " "))
		}
	}
	// The statements the row gives the language of a query (psql -c,
	// mysql -e, mongosh --eval).
	values := func() {
		for _, ra := range c.Roles {
			if ra.Role == parse.RoleData && (ra.Lang == "sql" || ra.Lang == "mongo") {
				texts = append(texts, ra.Word.Value)
			}
		}
	}
	switch c.Name {
	case "psql", "pgcli", "usql":
		values()
		stdin()
	case "mysql", "mariadb", "mycli":
		values()
		stdin()
	case "sqlite3", "sqlite", "duckdb", "litecli":
		// The row's first operand names the database; none, "" or
		// :memory: is an in-memory one: nothing outlives the command.
		ops := c.Operands(parse.RoleData)
		if len(ops) == 0 || ops[0].Value == ":memory:" || ops[0].Value == "" {
			return nil, false
		}
		values() // -cmd, duckdb -c and -s, litecli -e, the operands after the database
		stdin()
	case "clickhouse-client", "clickhouse":
		values()
		stdin()
	case "cockroach":
		values()
		stdin()
	case "sqlcmd":
		values()
		stdin()
	case "snowsql", "bq", "turso":
		values() // every operand, and snowsql -q
	case "cqlsh":
		values()
		stdin()
	case "mongo", "mongosh":
		values()
		stdin()
		return texts, true
	}
	return texts, false
}

// dbRisk is the worst risk among c's statements.
func dbRisk(c *parse.Command) sqlRisk {
	switch c.Name {
	case "dropdb", "pg_dropcluster":
		if c.Flag("info") {
			return sqlSafe
		}
		return sqlDropDatabase
	case "bq":
		// bq rm -d DATASET (with -r, its tables too) or rm -t TABLE.
		if ops := c.Operands(parse.RoleData); len(ops) > 0 && ops[0].Value == "rm" {
			if c.Flag("dataset") || c.Flag("recursive") {
				return sqlDropDatabase
			}
			return sqlDropTable
		}
	case "mysqladmin":
		for _, w := range c.Operands(parse.RoleData) {
			if strings.EqualFold(w.Value, "drop") {
				return sqlDropDatabase
			}
		}
		return sqlSafe
	}
	texts, mongo := dbTexts(c)
	w := sqlSafe
	for _, t := range texts {
		r := sqlSafe
		if mongo {
			r = mongoRisk(t)
		} else {
			r = worstSQL(t)
		}
		if r > w {
			w = r
		}
	}
	return w
}

// redisFlush reports FLUSHALL or FLUSHDB sent by redis-cli as arguments
// or on its input.
func redisFlush(_ *Ctx, c *parse.Command) bool {
	if ops := c.Operands(parse.RoleData); c.Row == "redis-cli" && len(ops) > 0 {
		return isFlush(ops[0].Value)
	}
	if c.Stdin != nil {
		for _, line := range strings.Split(c.Stdin.Text, "\n") {
			if f := strings.Fields(line); len(f) > 0 && isFlush(f[0]) {
				return true
			}
		}
	}
	return false
}

func isFlush(v string) bool {
	return strings.EqualFold(v, "flushall") || strings.EqualFold(v, "flushdb")
}

// dbReset reports a framework command that resets or drops the
// application's database.
func dbReset(c *parse.Command) bool {
	name, fc := frameworkTool(c), c
	ops := fc.Operands(parse.RoleData)
	has := func(vals ...string) bool {
		for _, o := range ops {
			if anyString(vals, o.Value) {
				return true
			}
		}
		return false
	}
	sub := ""
	if len(ops) > 0 {
		sub = ops[0].Value
	}
	switch name {
	case "rails", "rake":
		return has("db:drop", "db:reset", "db:purge", "db:schema:load", "db:structure:load", "db:migrate:reset", "db:truncate_all", "db:seed:replant", "db:drop:all", "db:purge:all")
	case "prisma":
		if sub == "migrate" && len(ops) > 1 && ops[1].Value == "reset" {
			return true
		}
		return sub == "db" && len(ops) > 1 && ops[1].Value == "push" && fc.Flag("loses-data")
	case "manage.py", "django-admin":
		return sub == "flush" || sub == "reset_db" || sub == "reset_schema"
	case "artisan":
		return sub == "migrate:fresh" || sub == "migrate:reset" || sub == "migrate:refresh" || sub == "db:wipe"
	case "mix":
		return sub == "ecto.drop" || sub == "ecto.reset"
	case "dotnet":
		return sub == "ef" && has("drop") && has("database")
	case "sequelize", "sequelize-cli":
		return sub == "db:drop" || sub == "db:migrate:undo:all"
	case "typeorm":
		return sub == "schema:drop"
	case "knex":
		return sub == "migrate:rollback" && fc.Flag("all")
	case "alembic":
		return sub == "downgrade" && has("base")
	case "flask":
		// Flask-Migrate's flask db downgrade base is alembic's.
		return sub == "db" && len(ops) > 1 && ops[1].Value == "downgrade" && has("base")
	case "supabase":
		return sub == "db" && has("reset")
	}
	return false
}

// frameworkTool returns the program a command runs: its name, or, for
// an interpreter running a script or module with a row of its own
// (python manage.py, python -m twine, php artisan: the rows' RunBy),
// the program of that row, which parse read the words after it with.
func frameworkTool(c *parse.Command) string {
	if name, _, _ := strings.Cut(c.Row, " "); name != "" {
		if p := parse.LookupProgram(c.Name); p == nil || p.Name != name {
			return name
		}
	}
	return c.Name
}

// envNamed returns the environment a framework command says it targets:
// "production"-like when any of the usual variables or an --env option
// says so, else the first such name given, else "". A reset that skips the
// framework's own production check counts as production.
func envNamed(x *Ctx, c *parse.Command) string {
	var named []string
	for _, v := range []string{"RAILS_ENV", "RACK_ENV", "NODE_ENV", "APP_ENV", "MIX_ENV", "FLASK_ENV", "ENVIRONMENT", "STAGE"} {
		if val := x.envValue(c, v); val != "" {
			named = append(named, val)
		}
	}
	if m := strings.ToLower(x.envValue(c, "DJANGO_SETTINGS_MODULE")); m != "" {
		switch {
		case strings.Contains(m, "prod"):
			named = append(named, "production")
		case strings.Contains(m, "test"):
			named = append(named, "test")
		}
	}
	if x.envValue(c, "DISABLE_DATABASE_ENVIRONMENT_CHECK") == "1" {
		named = append(named, "production")
	}
	for _, w := range c.OptionValues("-e") {
		named = append(named, w.Value)
	}
	for _, n := range named {
		if isProd(n) {
			return n
		}
	}
	if len(named) > 0 {
		return named[0]
	}
	return ""
}

// isTestEnv reports whether an environment name is a test one, whose
// database exists to be thrown away.
func isTestEnv(v string) bool {
	v = strings.ToLower(v)
	return v == "test" || v == "testing" || v == "ci"
}

func isProd(v string) bool {
	v = strings.ToLower(v)
	return v == "production" || v == "prod" || v == "live"
}

// kvDeleteAll reports deletes of a whole key space: etcdctl del with an
// empty or "/" prefix (or --from-key), consul kv delete -recurse of the
// root, and an HTTP DELETE of every index of a search cluster (/_all,
// /*).
func kvDeleteAll(_ *Ctx, c *parse.Command) bool {
	switch c.Name {
	case "etcdctl":
		ops := c.Operands(parse.RoleData)
		if len(ops) == 0 || ops[0].Value != "del" || !c.Flag("prefix") {
			return false
		}
		return len(ops) == 1 || ops[1].Value == "" || ops[1].Value == "/"
	case "consul":
		ops := c.Operands(parse.RoleData)
		if len(ops) < 2 || ops[0].Value != "kv" || ops[1].Value != "delete" || !c.Flag("recurse") {
			return false
		}
		for _, op := range ops[2:] {
			if op.Value != "" && op.Value != "/" {
				return false
			}
		}
		return true
	}
	if deleteByQueryAll(c) {
		return true
	}
	method, urls := httpRequest(c)
	if !strings.EqualFold(method, "DELETE") {
		return false
	}
	for _, u := range urls {
		if i := strings.Index(u, "://"); i >= 0 {
			u = u[i+3:]
		}
		_, path, _ := strings.Cut(u, "/")
		top, _, _ := strings.Cut(path, "/")
		top, _, _ = strings.Cut(top, "?")
		if top == "_all" || strings.Contains(top, "*") {
			return true // every index, or every one a pattern matches (logs-*)
		}
	}
	return false
}

// deleteByQueryAll reports a search cluster's _delete_by_query whose body
// matches every document (match_all).
func deleteByQueryAll(c *parse.Command) bool {
	_, urls := httpRequest(c)
	hit := false
	for _, u := range urls {
		hit = hit || strings.Contains(u, "/_delete_by_query")
	}
	if !hit {
		return false
	}
	for _, ra := range c.Roles {
		if ra.Role == parse.RoleSent && strings.Contains(ra.Word.Value, "match_all") {
			return true
		}
	}
	return false
}

// httpRequest returns the method and the URLs of a curl, httpie or xh
// command.
func httpRequest(c *parse.Command) (method string, urls []string) {
	ops := c.Operands(parse.RoleData)
	if c.Row != "curl" {
		// httpie/xh: [METHOD] URL [items…]
		if c.Row == "http" && len(ops) >= 2 && strings.ToUpper(ops[0].Value) == ops[0].Value && !strings.Contains(ops[0].Value, "/") {
			return ops[0].Value, []string{ops[1].Value}
		}
		return "GET", nil
	}
	method = "GET"
	for _, m := range c.OptionValues("-X") {
		method = m.Value
	}
	for _, op := range ops {
		urls = append(urls, op.Value)
	}
	for _, u := range c.OptionValues("--url") {
		urls = append(urls, u.Value)
	}
	return method, urls
}
