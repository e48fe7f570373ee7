package parse

// Rows of programs that run another program or a command line: terminal
// emulators (xterm -e PROG ARGS…, kitty PROG ARGS…), session and sandbox
// launchers (dbus-run-session, bwrap, toolbox run), process supervisors
// and limiters (chpst, cpulimit, daemonize), profilers and benchmarks
// (perf stat, hyperfine) and watchers (entr, watchexec). A terminal's
// program given as one word is a command line its shell runs
// ("program:sh").

var wrapRows = []Program{
	// Terminal emulators. Their options with values are listed so a
	// value is not taken for the program; one not listed is a flag.
	{
		Name: "xterm", Also: []string{"uxterm", "lxterm", "koi8rxterm"}, SingleDashLong: true,
		Opts: "-e+=program:sh -class= -name= -title|-T= -fa= -fs= -fn= -fb= -fi= -fw= -fd= -fg= -bg= -bd= -bw= -cr= -ms= -hc= " +
			"-geometry|-g= -display= -xrm= -n= -cc= -ti= -tn= -sl= -b= -w= -lf=written -into= -en= -selfg= -selbg= -ziconbeep= -S=",
		Hold:  []string{`xterm -e rm -rf ~`, `xterm -e 'rm -rf ~'`, `xterm -fa Mono -fs 12 -e sh -c 'rm -rf /home/dev'`, `uxterm -hold -e git push --force origin main`},
		Allow: []string{`xterm`, `xterm -e htop`, `xterm -title build -e make test`},
	},
	{
		Name: "urxvt", Also: []string{"rxvt", "rxvt-unicode", "urxvtc", "aterm", "Eterm"}, SingleDashLong: true,
		Opts: "-e+=program:sh -name= -title|-T= -fn= -fb= -fi= -fbi= -fg= -bg= -cr= -pr= -bd= -b= -w= -sl= -geometry|-g= " +
			"-display|-d= -xrm= -tn= -n= -lsp= -im= -pe= -cd=dir -icon= -pixmap= -bl= -letsp= -mod= -embed= -pty-fd= -tr= -sh= -tint= -depth= -visual= -fade= -fadecolor=",
		Hold:  []string{`urxvt -e rm -rf ~`, `rxvt -geometry 80x24 -e 'rm -rf /home/dev'`},
		Allow: []string{`urxvt -cd . -e make`, `rxvt`},
	},
	{
		// st [-aiv] [-c class] … [[-e] command [args…]]
		Name: "st",
		Opts: "-e+=program:sh -c= -f= -g= -n= -o=written -T= -t= -w= -l=", Args: "0+:program:sh",
		Hold:  []string{`st -e rm -rf ~`, `st -f Mono:size=12 sh -c 'rm -rf /home/dev'`},
		Allow: []string{`st`, `st -e htop`},
	},
	{
		Name:  "alacritty",
		Opts:  "-e|--command+=program:sh --config-file= --working-directory=dir -T|--title= --class= -o|--option= --socket= --embed=",
		Hold:  []string{`alacritty -e rm -rf ~`, `alacritty --working-directory /tmp --command sh -c 'rm -rf ~'`},
		Allow: []string{`alacritty`, `alacritty --working-directory . -e make test`},
	},
	{
		Name:  "konsole",
		Opts:  "-e+=program:sh -p= --profile= --workdir=dir --layout=read --tabs-from-file=read --stylesheet= --display= --title= -qwindowtitle= --builtin-profile= --geometry=",
		Hold:  []string{`konsole -e rm -rf ~`, `konsole --workdir /tmp -e 'rm -rf /home/dev'`},
		Allow: []string{`konsole`, `konsole --workdir . -e make`},
	},
	{
		// gnome-terminal [options] -- PROG ARGS…; -x takes the rest of the
		// line, -e one string (both deprecated, both still run).
		Name: "gnome-terminal", Also: []string{"mate-terminal", "xfce4-terminal", "guake", "sakura"},
		Args: "--:program",
		Opts: "-x|--execute+=program:sh -e|--command=shell --working-directory|--default-working-directory=dir -t|-T|--title|--initial-title= " +
			"--geometry= --profile= --window-with-profile= --tab-with-profile= --role= --zoom= --display= --app-id= --class= --name= " +
			"--load-config=read --save-config=written --startup-id= -I|--icon= --font= --working-directory-for-tab=dir",
		Hold: []string{`gnome-terminal -- rm -rf ~`, `gnome-terminal --geometry 80x24 -- sh -c 'rm -rf /home/dev'`, `mate-terminal -x rm -rf ~`,
			`mate-terminal -e 'rm -rf ~'`, `xfce4-terminal -x rm -rf ~`, `xfce4-terminal --title x -e 'rm -rf ~'`},
		Allow: []string{`gnome-terminal --working-directory=.`, `gnome-terminal -- make test`, `xfce4-terminal -e 'tail -f build.log'`},
	},
	{
		Name: "terminator",
		Opts: "-x|--execute+=program:sh -e|--command=shell -g|--config=read -l|--layout= -p|--profile= -T|--title= --working-directory=dir " +
			"-r|--role= -i|--icon= --geometry= -c|--classname=",
		Hold:  []string{`terminator -x rm -rf ~`, `terminator -e 'rm -rf ~'`},
		Allow: []string{`terminator`, `terminator -e 'make test'`},
	},
	{
		Name: "tilix",
		Opts: "-x|--execute+=program:sh -e|--command=shell -w|--working-directory=dir -p|--profile= -t|--title= -s|--session=read -a|--action= " +
			"-g|--geometry= --window-style= --group=",
		Hold:  []string{`tilix -e 'rm -rf ~'`, `tilix -x rm -rf /home/dev`},
		Allow: []string{`tilix`, `tilix -w . -e 'make test'`},
	},
	{
		Name: "lxterminal", Also: []string{"qterminal", "terminology", "x-terminal-emulator", "cool-retro-term"},
		Opts:  "-e+=program:sh --command=shell -t|-T|--title= --working-directory|--workdir|-w=dir --geometry= --profile= -p=",
		Hold:  []string{`lxterminal -e 'rm -rf ~'`, `lxterminal -e rm -rf ~`, `x-terminal-emulator -e rm -rf ~`, `x-terminal-emulator -T x -e 'rm -rf ~'`},
		Allow: []string{`lxterminal`, `x-terminal-emulator -e make test`},
	},
	{
		// kitty [options] [PROG ARGS…]; kitty +kitten NAME runs a kitten.
		Name: "kitty", Args: "0+:program:sh",
		Opts: "-c|--config= -o|--override= --class|--app-id= --name|--os-window-tag= -T|--title= -d|--directory|--working-directory=dir " +
			"--session=read --listen-on= --start-as= --instance-group= --watcher= --logo= --logo-position= --logo-alpha= --position=",
		Hold:  []string{`kitty rm -rf ~`, `kitty --title x -d /tmp sh -c 'rm -rf /home/dev'`},
		Allow: []string{`kitty`, `kitty +kitten ssh host`, `kitty --directory . make test`},
	},
	{
		Name: "foot", Also: []string{"footclient"}, Args: "0+:program:sh",
		Opts: "-c|--config= -o|--override= -f|--font= -t|--term= -T|--title= -a|--app-id= -w|--window-size-pixels= -W|--window-size-chars= " +
			"-D|--working-directory=dir -d|--log-level= -l|--log-colorize= -p|--print-pid= --pty= -s|--server=",
		Hold:  []string{`foot rm -rf ~`, `foot -D /tmp sh -c 'rm -rf /home/dev'`},
		Allow: []string{`foot`, `foot -D . make test`},
	},
	{Name: "wezterm", Opts: "-e+=program:sh --config-file= --config=", Hold: []string{`wezterm -e rm -rf ~`}, Allow: []string{`wezterm`}},
	{
		Name: "wezterm start", Args: "0+:program:sh", Opts: "--cwd=dir --class= --workspace= --position= --domain=",
		Hold:  []string{`wezterm start -- rm -rf ~`, `wezterm start --cwd /tmp sh -c 'rm -rf /home/dev'`},
		Allow: []string{`wezterm start`, `wezterm start --cwd . -- make test`},
	},
	{Name: "wezterm cli"},
	{
		Name: "wezterm cli spawn", Args: "0+:program", Opts: "--pane-id= --domain-name= --window-id= --cwd=dir --workspace=",
		Hold: []string{`wezterm cli spawn -- rm -rf ~`}, Allow: []string{`wezterm cli spawn -- make test`},
	},
}
