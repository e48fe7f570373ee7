package parse

import (
	"strings"
	"sync"
)

// The process and file APIs of each interpreter, by resolved name.

type apiKind uint8

const (
	apiShell    apiKind = iota // a string run by the shell: os.system(S)
	apiAuto                    // a string for the shell, a list for argv: subprocess.run
	apiSystem                  // one string for the shell, several words for argv: perl system
	apiArgvList                // program and a list: execFile(p, [a…]), os.execv(p, [p, a…])
	apiArgvAll                 // every argument is a word: create_subprocess_exec
	apiArgvFrom                // argv from argument N on, program at N-1 (os.execl)
	apiSpawn                   // child_process.spawn(cmd, [args], {shell})
	apiSynth                   // a file operation, analysed as a command (rm -r P)
	apiOpen                    // open(P, mode): read or write P; perl's open may run a command
	apiCode                    // code of the same language: exec("…"), eval
	apiNet                     // a network request: analysed as curl URL (-d … when it sends data)
)

type api struct {
	kind apiKind
	arg  int    // the argument holding the command or the first path
	cmd  string // for apiSynth: the command and its flags, "rm -r"
	// paths is how many path arguments apiSynth takes (mv a b: 2); -1 for
	// all of them (perl unlink LIST). mode is set when a mode precedes the
	// paths (chmod).
	paths int
	mode  bool
	// list is set for apiArgvList: argv[0] is in the list (execv) rather
	// than the program (execFile).
	list0 bool
	// sends is set for apiNet calls that send a body (post, put).
	sends bool
}

func net(sends bool) api { return api{kind: apiNet, sends: sends} }

func synth(cmd string, paths int) api { return api{kind: apiSynth, cmd: cmd, paths: paths} }

// The tables are built on first use: only inline interpreter code
// (python -c, node -e, …) reads them, and building their maps at
// package init was most of the package's start-up, which every command
// pays.

var pythonAPI = sync.OnceValue(func() map[string]api {
	return map[string]api{
		"os.system": {kind: apiShell}, "os.popen": {kind: apiShell}, "os.popen2": {kind: apiShell},
		"os.popen3": {kind: apiShell}, "os.popen4": {kind: apiShell},
		"subprocess.run": {kind: apiAuto}, "subprocess.call": {kind: apiAuto}, "subprocess.check_call": {kind: apiAuto},
		"subprocess.check_output": {kind: apiAuto}, "subprocess.Popen": {kind: apiAuto},
		"subprocess.getoutput": {kind: apiShell}, "subprocess.getstatusoutput": {kind: apiShell},
		"commands.getoutput": {kind: apiShell}, "commands.getstatusoutput": {kind: apiShell},
		"asyncio.create_subprocess_shell": {kind: apiShell}, "asyncio.create_subprocess_exec": {kind: apiArgvAll},
		"os.execl": {kind: apiArgvFrom, arg: 2}, "os.execle": {kind: apiArgvFrom, arg: 2},
		"os.execlp": {kind: apiArgvFrom, arg: 2}, "os.execlpe": {kind: apiArgvFrom, arg: 2},
		"os.execv": {kind: apiArgvList, list0: true}, "os.execve": {kind: apiArgvList, list0: true},
		"os.execvp": {kind: apiArgvList, list0: true}, "os.execvpe": {kind: apiArgvList, list0: true},
		"os.spawnl": {kind: apiArgvFrom, arg: 3}, "os.spawnle": {kind: apiArgvFrom, arg: 3},
		"os.spawnlp": {kind: apiArgvFrom, arg: 3}, "os.spawnlpe": {kind: apiArgvFrom, arg: 3},
		"os.spawnv": {kind: apiArgvList, arg: 1, list0: true}, "os.spawnve": {kind: apiArgvList, arg: 1, list0: true},
		"os.spawnvp": {kind: apiArgvList, arg: 1, list0: true}, "os.spawnvpe": {kind: apiArgvList, arg: 1, list0: true},
		"os.posix_spawn": {kind: apiArgvList, list0: true}, "os.posix_spawnp": {kind: apiArgvList, list0: true},
		"pty.spawn": {kind: apiAuto}, "sh.Command": {kind: apiAuto},
		"shutil.rmtree": synth("rm -r", 1), "os.remove": synth("rm", 1), "os.unlink": synth("rm", 1),
		"os.rmdir": synth("rmdir", 1), "os.removedirs": synth("rmdir -p", 1),
		"shutil.move": synth("mv", 2), "os.rename": synth("mv", 2), "os.replace": synth("mv", 2),
		"shutil.copy": synth("cp", 2), "shutil.copy2": synth("cp", 2), "shutil.copyfile": synth("cp", 2),
		"shutil.copytree": synth("cp -r", 2), "os.chmod": {kind: apiSynth, cmd: "chmod", paths: 1},
		"os.truncate": synth("truncate -s 0", 1), "os.chown": synth("chown", 1),
		"open": {kind: apiOpen}, "io.open": {kind: apiOpen}, "builtins.open": {kind: apiOpen},
		"exec": {kind: apiCode}, "eval": {kind: apiCode}, "compile": {kind: apiCode},
		"requests.get": net(false), "requests.head": net(false), "requests.post": net(true), "requests.put": net(true),
		"requests.patch": net(true), "requests.delete": net(false), "requests.request": {kind: apiNet, arg: 1},
		"httpx.get": net(false), "httpx.post": net(true), "httpx.put": net(true), "httpx.patch": net(true),
		"urllib.request.urlopen": net(false), "urllib.request.Request": net(false), "urllib.request.urlretrieve": net(false),
		"http.client.HTTPSConnection": net(false), "http.client.HTTPConnection": net(false),
		"socket.create_connection": net(false), "smtplib.SMTP": net(true), "ftplib.FTP": net(true),
	}
})

// pathlibMethods are the Path(p).method() file operations.
var pathlibMethods = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"unlink": "rm", "rmdir": "rmdir", "write_text": "tee", "write_bytes": "tee", "read_text": "cat",
		"read_bytes": "cat", "touch": "touch", "rename": "mv", "replace": "mv", "chmod": "chmod",
	}
})

var jsAPI = sync.OnceValue(func() map[string]api {
	return map[string]api{
		"child_process.exec": {kind: apiShell}, "child_process.execSync": {kind: apiShell},
		"child_process.spawn": {kind: apiSpawn}, "child_process.spawnSync": {kind: apiSpawn},
		"child_process.execFile": {kind: apiArgvList}, "child_process.execFileSync": {kind: apiArgvList},
		"execa": {kind: apiArgvList}, "execa.execa": {kind: apiArgvList}, "execa.execaSync": {kind: apiArgvList},
		"execa.execaCommand": {kind: apiShell}, "execa.command": {kind: apiShell},
		"shelljs.exec": {kind: apiShell}, "Bun.spawn": {kind: apiAuto}, "Bun.spawnSync": {kind: apiAuto},
		"Deno.Command": {kind: apiSpawn}, "Deno.removeSync": synth("rm", 1), "Deno.remove": synth("rm", 1),
		"fs.rmSync": synth("rm", 1), "fs.rm": synth("rm", 1), "fs.promises.rm": synth("rm", 1), "fs/promises.rm": synth("rm", 1),
		"fs.rmdirSync": synth("rmdir", 1), "fs.rmdir": synth("rmdir", 1), "fs/promises.rmdir": synth("rmdir", 1),
		"fs.unlinkSync": synth("rm", 1), "fs.unlink": synth("rm", 1), "fs/promises.unlink": synth("rm", 1),
		"fs.writeFileSync": synth("tee", 1), "fs.writeFile": synth("tee", 1), "fs/promises.writeFile": synth("tee", 1),
		"fs.appendFileSync": synth("tee -a", 1), "fs.appendFile": synth("tee -a", 1),
		"fs.readFileSync": synth("cat", 1), "fs.readFile": synth("cat", 1), "fs/promises.readFile": synth("cat", 1),
		"fs.renameSync": synth("mv", 2), "fs.rename": synth("mv", 2), "fs.copyFileSync": synth("cp", 2),
		"fs.cpSync": synth("cp", 2), "fs.cp": synth("cp", 2), "fs.chmodSync": {kind: apiSynth, cmd: "chmod", paths: 1},
		"fs-extra.removeSync": synth("rm -r", 1), "fs-extra.remove": synth("rm -r", 1), "rimraf": synth("rm -r", 1),
		"rimraf.sync": synth("rm -r", 1), "rimraf.rimrafSync": synth("rm -r", 1),
		"eval": {kind: apiCode}, "Function": {kind: apiCode},
		"fetch": net(false), "node-fetch": net(false), "axios": net(false), "axios.get": net(false),
		"axios.post": net(true), "axios.put": net(true), "axios.patch": net(true), "axios.request": net(false),
		"https.request": net(false), "https.get": net(false), "http.request": net(false), "http.get": net(false),
		"got": net(false), "got.post": net(true),
	}
})

// jsBare are child_process and fs functions distinctive enough to be
// recognised without their import (destructured or global).
var jsBare = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"execSync": "child_process.execSync", "spawnSync": "child_process.spawnSync",
		"execFileSync": "child_process.execFileSync", "execFile": "child_process.execFile",
		"rmSync": "fs.rmSync", "unlinkSync": "fs.unlinkSync", "rmdirSync": "fs.rmdirSync",
		"writeFileSync": "fs.writeFileSync", "appendFileSync": "fs.appendFileSync", "readFileSync": "fs.readFileSync",
		"renameSync": "fs.renameSync", "cpSync": "fs.cpSync", "copyFileSync": "fs.copyFileSync",
	}
})

var perlAPI = sync.OnceValue(func() map[string]api {
	return map[string]api{
		"system": {kind: apiSystem}, "exec": {kind: apiSystem}, "qx": {kind: apiShell},
		"open": {kind: apiOpen}, "unlink": synth("rm", -1), "rmdir": synth("rmdir", 1),
		"rmtree": synth("rm -r", -1), "remove_tree": synth("rm -r", -1), "File.Path.rmtree": synth("rm -r", -1),
		"File.Path.remove_tree": synth("rm -r", -1), "move": synth("mv", 2), "File.Copy.move": synth("mv", 2),
		"copy": synth("cp", 2), "File.Copy.copy": synth("cp", 2), "rename": synth("mv", 2),
		// LWP::Simple's download functions.
		"get": net(false), "LWP.Simple.get": net(false), "getstore": net(false), "LWP.Simple.getstore": net(false),
		"chmod": {kind: apiSynth, cmd: "chmod", paths: -1, mode: true}, "eval": {kind: apiCode},
	}
})

var rubyAPI = sync.OnceValue(func() map[string]api {
	return map[string]api{
		"system": {kind: apiSystem}, "Kernel.system": {kind: apiSystem}, "exec": {kind: apiSystem},
		"sh": {kind: apiSystem}, "FileUtils.sh": {kind: apiSystem}, // rake's FileUtils#sh
		"Kernel.exec": {kind: apiSystem}, "spawn": {kind: apiSystem}, "Process.spawn": {kind: apiSystem},
		"IO.popen": {kind: apiAuto}, "Open3.capture2": {kind: apiSystem}, "Open3.capture2e": {kind: apiSystem},
		"Open3.capture3": {kind: apiSystem}, "Open3.popen3": {kind: apiSystem}, "Open3.popen2": {kind: apiSystem},
		"Open3.popen2e": {kind: apiSystem}, "PTY.spawn": {kind: apiSystem},
		"FileUtils.rm_rf": synth("rm -rf", -1), "FileUtils.rm_r": synth("rm -r", -1), "FileUtils.rm": synth("rm", -1),
		"FileUtils.rm_f": synth("rm -f", -1), "FileUtils.remove_dir": synth("rm -r", 1), "FileUtils.rmtree": synth("rm -rf", -1),
		"FileUtils.remove_entry": synth("rm -r", 1), "FileUtils.remove_entry_secure": synth("rm -r", 1),
		"FileUtils.rmdir": synth("rmdir", -1), "File.delete": synth("rm", -1), "File.unlink": synth("rm", -1),
		"File.write": synth("tee", 1), "File.read": synth("cat", 1), "FileUtils.mv": synth("mv", 2),
		"FileUtils.cp": synth("cp", 2), "FileUtils.cp_r": synth("cp -r", 2), "eval": {kind: apiCode},
		"Net.HTTP.get": net(false), "Net.HTTP.post": net(true), "Net.HTTP.post_form": net(true), "URI.open": net(false),
	}
})

var phpAPI = sync.OnceValue(func() map[string]api {
	return map[string]api{
		"system": {kind: apiShell}, "exec": {kind: apiShell}, "shell_exec": {kind: apiShell}, "passthru": {kind: apiShell},
		"popen": {kind: apiShell}, "proc_open": {kind: apiAuto}, "pcntl_exec": {kind: apiArgvList},
		"unlink": synth("rm", 1), "rmdir": synth("rmdir", 1), "file_put_contents": synth("tee", 1),
		"file_get_contents": synth("cat", 1), "readfile": synth("cat", 1), "rename": synth("mv", 2), "copy": synth("cp", 2), "eval": {kind: apiCode},
		"curl_init": net(false), "fsockopen": net(false),
	}
})

var luaAPI = sync.OnceValue(func() map[string]api {
	return map[string]api{
		"os.execute": {kind: apiShell}, "io.popen": {kind: apiShell}, "os.remove": synth("rm", 1), "os.rename": synth("mv", 2),
	}
})

var awkAPI = sync.OnceValue(func() map[string]api {
	return map[string]api{
		"system": {kind: apiShell}, "awk |": {kind: apiShell}, "awk >": synth("tee", 1),
	}
})

var rAPI = sync.OnceValue(func() map[string]api {
	return map[string]api{
		"system": {kind: apiShell}, "shell": {kind: apiShell}, "pipe": {kind: apiShell},
		"system2": {kind: apiSystem}, "processx.run": {kind: apiArgvList},
		"unlink": synth("rm -r", 1), "file.remove": synth("rm", -1), "fs.dir_delete": synth("rm -r", -1),
		"fs.file_delete": synth("rm", -1), "file.rename": synth("mv", 2), "file.copy": synth("cp", 2),
		"download.file": net(false), "url": net(false), "httr.POST": net(true), "httr.GET": net(false),
		"eval": {kind: apiCode},
	}
})

func apiFor(lang langID, name string) (api, bool) {
	var table map[string]api
	switch lang {
	case langR:
		table = rAPI()
	case langPython:
		table = pythonAPI()
	case langJS:
		table = jsAPI()
		if strings.HasSuffix(name, "doShellScript") {
			return api{kind: apiShell}, true
		}
		if full, ok := jsBare()[name]; ok {
			name = full
		}
		name = strings.TrimPrefix(name, "node:")
		if strings.HasPrefix(name, "fs-extra.") {
			if a, ok := table["fs."+strings.TrimPrefix(name, "fs-extra.")]; ok {
				return a, true
			}
		}
	case langPerl:
		table = perlAPI()
		name = strings.TrimPrefix(name, "CORE.")
	case langRuby:
		table = rubyAPI()
	case langPHP:
		table = phpAPI()
	case langLua:
		table = luaAPI()
	case langAwk:
		table = awkAPI()
	case langAppleScript:
		return api{kind: apiShell}, name == "do shell script"
	}
	a, ok := table[name]
	return a, ok
}
