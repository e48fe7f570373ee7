package parse

// Rows of database clients, key-value stores, HTTP clients and the
// application frameworks that manage a database. The statements a client
// sends its server are data with the language "sql" (or "mongo"): policy
// reads them from the roles (Command.Roles) and judges what they drop.

// frameworkOpts are the options of the frameworks' database commands:
// the environment they target and the database they name.
const frameworkOpts = "-e|--env|--environment=data --database= --schema="

var dbRows = []Program{
	{Name: "psql", Also: []string{"pgcli", "usql"}, Args: "*:data", Env: "PSQL_PAGER:shell PSQL_EDITOR:shell " + pagerEnv + " " + editorEnv,
		Opts: "-c|--command=data:sql -d|--dbname= -f|--file=read:sql -h|--host= -p|--port= -U|--username= -v|--set|--variable= -o|--output= " +
			"-L|--log-file= -P|--pset= -F|--field-separator= -R|--record-separator= -T|--table-attr=",
		Hold: []string{`psql -c 'DROP DATABASE app'`, `psql -h db -U app -c "drop table users"`, `psql --command='TRUNCATE users' app`, `psql app -c 'DROP SCHEMA public CASCADE'`, `psql -Xqc 'DROP DATABASE app'`, `PSQL_PAGER='rm -rf ~;' psql -c 'SELECT 1'`, `psql -c '\! rm -rf ~'`, `psql app -c '\o |sh -c "rm -rf /home/dev"'`,
			`echo 'DROP SCHEMA public CASCADE;' > x.sql; psql -f x.sql`, `printf 'DROP TABLE users;\n' > d.sql && psql app --file=d.sql`},
		Allow: []string{`psql -c 'SELECT 1'`, `psql -d drop -c 'SELECT 1'`, `psql -f migrations/001_init.sql`, `echo 'SELECT 1;' > q.sql; psql -f q.sql`, `PAGER=less psql -c 'SELECT 1'`, `PSQL_PAGER='pspg -s 6' psql app`}},
	{Name: "mysql", Also: []string{"mariadb", "mycli"}, Args: "*:data", Env: pagerEnv + " " + editorEnv,
		Opts: "--pager=shell -e|--execute=data:sql --init-command=data:sql -D|--database= -h|--host= -u|--user= -P|--port= -S|--socket= --default-character-set=",
		Hold: []string{`mysql -e 'DROP DATABASE app'`, `mysql --pager='rm -rf ~' app`, `mysql -e 'system rm -rf ~'`, `PAGER='rm -rf ~;' mysql app`, `mysql -u root -h db --execute='drop database app'`, `mysql -uroot -e"DROP DATABASE app"`}, Allow: []string{`mysql -e 'SHOW TABLES' app`}},
	// sqlite3's row is with the interpreters (its dot commands run
	// programs); duckdb and litecli name the database as it does, and
	// duckdb runs its later operands as statements too.
	{Name: "duckdb", SingleDashLong: true, Args: "0:data 1*:data:sql", Opts: "-c=data:sql -s=data:sql -cmd=data:sql -init=read -separator= -newline= -nullvalue=",
		Hold: []string{`duckdb data.duckdb -c "DROP TABLE t"`, `duckdb data.duckdb 'DROP TABLE t'`}, Allow: []string{`duckdb -c 'DROP TABLE t'`, `duckdb :memory: 'DROP TABLE t'`}},
	{Name: "litecli", Args: "0:data", Opts: "-e|--execute=data:sql -D|--database= -l|--logfile= -R|--prompt= --liteclirc=",
		Hold: []string{`litecli app.db -e 'DROP TABLE users'`}, Allow: []string{`litecli app.db -e 'SELECT 1'`, `litecli -e 'DROP TABLE t'`}},
	{Name: "clickhouse-client", Also: []string{"clickhouse"}, Args: "*:data",
		Opts: "-q|--query=data:sql -h|--host= -d|--database= -u|--user= -p|--password= --port=",
		Hold: []string{`clickhouse-client -q 'DROP DATABASE logs'`, `clickhouse-client --host ch --query='drop table t'`}},
	{Name: "cockroach", Args: "*:data", Opts: "-e|--execute=data:sql -d|--database= --url= --host= --user=",
		Hold: []string{`cockroach sql --url "$DB" -e 'DROP DATABASE app CASCADE'`}},
	{Name: "sqlcmd", Args: "*:data", Opts: "-Q=data:sql -q=data:sql -S= -d= -U= -P= -i=read:sql",
		Hold: []string{`sqlcmd -S db -Q 'DROP DATABASE app'`}},
	// Clients of hosted warehouses: every operand may be a statement
	// (bq query SQL, turso db shell DB SQL).
	{Name: "snowsql", Args: "*:data:sql", Opts: "-q|--query=data:sql -f|--filename=read:sql -a|--accountname= -u|--username= -d|--dbname= -s|--schemaname= -w|--warehouse= -r|--rolename= -c|--connection= -o|--option=",
		Hold: []string{`snowsql -c prod -q 'DROP DATABASE app'`}, Allow: []string{`snowsql -c prod -q 'SELECT 1'`}},
	{Name: "bq", Args: "*:data:sql", Flags: "recursive:-r|--recursive dataset:-d|--dataset",
		Hold: []string{`bq query --nouse_legacy_sql 'DROP TABLE ds.users'`, `bq rm -r -f -d proj:dataset`, `bq rm -f -t proj:ds.users`}, Allow: []string{`bq query 'SELECT 1'`, `bq ls proj:dataset`}},
	// Flask-Migrate: flask db downgrade base undoes every migration.
	{Name: "flask", Opts: "-A|--app= -e|--env-file=read", Args: "*:data",
		Hold: []string{`flask db downgrade base`}, Allow: []string{`flask db upgrade`, `flask db downgrade`, `flask run --debug`}},
	{Name: "turso", Args: "*:data:sql", Hold: []string{`turso db shell app 'DROP TABLE users'`}, Allow: []string{`turso db shell app 'SELECT 1'`}},
	{Name: "cqlsh", Args: "*:data", Opts: "-e|--execute=data:sql -k|--keyspace= -u|--username= -f|--file=read:sql",
		Hold: []string{`cqlsh -e 'DROP KEYSPACE app'`}},
	{Name: "mongo", Also: []string{"mongosh"}, Args: "*:data", Opts: "--eval=data:mongo --host= --port= --username= --password= --file=",
		Hold: []string{`mongosh --eval 'db.dropDatabase()'`, `mongosh --host db --eval='db.users.drop()'`}},
	// redis-cli: options, then the command and its arguments.
	{Name: "redis-cli", Also: []string{"valkey-cli", "keydb-cli"}, Args: "*:data",
		Opts: "-h= -p= -s= -a= -u= -n= -r= -i= -d= -D= --user= --pass= --cacert= --cacertdir= --cert= --key= --sni= --rdb= " +
			"--functions-rdb= --eval= --pattern= --count= --quoted-pattern= --memkeys-samples= --replica-rdb=",
		Hold:  []string{`redis-cli FLUSHALL`, `redis-cli -h cache -n 2 flushdb async`, `redis-cli --user admin --pass x flushall`, `redis-cli -n2 FLUSHDB`},
		Allow: []string{`redis-cli -n flushall GET k`, `redis-cli --scan --pattern 'flushall:*'`}},
	{Name: "etcdctl", Args: "*:data", Flags: "prefix:--prefix|--from-key",
		Opts:  "--endpoints= --user= --password= --cacert= --cert= --key= --dial-timeout= --command-timeout=",
		Hold:  []string{`etcdctl del "" --prefix`, `etcdctl --endpoints http://e:2379 del --prefix /`, `etcdctl del --from-key ''`},
		Allow: []string{`etcdctl del /app/x`, `etcdctl get '' --prefix`}},
	// consul takes Go's flags: one dash or two, values after = or a space.
	{Name: "consul", SingleDashLong: true, Args: "*:data", Flags: "recurse:-recurse|--recurse",
		Opts:  "-datacenter|--datacenter= -token|--token= -token-file|--token-file= -http-addr|--http-addr= -namespace|--namespace= -partition|--partition= -ca-file|--ca-file=",
		Hold:  []string{`consul kv delete -recurse`, `consul kv delete --recurse /`, `consul kv delete -datacenter dc1 -recurse`},
		Allow: []string{`consul kv delete -recurse app/config`, `consul kv get -recurse`}},
	// httpie and xh: [METHOD] URL [items…].
	{Name: "http", Also: []string{"https", "xh", "xhs"}, Args: "*:data",
		Opts: "-a|--auth= -A|--auth-type= -o|--output= --session= --session-read-only= --verify= --cert= --cert-key= --proxy= --timeout=",
		Hold: []string{`http DELETE es:9200/_all`, `http -v DELETE es:9200/_all`, `xh -a u:p DELETE http://es:9200/*`}, Allow: []string{`http es:9200/_all`, `http DELETE es:9200/idx`}},
	{Name: "rails", Also: []string{"rake"}, Opts: frameworkOpts, Args: "*:data", Runs: "Rakefile:ruby rakefile:ruby Rakefile.rb:ruby",
		Hold:  []string{`rails db:reset`, `bin/rails db:drop db:create`, `rails -e production db:reset`, `rails db:reset --environment=production`},
		Allow: []string{`rails db:migrate`, `rails db:reset -e test`, `rails db:reset --environment=test`}},
	{Name: "prisma", RunBy: []string{"python -m"}, Opts: frameworkOpts, Args: "*:data", Flags: "loses-data:--force-reset|--accept-data-loss",
		Hold:  []string{`npx prisma migrate reset --force`, `npx prisma db push --force-reset`, `prisma db push --accept-data-loss`},
		Allow: []string{`npx prisma migrate dev`, `prisma db push`}},
	{Name: "manage.py", Also: []string{"django-admin", "django"}, RunBy: []string{"python", "python -m"}, Opts: frameworkOpts + " --settings=", Args: "*:data",
		Hold: []string{`python manage.py flush --noinput`, `python3 manage.py --settings x.prod reset_db`, `python -u manage.py flush`, `python -m django flush --noinput`}, Allow: []string{`python manage.py migrate`}},
	{Name: "artisan", RunBy: []string{"php"}, Opts: frameworkOpts, Args: "*:data", Hold: []string{`php artisan migrate:fresh --seed`, `php -d memory_limit=-1 artisan migrate:fresh`}, Allow: []string{`php artisan migrate`}},
	{Name: "mix", Opts: frameworkOpts, Args: "*:data", Flags: "!dry-run:--dry-run " + publishHelp, Hold: []string{`mix ecto.reset`, `mix hex.publish`}, Allow: []string{`mix hex.publish --dry-run`}},
	{Name: "dotnet", Opts: frameworkOpts, Args: "*:data", Flags: publishHelp, Hold: []string{`dotnet ef database drop -f`}, Allow: []string{`dotnet ef database update`}},
	{Name: "sequelize", Also: []string{"sequelize-cli"}, Opts: frameworkOpts, Args: "*:data", Hold: []string{`npx sequelize db:migrate:undo:all`}},
	{Name: "typeorm", Opts: frameworkOpts, Args: "*:data", Hold: []string{`npx typeorm schema:drop`}},
	{Name: "knex", Opts: frameworkOpts, Args: "*:data", Flags: "all:--all", Hold: []string{`npx knex migrate:rollback --all`}, Allow: []string{`npx knex migrate:rollback`}},
	{Name: "alembic", RunBy: []string{"python -m"}, Opts: frameworkOpts + " -c|--config= -n|--name=", Args: "*:data", Hold: []string{`alembic downgrade base`, `alembic -c prod.ini downgrade base`, `python -W ignore -m alembic downgrade base`},
		Allow: []string{`alembic upgrade head`, `python -m alembic upgrade head`}},
	{Name: "supabase", Opts: frameworkOpts, Args: "*:data", Hold: []string{`supabase db reset`}, Allow: []string{`supabase start`}},
}
