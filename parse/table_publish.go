package parse

// Rows of the programs that publish: package managers and build tools
// whose subcommands or goals put a release where others fetch it. Which
// ones publish is policy's to judge; the rows sort their options out so
// the subcommand or goal comes out as an operand.

// npmDryRun is the dry run of npm, pnpm, yarn and bun.
const npmDryRun = "!dry-run:--dry-run|--dry-run=true"

// publishHelp is the help of the publishers: each prints its usage for
// -h and --help and publishes nothing (gradle also takes -?, nuget -help
// and -?).
const publishHelp = "!info:-h|--help"

var publishRows = []Program{
	{Name: "docker push", Args: "*:data", Opts: "-a|--all-tags", Allow: []string{`docker push registry.example.com/app:1.2`}},
	{Name: "docker image push", Args: "*:data"},
	{Name: "npm publish", Args: "*:data", Flags: npmDryRun + " " + publishHelp, Opts: "--registry= --otp= --tag= --access= --provenance-file= -w|--workspace=",
		Hold:  []string{`npm publish`, `npm --registry https://r.example publish`, `npm -w pkg publish --access public`, `npm publish --tag next`},
		Allow: []string{`npm publish --dry-run`, `npm --dry-run publish`, `npm publish --dry-run=true`, `npm --registry publish pack`}},
	{Name: "npm unpublish", Args: "*:data", Flags: publishHelp, Opts: "--registry= --otp= -w|--workspace=",
		Hold: []string{`npm unpublish pkg@1.0.0`, `npm --otp 123 unpublish pkg --force`}},
	{Name: "bun", Args: "*:data", Flags: npmDryRun + " " + publishHelp, Permute: true, Opts: "--cwd= -c|--config=", Hold: []string{`bun publish`}, Allow: []string{`bun publish --dry-run`}},
	{Name: "bun x", Args: "0+:program", Opts: "-p|--package=", Hold: []string{`bun x rimraf /home/dev`}, Allow: []string{`bun x prettier --check .`}},
	// Maven's goals and Gradle's tasks are operands.
	{Name: "mvn", Also: []string{"mvnw"}, Args: "*:data", Flags: publishHelp,
		Opts:  "-P|--activate-profiles= -f|--file= -s|--settings= --global-settings= -l|--log-file= -T|--threads= -b|--builder= --projects=",
		Hold:  []string{`mvn clean deploy`, `mvn -e deploy`, `mvn -e -T 4 deploy`, `./mvnw -s ci.xml -P release deploy`, `mvn release:perform`},
		Allow: []string{`mvn package`, `mvn -P deploy package`}},
	{Name: "gradle", Also: []string{"gradlew"}, Args: "*:data", Flags: publishHelp + "|-?",
		Opts:  "-p|--project-dir= -D= -P= -x|--exclude-task= -I|--init-script= -c|--settings-file=",
		Hold:  []string{`./gradlew publish`, `gradle -p lib :lib:publishMavenPublicationToOssrhRepository`, `./gradlew -x test publish`},
		Allow: []string{`./gradlew publishToMavenLocal`, `./gradlew -x publish build`}},
	// The other registries' publishers: the subcommand path is the
	// leading operands. A dry run is a meaning only where the program
	// has one, in its own spellings: poetry's -n is --no-interaction,
	// hatch's --no-prompt, uv's --no-cache, none of them a dry run.
	{Name: "cargo", Args: "*:data", Plus: "data", Runs: "build.rs:foreign-file", Env: "RUSTC_WRAPPER:program RUSTC_WORKSPACE_WRAPPER:program RUSTC:program RUSTDOC:program", Flags: "!dry-run:-n|--dry-run " + publishHelp, // cargo +nightly publish
		Opts: "-p|--package= -j|--jobs= -Z= -F|--features= --registry= --token= --index= --manifest-path= --target-dir= --target= --config= --color=",
		Hold: []string{`cargo publish`, `cargo +nightly publish -p core`, `cargo --config x.toml publish`}, Allow: []string{`cargo publish --dry-run`, `cargo publish -n`, `cargo -p publish build`}},
	// python -m http.server serves its directory (-d, else the working
	// directory's) to whoever connects.
	{Name: "http.server", RunBy: []string{"python -m"}, Args: "*:data", Opts: "-d|--directory=sent:file -b|--bind= -p|--protocol=",
		Hold:  []string{`python3 -m http.server -d ~/.ssh 8000`, `python3 -m http.server --directory ~ 8000`},
		Allow: []string{`python3 -m http.server 8000`, `python3 -m http.server -d dist 8080`}},
	{Name: "twine", RunBy: []string{"python -m"}, Args: "*:data", Flags: publishHelp,
		Opts: "-r|--repository= --repository-url= --sign-with= -i|--identity= -u|--username= -p|--password= -c|--comment= --config-file= --cert= --client-cert=",
		Hold: []string{`twine upload dist/*`, `python3 -m twine upload -r pypi dist/*`}, Allow: []string{`twine check dist/*`, `python -m twine check dist/*`}},
	{Name: "gem", Args: "*:data", Flags: publishHelp, Opts: "-k|--key= --host= --otp= -p|--http-proxy= -v|--version= --platform=",
		Hold: []string{`gem push pkg-1.0.gem`, `gem yank pkg -v 1.0`}, Allow: []string{`gem build pkg.gemspec`, `gem list`}},
	{Name: "flit", Args: "*:data", Flags: publishHelp, Opts: "--repository= --pypirc= --format=", Hold: []string{`flit publish`}, Allow: []string{`flit build`}},
	{Name: "hatch", Args: "*:data", Permute: true, Flags: "!dry-run:--dry-run " + publishHelp,
		Opts: "-r|--repo= -u|--user= -a|--auth= --ca-cert= --client-cert= --client-key= -p|--publisher= -o|--option= -e|--env= --data-dir= --cache-dir= --config=",
		Hold: []string{`hatch publish`, `hatch publish -n -r test`}, Allow: []string{`hatch build`}},
	{Name: "hatch run", Wrapper: true, Args: "0+:program",
		Hold: []string{`hatch run rm -rf ~`, `hatch -e test run sh -c 'rm -rf /home/dev'`}, Allow: []string{`hatch run pytest`, `hatch run test:cov`}},
	{Name: "pdm", Args: "*:data", Permute: true, Flags: "!dry-run:--dry-run " + publishHelp,
		Opts: "-r|--repository= -u|--username= -P|--password= -i|--identity= -c|--comment= --ca-certs= -p|--project= -g|--global=",
		Hold: []string{`pdm publish`}, Allow: []string{`pdm publish --dry-run`, `pdm build`}},
	{Name: "pdm run", Wrapper: true, Opts: "-p|--project= --venv= -e|--env-file=read", Args: "0+:program",
		Hold: []string{`pdm run rm -rf ~`, `pdm run python -c 'import shutil; shutil.rmtree("/home/dev")'`}, Allow: []string{`pdm run pytest -q`, `pdm run python -m pytest`}},
	{Name: "nuget", Args: "*:data", SingleDashLong: true, Flags: publishHelp + "|-help|-?",
		Opts: "-Source|-ApiKey|-SymbolSource|-SymbolApiKey|-Timeout|-ConfigFile|-Verbosity=", Hold: []string{`nuget push pkg.nupkg -Source https://nuget.example`}},
	{Name: "lerna", Args: "*:data", Flags: "!dry-run:--dry-run|--dry-run=true " + publishHelp, Hold: []string{`npx lerna publish from-package`}},
	{Name: "changeset", Args: "*:data", Flags: publishHelp, Opts: "--otp= --tag=", Hold: []string{`npx changeset publish`}, Allow: []string{`npx changeset version`}},
	{Name: "semantic-release", Args: "*:data", Flags: "!dry-run:-d|--dry-run|--dry-run=true " + publishHelp,
		Opts: "-b|--branches= -r|--repository-url= -t|--tag-format= -p|--plugins= -e|--extends=",
		Hold: []string{`npx semantic-release`, `semantic-release -b main`}, Allow: []string{`semantic-release --dry-run`, `npx semantic-release -d`}},
	{Name: "vsce", Args: "*:data", Flags: publishHelp, Opts: "-p|--pat= -i|--packagePath= --baseContentUrl= --baseImagesUrl= --target= --githubBranch= --gitlabBranch=",
		Hold: []string{`vsce publish`, `vsce -p x publish`}, Allow: []string{`vsce package`}},
	{Name: "ovsx", Args: "*:data", Flags: publishHelp, Opts: "-p|--pat= -r|--registryUrl= -i|--packagePath= --target= --baseContentUrl= --baseImagesUrl=", Hold: []string{`ovsx publish -p x`}},
	{Name: "dart", Args: "*:data", Flags: "!dry-run:-n|--dry-run " + publishHelp, Hold: []string{`dart pub publish -f`}, Allow: []string{`dart pub publish --dry-run`, `dart pub publish -n`}},
	{Name: "flutter", Args: "*:data", Opts: "-d|--device-id=", Flags: "!dry-run:-n|--dry-run " + publishHelp, Hold: []string{`flutter pub publish`}, Allow: []string{`flutter pub get`}},
	{Name: "cabal", Args: "*:data", Flags: "publish:--publish " + publishHelp, Opts: "--config-file= --project-file= --store-dir= -u|--username= -p|--password= --token=",
		Hold: []string{`cabal upload --publish dist/x.tar.gz`}, Allow: []string{`cabal upload dist/x.tar.gz`}},
	{Name: "deno", Args: "*:data", Flags: "!dry-run:--dry-run " + publishHelp, Opts: "-c|--config= --token= --import-map=",
		Hold: []string{`deno publish`}, Allow: []string{`deno publish --dry-run`}},
	{Name: "jsr", Args: "*:data", Flags: "!dry-run:--dry-run " + publishHelp, Opts: "--token= --config=", Hold: []string{`npx jsr publish`}, Allow: []string{`npx jsr publish --dry-run`}},
	// goreleaser release publishes, unless it is a snapshot or skips the
	// publishing (--skip=publish,… in newer releases).
	{Name: "goreleaser", Args: "*:data", Flags: "!snapshot:--snapshot !no-publish:--skip-publish " + publishHelp,
		Opts: "-f|--config= -p|--parallelism= --timeout= --release-notes= --release-header= --release-footer= --id= --skip=data",
		Hold: []string{`goreleaser release --clean`, `goreleaser release --skip=validate`}, Allow: []string{`goreleaser release --snapshot --clean`, `goreleaser release --skip=announce,publish`, `goreleaser release --skip-publish`}},
	{Name: "anaconda", Args: "*:data", Flags: publishHelp, Opts: "-t|--token= -s|--site=", Hold: []string{`anaconda -t x upload pkg.tar.bz2`}},
	{Name: "pod", Args: "*:data", Flags: publishHelp, Hold: []string{`pod trunk push X.podspec`}, Allow: []string{`pod install`}},
	{Name: "rebar3", Args: "*:data", Flags: publishHelp, Hold: []string{`rebar3 hex publish`}},
	{Name: "swift", Args: "*:data", Flags: publishHelp, Hold: []string{`swift package-registry publish x 1.0.0`}, Allow: []string{`swift build`}},
}
