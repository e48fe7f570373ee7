package parse

// Rows of the programs that write, create or edit the files they are
// given, as far as the rows of cp, mv, install, tee, shred and the others
// with them do not say it. What they write is policy's to judge (writes.go
// there reads the operands and option values these rows sort out).

var writeRows = []Program{
	{Name: "ln", Opts: "-t|--target-directory=data -S|--suffix=", Args: "*:data", Flags: noTargetDir},
	{Name: "touch", Opts: "-d|--date= -r|--reference= -t=", Args: "*:data"},
	{Name: "mkdir", Opts: "-m|--mode= --context=", Args: "*:data"},
	{Name: "dos2unix", Also: []string{"unix2dos"}, Args: "*:data"},
	// patch FILE edits FILE, -o writes the result elsewhere; -d works in
	// a directory.
	{Name: "patch", Args: "*:data",
		Opts: "-o|--output=written -r|--reject-file=written -i|--input= -d|--directory=data -p|--strip= -B|--prefix= -D|--ifdef= " +
			"-F|--fuzz= -V|--version-control= -Y|--basename-prefix= -z|--suffix= -g|--get="},
	// unzip writes into -d DIR; -l, -t, -v, -p and -Z only read.
	{Name: "unzip", Opts: "-d=data -P=", Args: "*:data", Flags: "!lists:-l|-t|-v|-p|-Z"},
	// ssh-keygen -f FILE writes a key pair, unless the mode only reads it.
	{Name: "ssh-keygen", Flags: "!reads:-l|-y|-L|-Q|-B|-e|-i",
		Opts: "-a= -b= -C= -D=data -E= -F=data -f=data -I= -J= -j= -M= -m= -N= -n= -O= -P= -R=data -r= -S= -s= -t= -V= -w= -Y= -Z= -z="},
	// perl -i edits the files after its program in place.
	// perl and ruby take options from PERL5OPT and RUBYOPT (-M'X;CODE'
	// runs CODE, -r/PATH loads PATH), perl -d runs PERL5DB's code, node
	// takes NODE_OPTIONS (--require ./x.js loads x.js): their sinks
	// (interp.go) read what the options say.
	{Name: "perl", Pattern: true, PatternOpts: "-e -E", Opts: "-e= -E=", Args: "*:read", Flags: "edits:-i",
		OptsEnv: "PERL5OPT:dash", Env: "PERL5DB:code:perl",
		Hold: []string{`PERL5OPT='-Mstrict;system(q(rm),q(-rf),q(/home/dev))' perl -e 1`, `perl '-Mstrict;system(q(rm),q(-rf),q(/home/dev))' -e 1`,
			`PERL5OPT="-MPOSIX;system(q(rm),q(-rf),q(/home/dev))" perl app.pl`, `PERL5DB='system(q(rm),q(-rf),q(/home/dev))' perl -d -e 1`},
		Allow: []string{`PERL5OPT=-w perl -e 'print 1'`, `perl -MData::Dumper -e 'print Dumper(1)'`, `perl -MList::Util=sum -e 'print sum(1,2)'`,
			`PERL5OPT='-Mstrict -Mwarnings' perl t.pl`}},
	{Name: "ruby", OptsEnv: "RUBYOPT:dash",
		Hold:  []string{`echo 'system("rm -rf ~")' > x.rb; RUBYOPT=-r./x.rb ruby -e 1`, `echo 'system("rm -rf ~")' > x.rb; ruby -r./x.rb -e 1`},
		Allow: []string{`RUBYOPT=-W0 ruby -e 'puts 1'`, `RUBYOPT=-rbundler/setup ruby app.rb`, `ruby -rjson -e 'puts 1'`}},
	{Name: "node", Also: []string{"nodejs", "tsx", "ts-node", "ts-node-esm", "babel-node", "esno"}, OptsEnv: "NODE_OPTIONS",
		Hold:  []string{`echo 'require("child_process").execSync("rm -rf ~")' > x.js; NODE_OPTIONS='--require ./x.js' node app.js`, `echo 'require("child_process").execSync("rm -rf ~")' > x.js; NODE_OPTIONS="--import=./x.js" node app.js`},
		Allow: []string{`NODE_OPTIONS=--max-old-space-size=4096 node app.js`, `NODE_OPTIONS='-r ts-node/register' node build.js`}},
}
