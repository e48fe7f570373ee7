package parse

import (
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestTableLanguagesNoPanic feeds every code language of the program
// table truncated and unbalanced text: a converter never panics (the
// analysis would turn a panic into a hold, but a crash in a converter is
// a bug).
func TestTableLanguagesNoPanic(t *testing.T) {
	inputs := []string{"", "{", "}", "[", "(", "$(", "${", "\"", "'", "!", "(shell-command", "(call-process \"rm\"",
		"exec", "spawn {", "file delete", "x:;", "a: $(shell", "\t", "ext::", "ext::%", "%", "|", "||-", ":exe '",
		"norm :", "r !", "lua", "py3", "call system(", "shell", "pipe |", "{{", "[exec rm", "a := ", "x\\\n"}
	for lang, conv := range codeLangs() {
		for _, in := range inputs {
			for _, s := range []string{in, in + in, strings.Repeat(in, 3) + "x"} {
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%s: %q: panic %v", lang, s, r)
						}
					}()
					fr := newRoot(&Analysis{}, testOptions()).topFrame("")
					conv(&codeRun{fr: fr, c: &Command{Name: lang}, via: lang}, s)
				}()
			}
		}
	}
	mf := &makefile{vars: map[string]string{}, env: func(string) (string, bool) { return "", false }}
	for _, in := range inputs {
		mf.read(in + "\n\t" + in)
		mf.expand(in, nil, 0)
		mf.recipes(nil)
	}
}

// TestProgramTableRows checks the rows parse: every option spec names a
// known role and language, and every row has a unique name.
func TestProgramTableRows(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range ProgramTable() {
		if seen[p.Name] {
			t.Errorf("row %q twice", p.Name)
		}
		seen[p.Name] = true
		for _, ra := range append(append([]argRow{}, p.args...), optArgRows(p)...) {
			if ra.spec.role == RoleCode || ra.spec.role == RoleScript {
				if _, ok := interpLangs()[ra.spec.lang]; !ok && codeLangs()[ra.spec.lang] == nil && rowHooks()[p.Name] == nil && ra.spec.lang != "sh" {
					t.Errorf("%s: language %q has no converter", p.Name, ra.spec.lang)
				}
			}
		}
	}
}

func optArgRows(p *Program) []argRow {
	var out []argRow
	for _, o := range p.opts {
		for _, r := range append([]*optRow{o}, o.more...) {
			if r.spec != nil {
				out = append(out, argRow{spec: *r.spec})
			}
		}
	}
	return out
}

// TestRowFlags: a row's Flags are recorded as meanings on the command it
// reads, with every spelling getopt_long accepts (clusters, permuted,
// abbreviated), none from an option's value or an operand after "--", and
// every meaning for a flag word whose value is not known.
func TestRowFlags(t *testing.T) {
	for _, tc := range []struct {
		line, row string
		want      string // the meanings, sorted, space separated
		ops       string // the RoleDeleted operands, RoleData for git clean's pathspecs
	}{
		{`rm -rf /x`, "rm", "force recursive", "/x"},
		{`rm /x -R`, "rm", "recursive", "/x"},
		{`rm --rec --fo /x`, "rm", "force recursive", "/x"},
		{`rm --recursive=x /x`, "rm", "recursive", "/x"},
		{`rm -- -r`, "rm", "", "-r"},
		{`rm -i a b`, "rm", "", "a b"},
		{`rm -$(cat f) a`, "rm", "force recursive", "a"},
		{`rm "$(cat f)"`, "rm", "", "\x00"},
		{`sudo rm -r a`, "rm", "recursive", "a"},
		{`git commit -m '-n' -a`, "git commit", "", ""},
		{`git commit -anm wip`, "git commit", "hooks-off", ""},
		{`git -C /tmp commit --no-verify`, "git commit", "hooks-off", ""},
		{`git cherry-pick --no-verify x`, "git merge", "hooks-off", ""},
		{`git pull --no-verify`, "git pull", "hooks-off", ""},
		{`git clean -fdx -e keep build`, "git clean", "force ignored", "build"},
		{`git gc --prune=now`, "git gc", "prune-now", ""},
		{`git gc --pru=all`, "git gc", "prune-now", ""},
		{`git gc --prune=2.weeks.ago`, "git gc", "", ""},
		{`git gc --prune now`, "git gc", "", ""},
		{`git push -uf --dry-run origin main`, "git push", "dry-run force", ""},
		{`git push --force-with-lease origin main`, "git push", "", ""},
		{`git -P push --for origin`, "git push", "force", ""},
		{`git branch -Dr origin/x`, "git branch", "force-delete", ""},
		{`git stash -u --all`, "git stash", "all", ""},
		{`grep -rn x src`, "grep", "recursive", ""},
		{`grep -e -r x`, "grep", "", ""},
		{`egrep --deref x /etc`, "grep", "recursive", ""},
		{`git config core.pager less --system`, "git config", "system", ""},
		{`git config --global set core.pager less`, "git config set", "global", ""},
		{`git config set core.pager less --system`, "git config set", "system", ""},
		{`git config user.name get`, "git config", "", ""},
		{`git stash push --include-ignored`, "git stash push", "all", ""},
		{`git clean -nf`, "git clean", "dry-run force", ""},
		{`git worktree remove -f ../wt`, "git worktree remove", "force", ""},
		{`git worktree -f remove ../wt`, "git worktree remove", "", ""},
		{`ls -rf`, "ls", "", ""}, // ls has a row, with no meanings for its flags
	} {
		an := Analyze(tc.line, testOptions())
		if len(an.Commands) == 0 {
			t.Errorf("%q: no command", tc.line)
			continue
		}
		c := an.Commands[0]
		for _, x := range an.Commands {
			if tc.row != "" && x.Name == strings.Fields(tc.row)[0] {
				c = x
			}
		}
		r := RoleDeleted
		if c.Row == "git clean" {
			r = RoleData
		}
		flags, ops := sortedFlags(c), operandText(c, r)
		if c.Row != tc.row || flags != tc.want || ops != tc.ops {
			t.Errorf("%q: row %q flags %q deleted %q, want %q %q %q", tc.line, c.Row, flags, ops, tc.row, tc.want, tc.ops)
		}
	}
}

// TestDockerRows: docker's cleanup subcommands are rows whose flags and
// operands policy reads (Command.Row, Flag, Operands).
func TestDockerRows(t *testing.T) {
	for _, tc := range []struct{ line, row, flags string }{
		{`docker -H unix:///x compose -f a.yml down -v`, "docker compose down", "volumes"},
		{`docker-compose -p x down --volumes`, "docker-compose down", "volumes"},
		{`podman system prune -af`, "docker system prune", "all"},
		{`docker system prune --filter until=24h`, "docker system prune", ""},
		{`docker container remove -fv x`, "docker container rm", "force volumes"},
		{`docker rmi -f x`, "docker rmi", "force"},
	} {
		an := Analyze(tc.line, testOptions())
		c := an.Commands[0]
		flags := sortedFlags(c)
		if c.Row != tc.row || flags != tc.flags {
			t.Errorf("%q: row %q flags %q, want %q %q", tc.line, c.Row, flags, tc.row, tc.flags)
		}
	}
}

// TestDockerRunFacts: a run command's mounts are roles and what makes
// them unknown a meaning, after docker's own options.
func TestDockerRunFacts(t *testing.T) {
	for _, tc := range []struct{ line, flags, mounts string }{
		{`docker --log-level debug run -v /:/host alpine ls`, "starts-container", "--volume=/:/host"},
		{`docker container run --mount=type=bind,src=/,dst=/h -v"$HOME":/h2 x`, "starts-container", "--mount=type=bind,src=/,dst=/h --volume=/home/u:/h2"},
		{`podman run --privileged --volume /x:/y img`, "privileged starts-container", "--volume=/x:/y"},
		{`docker run --privileged=false img`, "starts-container", ""},
		{`docker -H tcp://h run -v /:/h img`, "mounts-unknown starts-container", "--volume=/:/h"},
		{`docker run --volumes-from c img`, "mounts-unknown starts-container", ""},
		{`docker run -itv /:/host alpine grep -rv x /host`, "starts-container", "--volume=/:/host"},
		{`docker run -itv/:/h -e X=1 alpine`, "starts-container", "--volume=/:/h"},
		{`docker run -ite X=1 alpine`, "starts-container", ""},
		{`docker compose run -v /:/h app`, "", ""},
		{`docker ps`, "", ""},
	} {
		c := Analyze(tc.line, testOptions()).Commands[0]
		var mounts []string
		for _, r := range c.Roles {
			if r.Lang == "mount" {
				mounts = append(mounts, r.Opt+"="+r.Word.Value)
			}
		}
		if sortedFlags(c) != tc.flags || strings.Join(mounts, " ") != tc.mounts {
			t.Errorf("%q: flags %q mounts %q, want %q %q", tc.line, sortedFlags(c), mounts, tc.flags, tc.mounts)
		}
	}
}

// TestTokenPrinterRows: the subcommands that print a token have rows
// under programs whose options go anywhere, which keep reading the
// options of their other subcommands wherever they are.
func TestTokenPrinterRows(t *testing.T) {
	for _, tc := range []struct{ line, row, flags, ops string }{
		{`gh auth status -h github.com -t`, "gh auth status", "shows-token", ""},
		{`gh -R o/r auth token`, "gh auth", "", "token"},
		{`gh pr create -t title`, "gh", "", "pr create"},
		{`gh repo edit o/r --visibility=public`, "gh", "", "repo edit o/r"},
		{`kubectl --context prod config view --raw`, "kubectl config view", "raw", ""},
		{`kubectl config --kubeconfig k view --minify`, "kubectl config view", "", ""},
		{`kubectl get pods -n x --all-namespaces`, "kubectl", "all", "get pods"},
		{`git credential fill`, "git credential", "", "fill"},
		{`vault kv get -field=token secret/x`, "vault", "", "kv get secret/x"},
	} {
		c := Analyze(tc.line, testOptions()).Commands[0]
		if c.Row != tc.row || sortedFlags(c) != tc.flags || operandText(c, RoleData) != tc.ops {
			t.Errorf("%q: row %q flags %q operands %q, want %q %q %q", tc.line, c.Row, sortedFlags(c), operandText(c, RoleData), tc.row, tc.flags, tc.ops)
		}
	}
}

// TestRowAfterDashes: an operand after "--" is marked, so git checkout's
// pathspecs are told from its branch.
func TestRowAfterDashes(t *testing.T) {
	for _, tc := range []struct{ line, after string }{
		{`git checkout main -- a b`, "a b"},
		{`git checkout -- .`, "."},
		{`git checkout main a`, ""},
		{`git -C /tmp checkout -b x -- y`, "y"},
	} {
		an := Analyze(tc.line, testOptions())
		var got []string
		for _, ra := range an.Commands[0].Roles {
			if ra.AfterDashes {
				got = append(got, ra.Word.Value)
			}
		}
		if strings.Join(got, " ") != tc.after {
			t.Errorf("%q: after -- %q, want %q", tc.line, got, tc.after)
		}
	}
}

// TestRunBy: a script or module an interpreter runs whose row says the
// interpreter runs it is read with that row, after the interpreter's own
// options; any other is not.
func TestRunBy(t *testing.T) {
	for _, tc := range []struct{ line, row, ops, env string }{
		{`python -u manage.py flush --settings x.prod`, "manage.py", "flush", ""},
		{`python3 ./manage.py reset_db -e production`, "manage.py", "reset_db", "production"},
		{`python -W ignore -m alembic downgrade base`, "alembic", "downgrade base", ""},
		{`python3 -mtwine upload -r pypi dist/x`, "twine", "upload dist/x", ""},
		{`php -d memory_limit=-1 artisan migrate:fresh`, "artisan", "migrate:fresh", ""},
		{`python -m pip install twine`, "", "", ""},
		{`python manage.py.bak flush`, "", "", ""},
		{`python -c 'x' manage.py flush`, "", "", ""},
		{`php manage.py flush`, "", "", ""},
	} {
		c := Analyze(tc.line, testOptions()).Commands[0]
		env := ""
		for _, w := range c.OptionValues("-e") {
			env += w.Value
		}
		if c.Row != tc.row || operandText(c, RoleData) != tc.ops || env != tc.env {
			t.Errorf("%q: row %q operands %q -e %q, want %q %q %q", tc.line, c.Row, operandText(c, RoleData), env, tc.row, tc.ops, tc.env)
		}
	}
}

// TestGuardExecRow: guard-exec's own options come before a subcommand
// (its row) or before what it runs as a shell or a wrapper (the meaning
// "runs", and the command followed).
func TestGuardExecRow(t *testing.T) {
	for _, tc := range []struct{ line, row, flags, ops, next string }{
		{`guard-exec approve ev-1`, "guard-exec approve", "", "ev-1", ""},
		{`guard-exec --sandbox=write --ci shim uninstall`, "guard-exec shim", "", "uninstall", ""},
		{`guard-exec --mode audit log`, "guard-exec", "", "log", ""},
		{`guard-exec --ci -- rm -rf /`, "guard-exec", "runs", "rm -rf /", "rm"},
		{`guard-exec --timeout 5 -c 'rm -rf ~'`, "guard-exec", "runs", "rm -rf ~", "rm"},
		{`guard-exec --pty=never -c approve`, "guard-exec approve", "runs", "", "approve"},
	} {
		an := Analyze(tc.line, testOptions())
		c := an.Commands[0]
		next := ""
		if len(an.Commands) > 1 {
			next = an.Commands[1].Name
		}
		if c.Row != tc.row || sortedFlags(c) != tc.flags || operandText(c, RoleData) != tc.ops || next != tc.next {
			t.Errorf("%q: row %q flags %q operands %q then %q, want %q %q %q %q", tc.line, c.Row, sortedFlags(c), operandText(c, RoleData), next, tc.row, tc.flags, tc.ops, tc.next)
		}
	}
}

// TestReadAs: a command whose name is computed is read with a candidate
// program's row, and nothing in it runs or changes the command.
func TestReadAs(t *testing.T) {
	an := Analyze(`$(cat x) push --force origin main`, testOptions())
	c := an.Commands[0]
	h := ReadAs(c, "git")
	if h.Row != "git push" || !h.Flag("force") || len(h.Operands(RoleData)) != 2 {
		t.Errorf("ReadAs git: row %q flags %q roles %v", h.Row, h.Flags, h.Roles)
	}
	if c.Row != "" || len(c.Flags) != 0 || len(c.Roles) != 0 || !c.NameDynamic {
		t.Errorf("ReadAs changed the command: %+v", c)
	}
	if r := ReadAs(c, "no-such-program"); r.Row != "" || r.Name != "no-such-program" {
		t.Errorf("ReadAs of a program with no row: %q %q", r.Row, r.Name)
	}
}

// TestWithoutOptions: the words most programs read as options are left
// out, the command itself unchanged.
func TestWithoutOptions(t *testing.T) {
	c := Analyze(`$(cat x) -rf +x K=V /tmp a`, testOptions()).Commands[0]
	p, dropped := WithoutOptions(c)
	if got := strings.Join(p.Argv(), " "); got != "/tmp a" || !dropped || len(c.Args) != 5 {
		t.Errorf("WithoutOptions: %q %v, the command's words %d", got, dropped, len(c.Args))
	}
	c = Analyze(`$(cat x) /tmp a`, testOptions()).Commands[0]
	if p, dropped := WithoutOptions(c); dropped || len(p.Args) != 2 {
		t.Errorf("WithoutOptions of operands: %v %d", dropped, len(p.Args))
	}
}

// TestInfraRows: the cloud tools' rows sort their options out, so the
// subcommand path is the leading operands, and a "!" meaning (a dry run)
// counts only for a literal word spelled exactly as listed.
func TestInfraRows(t *testing.T) {
	for _, tc := range []struct{ line, row, flags, ops string }{
		{`aws --profile prod ec2 terminate-instances --instance-ids i-1`, "aws", "", "ec2 terminate-instances i-1"},
		{`aws ec2 --region=eu-west-1 terminate-instances --dry-run`, "aws", "dry-run", "ec2 terminate-instances"},
		{`aws ec2 terminate-instances --dry`, "aws", "dry-run", "ec2 terminate-instances"},
		{`aws ec2 terminate-instances -$(cat f)`, "aws", "force-delete", "ec2 terminate-instances"},
		{`aws --output json s3 rm s3://b --rec`, "aws s3 rm", "recursive", "s3://b"},
		{`aws s3 rm --exclude x s3://b --recursive --dryrun`, "aws s3 rm", "dry-run recursive", "s3://b"},
		{`aws s3 cp --recursive a s3://b`, "aws s3", "", "cp a s3://b"},
		{`gcloud --quiet --project p sql instances delete db`, "gcloud", "", "sql instances delete db"},
		{`gcloud storage rm gs://b -r`, "gcloud", "recursive", "storage rm gs://b"},
		{`gsutil -D -h x:y rm -ra gs://b`, "gsutil rm", "recursive", "gs://b"},
		{`az vm delete -g rg -n vm1 -o json`, "az", "", "vm delete"},
		{`s3cmd -c x.cfg del -rn s3://b`, "s3cmd", "dry-run recursive", "del s3://b"},
		{`rclone purge -n remote:x`, "rclone", "dry-run", "purge remote:x"},
		{`kubectl -n prod delete deploy --all`, "kubectl", "all", "delete deploy"},
		{`kubectl delete --namespace=x pods -A --dry-run=server`, "kubectl", "all dry-run", "delete pods"},
		{`kubectl delete pods -A --dry-run=none`, "kubectl", "all", "delete pods"},
		{`oc delete pod -h`, "kubectl", "help", "delete pod"},
		{`helm --kube-context prod un web --dry-run`, "helm", "dry-run", "un web"},
		{`wipefs -$(cat f) /dev/sda`, "wipefs", "erases", "/dev/sda"},
		{`wipefs -an /dev/sda`, "wipefs", "dry-run erases", "/dev/sda"},
		{`systemctl -H prod --message=bye halt now`, "systemctl", "", "halt now"},
	} {
		an := Analyze(tc.line, testOptions())
		c := an.Commands[0]
		flags, ops := sortedFlags(c), operandText(c, RoleData)
		if c.Row != tc.row || flags != tc.flags || ops != tc.ops {
			t.Errorf("%q: row %q flags %q operands %q, want %q %q %q", tc.line, c.Row, flags, ops, tc.row, tc.flags, tc.ops)
		}
	}
}

// TestQueryRoles: the statements a database client sends are data in
// the language "sql" (or "mongo"), in every spelling of the option.
func TestQueryRoles(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`psql -h db -c 'DROP TABLE t' app`, "DROP TABLE t"},
		{`psql -Xqc'DROP TABLE t'`, "DROP TABLE t"},
		{`psql app --command='DROP TABLE t'`, "DROP TABLE t"},
		{`mysql -uroot -e"DROP DATABASE x"`, "DROP DATABASE x"},
		{`mysql --init-command 'DROP DATABASE x' app`, "DROP DATABASE x"},
		{`mongosh --eval='db.dropDatabase()'`, "db.dropDatabase()"},
		{`duckdb -csv -c 'DROP TABLE t' x.db`, "DROP TABLE t"},
		{`psql -d drop`, ""},
	} {
		c := Analyze(tc.line, testOptions()).Commands[0]
		var got []string
		for _, ra := range c.Roles {
			if ra.Role == RoleData && (ra.Lang == "sql" || ra.Lang == "mongo") {
				got = append(got, ra.Word.Value)
			}
		}
		if strings.Join(got, "|") != tc.want {
			t.Errorf("%q: statements %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestSentRoles: the values curl and wget send are RoleSent, with how
// they name a file (Lang), in every spelling of the option.
func TestSentRoles(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`curl -d @f https://x`, "at:@f"},
		{`curl https://x -sd@f`, "at:@f"},
		{`curl --data-binary=@f --data-raw @g https://x`, "at:@f :@g"},
		{`curl --data-urlencode name@f https://x`, "urlencode:name@f"},
		{`curl -F a=@f -F 'b=<g' https://x`, "form:a=@f form:b=<g"},
		{`curl -T f https://x`, "file:f"},
		{`curl --upload-f=f https://x`, "file:f"},
		{`wget --post-file=f --body-data x https://x`, "file:f :x"},
	} {
		c := Analyze(tc.line, testOptions()).Commands[0]
		var got []string
		for _, ra := range c.Roles {
			if ra.Role == RoleSent {
				got = append(got, ra.Lang+":"+ra.Word.Value)
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%q: sent %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestTarOldStyle: tar's first word may be its option letters without a
// dash, each value letter taking the next word in turn.
func TestTarOldStyle(t *testing.T) {
	for _, tc := range []struct{ line, flags, file, dir, ops string }{
		{`tar xzf deps.tgz -C vendor`, "extract", "deps.tgz", "vendor", ""},
		{`tar cfC out.tar src a b`, "create", "out.tar", "src", "a b"},
		{`tar -czf out.tgz build`, "create", "out.tgz", "", "build"},
		{`tar --extract --file=a.tar`, "extract", "a.tar", "", ""},
		{`tar tvf a.tar`, "", "a.tar", "", ""},
		{`tar a.tar`, "", "", "", "a.tar"},
	} {
		c := Analyze(tc.line, testOptions()).Commands[0]
		val := func(opt string) string {
			var vs []string
			for _, w := range c.OptionValues(opt) {
				vs = append(vs, w.Value)
			}
			return strings.Join(vs, " ")
		}
		var ops []string
		for _, w := range c.Operands(RoleData) {
			ops = append(ops, w.Value)
		}
		if got := strings.Join(c.Flags, " "); got != tc.flags || val("-f") != tc.file || val("-C") != tc.dir || strings.Join(ops, " ") != tc.ops {
			t.Errorf("%q: flags %q -f %q -C %q operands %q, want %q %q %q %q", tc.line, got, val("-f"), val("-C"), ops, tc.flags, tc.file, tc.dir, tc.ops)
		}
	}
}

// TestTableScanMatchesIndex checks that finding a row by reading the rows
// (the first lookups of a process) gives what the index gives (the lookups
// after them), for every name, other name and subcommand in the table, and
// for names that are not there.
func TestTableScanMatchesIndex(t *testing.T) {
	tab := table()
	for name, p := range tab.byName {
		if got := scanTop(name); got != p {
			t.Errorf("scanTop(%q) = %v, index has %q", name, nameOf(got), p.Name)
		}
	}
	for parent, subs := range tab.subs {
		for name, p := range subs {
			if got := scanSub(parent, name); got != p {
				t.Errorf("scanSub(%q, %q) = %v, index has %q", parent.Name, name, nameOf(got), p.Name)
			}
		}
		n := 0
		eachSub(parent, func(*Program, string) bool { n++; return true })
		if n == 0 {
			t.Errorf("eachSub(%q) finds no subcommand, index has %d", parent.Name, len(subs))
		}
	}
	for _, p := range tab.rows {
		if tab.subs[p] == nil {
			eachSub(p, func(s *Program, _ string) bool {
				t.Errorf("eachSub(%q) finds %q, index has no subcommands", p.Name, s.Name)
				return false
			})
		}
	}
	for _, name := range []string{"", "no-such-program", "gi", "git push"} {
		if got := scanTop(name); got != nil {
			t.Errorf("scanTop(%q) = %q, want nil", name, got.Name)
		}
	}
	if git := tab.byName["git"]; git == nil || scanSub(git, "no-such-subcommand") != nil || scanSub(git, "") != nil {
		t.Errorf("scanSub found a row for a subcommand git does not have")
	}
}

func nameOf(p *Program) string {
	if p == nil {
		return "nil"
	}
	return p.Name
}

// TestFlagRows: the rows of sed, declare and compgen give their flags
// meanings, the declaring builtins' too (a keyword clause in the
// parser), and an option's value is not taken for a flag; git's dry
// runs and interactive modes are "!" meanings.
func TestFlagRows(t *testing.T) {
	for _, tc := range []struct{ line, row, flags, ops string }{
		{`sed -i s/a/b/ f`, "sed", "edits", "s/a/b/"}, // the script, then the files read
		{`sed -ni.bak s/a/b/p f`, "sed", "edits", "s/a/b/p"},
		{`sed --in-place=.bak -e s/a/b/ f`, "sed", "edits", ""},
		{`sed -e -i f`, "sed", "", ""},
		{`sed -n 1p f`, "sed", "", "1p"},
		{`gsed --in-pl -e p f`, "sed", "edits", ""},
		{`declare -p`, "declare", "prints", ""},
		{`declare -px HOME`, "declare", "exports prints", "HOME"},
		{`typeset -x A=1`, "declare", "exports", "A=1"},
		{`builtin declare -x`, "declare", "exports", ""},
		{`declare -i n`, "declare", "", "n"},
		{`compgen -e`, "compgen", "variables", ""},
		{`compgen -W '-e -v' x`, "compgen", "", "x"},
		{`compgen -A variable -v`, "compgen", "variables", ""},
		// The writers' rows.
		{`cp -T a b`, "cp", "no-target-dir", "a b"},
		{`install -d -m 755 x`, "install", "directories", "x"},
		{`curl -sLO https://h/y`, "curl", "names-from-url", "https://h/y"},
		{`wget --spider u`, "wget", "spider", "u"},
		{`unzip -l a.zip`, "unzip", "lists", "a.zip"},
		{`ssh-keygen -y -f k`, "ssh-keygen", "reads", ""},
		{`perl -pi.bak -e s/a/b/ f`, "perl", "edits", ""},
		{`perl x.pl f`, "perl", "", "x.pl"},
		// A "!" meaning is never taken for a word whose value is unknown.
		{`git clean -fd -$(cat f)`, "git clean", "force ignored", ""},
		{`git clean -fdn`, "git clean", "dry-run force", ""},
		{`git clean -f --inter`, "git clean", "force interactive", ""},
		{`git push -f -$(cat f) origin`, "git push", "delete force hooks-off prune", "origin"},
		{`git push -fn origin`, "git push", "dry-run force", "origin"},
		{`git checkout --conflict=diff3 -- .`, "git checkout", "conflict", "."},
		{`git checkout -$(cat f) -- .`, "git checkout", "force", "."},
		{`git config -$(cat f) core.hooksPath x`, "git config", "global system", "core.hooksPath x"},
	} {
		an := Analyze(tc.line, testOptions())
		c := an.Commands[0]
		flags, ops := sortedFlags(c), operandText(c, RoleData)
		if c.Row != tc.row || flags != tc.flags || ops != tc.ops {
			t.Errorf("%q: row %q flags %q operands %q, want %q %q %q", tc.line, c.Row, flags, ops, tc.row, tc.flags, tc.ops)
		}
	}
}

// TestReadRows: the operands the readers' rows say they read; a pattern
// or program first is not a file, unless an option gave it.
func TestReadRows(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`cat -n a b`, "a b"},
		{`grep -rn token ~/.aws`, "/home/u/.aws"},
		{`grep -e token -f pats a`, "a"},
		{`grep --regexp=x a b`, "a b"},
		{`grep -A 3 x a`, "a"},
		{`zgrep x a.gz`, "a.gz"},
		{`rg -g '*.env' KEY .`, "."},
		{`sed -n -e 1p -e 2p a`, "a"},
		{`sed 1p a b`, "a b"},
		{`awk -F: '{print $1}' /etc/passwd`, "/etc/passwd"},
		{`awk -f prog.awk a`, "a"},
		{`jq -r .token creds.json`, "creds.json"},
		{`head -n 5 a`, "a"},
		{`tail -f -n 20 log`, "log"},
		{`cp a b dir/`, "a b"},
		{`cp a`, ""},
		{`scp -P 22 k host:`, "k"},
		{`rsync -a -e ssh src/ h:dst/`, "src/"},
		{`source ./env.sh a b`, "./env.sh"},
		{`zip out.zip a b`, "a b"},
		{`7z a out.7z k`, "out.7z k"},
		{`vim -c 'set nu' a`, "a"},
		{`sort -o out -k2 a`, "a"},
	} {
		c := Analyze(tc.line, testOptions()).Commands[0]
		var got []string
		for _, ra := range c.Roles {
			if ra.Role == RoleRead && ra.Opt == "" {
				v := ra.Word.Value
				if ra.Path != "" && strings.HasPrefix(v, "~") {
					v = ra.Path
				}
				got = append(got, v)
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%q: reads %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestRunnerRows: a package runner's RoleProgram operand is followed as
// the command it is, with the words after it, and the environment the
// runner was given is the program's too (Command.Inherited).
func TestRunnerRows(t *testing.T) {
	for _, tc := range []struct{ line, want, env string }{
		{`NODE_ENV=test npx -y prisma migrate reset --force`, "prisma migrate reset --force", "NODE_ENV=test"},
		{`A=1 npm exec -- B=2 env`, "B=2 env", "A=1"}, // a program named B=2: no shell reads it
		{`npm x --package=p cdk destroy`, "cdk destroy", ""},
		{`A=1 pnpm dlx -p x rimraf dist`, "rimraf dist", "A=1"},
		{`A=1 yarn exec prisma db push`, "prisma db push", "A=1"},
		{`bunx --bun vite build`, "vite build", ""},
		{`A=1 bun x prettier --check .`, "prettier --check .", "A=1"},
		{`A=1 yarn tsc --noEmit`, "tsc --noEmit", "A=1"},
		{`yarn run eslint .`, "eslint .", ""},
		{`yarn install`, "", ""},
		{`A=1 nohup npx tsc`, "tsc", "A=1"},
	} {
		an := Analyze(tc.line, testOptions())
		got, env := "", ""
		for _, c := range an.Commands[1:] {
			got = strings.Join(append([]string{c.Name}, c.Argv()...), " ")
			var as []string
			for _, a := range c.Inherited {
				as = append(as, a.Name+"="+a.Value.Value)
			}
			env = strings.Join(as, " ")
			break
		}
		if got != tc.want || env != tc.env {
			t.Errorf("%q: runs %q with %q, want %q with %q", tc.line, got, env, tc.want, tc.env)
		}
	}
}

// TestOptsEnvSplit checks the ways programs split an options variable
// against what they were seen to do: less runs LESS='+…' to the next
// "$", make keeps an --eval text's spaces.
func TestOptsEnvSplit(t *testing.T) {
	for _, tc := range []struct {
		mode, in string
		want     []string
	}{
		{"less", "-R", []string{"-R"}},
		{"less", "FRX --shift=4", []string{"-FRX", "--shift=4"}},
		{"less", "+!rm -rf ~", []string{"+!rm -rf ~"}},
		{"less", "-R +g!cmd x$-S", []string{"-R", "+g!cmd x", "-S"}},
		{"less", "R+50!cmd", []string{"-R", "+50!cmd"}},
		{"make", "e", []string{"-e"}},
		{"make", "ks -j4", []string{"-k", "-s", "-j4"}},
		{"make", "-j4 --no-print-directory", []string{"-j4", "--no-print-directory"}},
		{"make", "CC=clang CFLAGS=-O2\\ -g", []string{"CC=clang", "CFLAGS=-O2 -g"}},
		{"make", " -j2 --eval=$(shell rm -rf ~) ", []string{"-j2", "--eval=$(shell rm -rf ~)"}},
		{"make", "k X:=$(shell a b) -j2", []string{"-k", "X:=$(shell a b) -j2"}},
		{"dash", "Mstrict -w", []string{"-Mstrict", "-w"}},
		{"", `--to-command="a b" -v`, []string{"--to-command=a b", "-v"}},
	} {
		if got := optsEnvSplit()[tc.mode](tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("%s %q: got %q, want %q", tc.mode, tc.in, got, tc.want)
		}
	}
}

// sortedFlags is c's flag meanings, sorted and space separated.
func sortedFlags(c *Command) string {
	flags := append([]string(nil), c.Flags...)
	sort.Strings(flags)
	return strings.Join(flags, " ")
}

// operandText is c's operands of role r, space separated, with unknown
// parts shown as NUL.
func operandText(c *Command, r Role) string {
	var ops []string
	for _, w := range c.Operands(r) {
		ops = append(ops, strings.ReplaceAll(w.Value, Unknown, "\x00"))
	}
	return strings.Join(ops, " ")
}
