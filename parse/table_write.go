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
	{Name: "perl", Pattern: true, PatternOpts: "-e -E", Opts: "-e= -E=", Args: "*:read", Flags: "edits:-i"},
}
