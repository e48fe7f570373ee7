module github.com/guard-exec/guard-exec

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0 // indirect
	github.com/creack/pty v1.1.24 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	github.com/spf13/pflag v1.1.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/term v0.48.0 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)
