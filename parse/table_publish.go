package parse

// Rows of the programs that publish: package managers and build tools
// whose subcommands or goals put a release where others fetch it. Which
// ones publish is policy's to judge; the rows sort their options out so
// the subcommand or goal comes out as an operand.

var publishRows = []Program{
	{Name: "docker push", Args: "*:data", Opts: "-a|--all-tags", Allow: []string{`docker push registry.example.com/app:1.2`}},
	{Name: "docker image push", Args: "*:data"},
	{Name: "npm publish", Args: "*:data", Opts: "--registry= --otp= --tag= --access= --provenance-file= -w|--workspace=",
		Hold:  []string{`npm publish`, `npm --registry https://r.example publish`, `npm -w pkg publish --access public`, `npm publish --tag next`},
		Allow: []string{`npm publish --dry-run`, `npm --registry publish pack`}},
	{Name: "npm unpublish", Args: "*:data", Opts: "--registry= --otp= -w|--workspace=",
		Hold: []string{`npm unpublish pkg@1.0.0`, `npm --otp 123 unpublish pkg --force`}},
	{Name: "bun", Args: "*:data", Opts: "--cwd= -c|--config=", Hold: []string{`bun publish`}, Allow: []string{`bun publish --dry-run`}},
	// Maven's goals and Gradle's tasks are operands.
	{Name: "mvn", Also: []string{"mvnw"}, Args: "*:data",
		Opts:  "-P|--activate-profiles= -f|--file= -s|--settings= --global-settings= -l|--log-file= -T|--threads= -b|--builder= --projects=",
		Hold:  []string{`mvn clean deploy`, `mvn -e deploy`, `mvn -e -T 4 deploy`, `./mvnw -s ci.xml -P release deploy`, `mvn release:perform`},
		Allow: []string{`mvn package`, `mvn -P deploy package`}},
	{Name: "gradle", Also: []string{"gradlew"}, Args: "*:data",
		Opts:  "-p|--project-dir= -D= -P= -x|--exclude-task= -I|--init-script= -c|--settings-file=",
		Hold:  []string{`./gradlew publish`, `gradle -p lib :lib:publishMavenPublicationToOssrhRepository`, `./gradlew -x test publish`},
		Allow: []string{`./gradlew publishToMavenLocal`, `./gradlew -x publish build`}},
}
