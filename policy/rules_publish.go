package policy

import (
	"slices"
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/parse"
)

// Publishing rules: a published release is public at once, mirrors copy
// it within minutes, and registries forbid reusing a version, so it
// holds; a dry run publishes nothing. Pushing an image or creating a
// GitHub release is routine in release work and can be undone, so it
// warns.

// publishCheck is one publisher: the program and whether its arguments
// publish.
type publishCheck func(c *parse.Command) bool

// publisherTable lists the publishers: a slice of plain values is laid
// out by the compiler, where a map literal would be built at package
// init, which every command pays; the map is made on first use, by a
// command that may publish.
var publisherTable = []struct {
	name  string
	lead  []string     // the row's leading operands that publish (cargo publish), or
	check publishCheck // the check of a program that needs more
}{
	{"npm", nil, jsPublish},
	{"pnpm", nil, jsPublish},
	{"yarn", nil, jsPublish},
	{"bun", nil, jsPublish},
	{"cargo", []string{"publish"}, nil},
	{"twine", []string{"upload"}, nil},
	{"gem", []string{"push"}, nil},
	{"poetry", []string{"publish"}, nil},
	{"flit", []string{"publish"}, nil},
	{"hatch", []string{"publish"}, nil},
	{"uv", []string{"publish"}, nil},
	{"pdm", []string{"publish"}, nil},
	{"dotnet", []string{"nuget", "push"}, nil},
	{"nuget", []string{"push"}, nil},
	{"mvn", nil, mavenDeploy},
	{"mvnw", nil, mavenDeploy},
	{"gradle", nil, gradlePublish},
	{"gradlew", nil, gradlePublish},
	{"lerna", []string{"publish"}, nil},
	{"changeset", []string{"publish"}, nil},
	{"semantic-release", nil, func(c *parse.Command) bool {
		return c.Row == "semantic-release" && !c.Flag("dry-run")
	}},
	{"vsce", []string{"publish"}, nil},
	{"ovsx", []string{"publish"}, nil},
	{"dart", []string{"pub", "publish"}, nil},
	{"flutter", []string{"pub", "publish"}, nil},
	{"mix", []string{"hex.publish"}, nil},
	{"cabal", nil, func(c *parse.Command) bool { return leads("upload")(c) && c.Flag("publish") }},
	{"deno", []string{"publish"}, nil},
	{"jsr", []string{"publish"}, nil},
	{"goreleaser", nil, goreleaserPublish},
	{"anaconda", []string{"upload"}, nil},
	{"pod", []string{"trunk", "push"}, nil},
	{"rebar3", []string{"hex", "publish"}, nil},
	{"swift", []string{"package-registry", "publish"}, nil},
}

var publisherMap = sync.OnceValue(func() map[string]publishCheck {
	m := make(map[string]publishCheck, len(publisherTable))
	for _, p := range publisherTable {
		if m[p.name] = p.check; p.check == nil {
			m[p.name] = leads(p.lead...)
		}
	}
	return m
})

// publisher returns the check for a program that publishes, or nil.
func publisher(name string) publishCheck { return publisherMap()[name] }

var publishPrograms = func() []string {
	out := append([]string(nil), pythons...)
	for _, p := range publisherTable {
		out = append(out, p.name)
	}
	return out
}()

var publishRules = []*Rule{
	{
		ID: "package-publish", Family: "publish", Severity: Hold,
		Message:  "publishes a package release to a public registry, where it cannot be taken back or the version reused",
		Hint:     "run the same command with --dry-run to check what would be published, and let a person publish",
		Programs: publishPrograms,
		Command:  func(_ *Ctx, c *parse.Command) bool { return publishes(c) },
		Raw:      `\b(npm|pnpm|yarn|bun|cargo|poetry|flit|hatch|uv|pdm|lerna|vsce|deno)\s+([^|;&\n]*\s)?publish\b|\btwine\s+upload\b|\bgem\s+push\b|\bnuget\s+push\b`,
		Examples: []string{
			"npm publish",
			"npm publish --access public",
			"npm --workspace pkg publish",
			"pnpm -r publish",
			"yarn publish",
			"yarn npm publish",
			"bun publish",
			"cargo publish",
			"cargo +nightly publish -p core",
			"twine upload dist/*",
			"python3 -m twine upload dist/*",
			"gem push pkg-1.0.gem",
			"poetry publish --build",
			"flit publish",
			"hatch publish",
			"uv publish",
			"dotnet nuget push pkg.nupkg -k $KEY",
			"mvn clean deploy",
			"./gradlew publish",
			"npx lerna publish from-package",
			"npx changeset publish",
			"vsce publish",
			"dart pub publish -f",
			"deno publish",
			"goreleaser release --clean",
			"goreleaser release --skip=validate,sign",
			"uv publish -n",        // uv's -n is --no-cache
			"poetry -n publish",    // --no-interaction
			"hatch publish -n",     // --no-prompt
			"npx semantic-release", // -d is its dry run, --debug is not
			"semantic-release --debug",
			"cabal upload --publish dist/x.tar.gz",
			"rebar3 hex publish",
			"pnpm changeset publish",
			"yarn lerna publish from-package",
			"pnpm dlx lerna publish from-package",
			"npm exec -- changeset publish",
		},
		NotExamples: []string{
			"npm publish --dry-run",
			"pnpm publish --dry-run",
			"cargo publish --dry-run",
			"cargo publish -n",
			"poetry publish --dry-run",
			"uv publish --dry-run",
			"npm pack",
			"npm install",
			"cargo build --release",
			"twine check dist/*",
			"mvn package",
			"./gradlew publishToMavenLocal",
			"dart pub publish --dry-run",
			"goreleaser release --snapshot --clean",
			"echo npm publish",
			"npm run publish-docs",
			"twine upload --help",
			"npm publish --help",
			"cargo publish -h",
			"cargo +nightly publish --dry-run",
			"npm --dry-run publish",
			"semantic-release -d",
			"goreleaser release --skip=announce,publish",
			"goreleaser release --skip publish",
			"cabal upload dist/x.tar.gz",
			"python -m twine check dist/*",
			"mix hex.publish --dry-run",
			"npx semantic-release --dry-run",
			"yarn npm publish --dry-run",
			"npx lerna publish --help",
			"python3 -m twine upload --help",
			"dotnet nuget push pkg.nupkg -h",
		},
	},
	{
		ID: "package-unpublish", Family: "publish", Severity: Hold,
		Message:  "removes a published package version from the registry, breaking everyone who depends on it",
		Hint:     "deprecate the version instead (npm deprecate PKG@VER 'reason'), and let a person decide",
		Programs: []string{"npm", "pnpm", "yarn", "gem"},
		Command: func(_ *Ctx, c *parse.Command) bool {
			if c.Flag("info") { // npm unpublish --help
				return false
			}
			if c.Name == "gem" {
				return c.Row == "gem" && first(leadingOperands(c, 1)) == "yank"
			}
			return c.Row == "npm unpublish" || c.Row == "yarn" && first(leadingOperands(c, 1)) == "unpublish"
		},
		Raw:         `\b(npm|pnpm|yarn)\s+([^|;&\n]*\s)?unpublish\b|\bgem\s+yank\b`,
		Examples:    []string{"npm unpublish pkg@1.0.0", "npm unpublish pkg --force", "gem yank pkg -v 1.0"},
		NotExamples: []string{"npm deprecate pkg@1 'old'", "npm publish --dry-run", "gem list", "npm unpublish --help"},
	},
	{
		ID: "release-publish", Family: "publish", Severity: Warn,
		Message:  "publishes a release artifact (a container image, a chart, a GitHub release) others may pull at once",
		Hint:     "check the tag and the target registry before pushing; prefer a pre-release tag while testing",
		Programs: []string{"docker", "podman", "helm", "gh"},
		Command: func(_ *Ctx, c *parse.Command) bool {
			switch c.Row {
			case "docker push", "docker image push":
				return true
			case "helm":
				return first(leadingOperands(c, 1)) == "push"
			}
			return ghPath(c, "release", "create")
		},
		Examples:    []string{"docker push registry.example.com/app:1.2", "docker image push app:latest", "gh release create v1.2.0 --notes x", "helm push chart.tgz oci://r"},
		NotExamples: []string{"docker build -t app .", "docker pull app", "gh release list", "gh release view v1"},
	},
}

// publishes reports a command that publishes a package. A publisher a
// package runner starts (npx lerna publish, pnpm changeset publish) is a
// command of its own: parse follows the runner's RoleProgram operand. A
// request for the usage (the "info" flags of its row, -h and --help)
// publishes nothing, and an agent checking the options first must not be
// stopped.
func publishes(c *parse.Command) bool {
	f := publisher(frameworkTool(c)) // python -m twine: twine's row
	return f != nil && f(c) && !c.Flag("info")
}

// jsPublish: npm/pnpm/yarn/bun publish (yarn berry: yarn npm publish),
// not a dry run.
func jsPublish(c *parse.Command) bool {
	subs := leadingOperands(c, 2) // yarn, pnpm, bun
	if c.Row == "npm publish" {
		subs = []string{"publish"}
	}
	if len(subs) == 0 {
		return false
	}
	ok := subs[0] == "publish" || c.Name == "yarn" && len(subs) == 2 && subs[0] == "npm" && subs[1] == "publish"
	return ok && !c.Flag("dry-run")
}

// leads returns a check that the command's row puts path first among its
// operands (cargo publish, dotnet nuget push), not as a dry run.
func leads(path ...string) publishCheck {
	return func(c *parse.Command) bool {
		if c.Row == "" || c.Flag("dry-run") {
			return false
		}
		got := leadingOperands(c, len(path))
		return slices.Equal(got, path)
	}
}

// mavenDeploy reports mvn with the deploy phase (or a release:perform).
func mavenDeploy(c *parse.Command) bool {
	for _, op := range c.Operands(parse.RoleData) {
		switch op.Value {
		case "deploy", "deploy:deploy", "release:perform", "deploy:deploy-file":
			return true
		}
	}
	return false
}

// gradlePublish reports a gradle task that publishes to a remote
// repository (publish, publishPlugins, :lib:publishXToYRepository), not
// to the local Maven cache.
func gradlePublish(c *parse.Command) bool {
	for _, op := range c.Operands(parse.RoleData) {
		task := op.Value
		if i := strings.LastIndexByte(task, ':'); i >= 0 {
			task = task[i+1:]
		}
		if strings.HasPrefix(task, "publish") && !strings.Contains(task, "MavenLocal") {
			return true
		}
	}
	return false
}

// goreleaserPublish reports goreleaser release without --snapshot or a
// skipped publish.
func goreleaserPublish(c *parse.Command) bool {
	if c.Row != "goreleaser" || first(leadingOperands(c, 1)) != "release" || c.Flag("snapshot") || c.Flag("no-publish") {
		return false
	}
	for _, w := range c.OptionValues("--skip") {
		if slices.Contains(strings.Split(w.Value, ","), "publish") {
			return false
		}
	}
	return true
}
