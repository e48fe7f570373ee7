package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/guard-exec/guard-exec/shim"
)

// hookSetting is one guard-exec hook found in an agent's settings file.
type hookSetting struct {
	agent   string // claude, gemini
	file    string
	command string
	argv    []string // the command split into words, the program resolved
}

// agentHook is what an agent's pre-tool hook for guard-exec looks like.
type agentHook struct {
	agent, event, tool string
}

var agentHooks = []agentHook{
	{"claude", "PreToolUse", "Bash"},
	{"gemini", "BeforeTool", geminiShellTool},
}

// settingsFiles are the agents' settings files that apply here: the
// user's and the project's.
func (dr *doctor) settingsFiles(agent string) []string {
	g := dr.g
	var dirs []string
	if h := g.vars["HOME"]; filepath.IsAbs(h) {
		dirs = append(dirs, h)
	}
	if root := g.projectRoot(); root != "" && (len(dirs) == 0 || root != dirs[0]) {
		dirs = append(dirs, root)
	}
	var files []string
	for _, d := range dirs {
		switch agent {
		case "claude":
			files = append(files, filepath.Join(d, ".claude", "settings.json"), filepath.Join(d, ".claude", "settings.local.json"))
		case "gemini":
			files = append(files, filepath.Join(d, ".gemini", "settings.json"))
		}
	}
	return files
}

// settingsHooks is the part of an agent's settings.json doctor reads.
type settingsHooks struct {
	Hooks map[string][]struct {
		Matcher string `json:"matcher"`
		Hooks   []struct {
			Type    string `json:"type"`
			Command string `json:"command"`
		} `json:"hooks"`
	} `json:"hooks"`
	Env map[string]string `json:"env"`
}

// hooks looks for guard-exec's hooks in the agents' settings files: a
// hook that is there, for the right event and tool, and whose program is
// this guard-exec, is a way in (probed live later); one for the wrong
// event or a program that is not there needs fixing.
func (dr *doctor) hooks(ctx context.Context) {
	dr.section("agent hooks")
	found := false
	for _, ah := range agentHooks {
		for _, f := range dr.settingsFiles(ah.agent) {
			b, err := os.ReadFile(f)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			found = true
			if err != nil {
				dr.bad("%s cannot be read: %v", f, err)
				continue
			}
			var st settingsHooks
			if err := json.Unmarshal(b, &st); err != nil {
				dr.bad("%s is not valid JSON (%v): the agent ignores its hooks", f, err)
				continue
			}
			dr.checkSettings(ah, f, &st)
		}
	}
	if !found {
		dr.info("no agent settings files here (~/.claude/settings.json, ~/.gemini/settings.json, the project's)")
	}
}

func (dr *doctor) checkSettings(ah agentHook, file string, st *settingsHooks) {
	for event, groups := range st.Hooks {
		for _, grp := range groups {
			for _, h := range grp.Hooks {
				words := strings.Fields(h.Command)
				if len(words) < 3 || filepath.Base(words[0]) != "guard-exec" || words[1] != "hook" {
					continue
				}
				label := fmt.Sprintf("%s: %s (%s, matcher %q)", file, h.Command, event, grp.Matcher)
				switch {
				case words[2] != ah.agent:
					dr.bad("%s: this is %s's settings file; the hook should be guard-exec hook %s", label, ah.agent, ah.agent)
				case event != ah.event:
					dr.bad("%s: the hook must be under %s to stop a command before it runs", label, ah.event)
				case !matcherMatches(grp.Matcher, ah.tool):
					dr.bad("%s: the matcher does not cover the %s tool, so shell commands pass unguarded", label, ah.tool)
				default:
					prog := words[0]
					if !filepath.IsAbs(prog) {
						prog = shim.LookPath(prog, dr.g.vars["PATH"])
					}
					if prog == "" || !fileExists(prog) {
						dr.bad("%s: %s is not found on PATH, so the hook fails and the agent runs the command", label, words[0])
						continue
					}
					argv := append([]string{prog}, words[1:]...)
					dr.ok("%s", label)
					dr.hookProbes = append(dr.hookProbes, hookSetting{ah.agent, file, h.Command, argv})
				}
			}
		}
	}
	if v := st.Env["CLAUDE_CODE_SHELL"]; v != "" {
		dr.claudeShell(file+": env CLAUDE_CODE_SHELL", v)
	}
	if v := st.Env["CLAUDE_CODE_SHELL_PREFIX"]; v != "" {
		dr.claudePrefix(file+": env CLAUDE_CODE_SHELL_PREFIX", v)
	}
}

// matcherMatches reports whether a hook's matcher (a tool name, a regular
// expression, "*" or empty for every tool) covers tool.
func matcherMatches(matcher, tool string) bool {
	if matcher == "" || matcher == "*" || matcher == tool {
		return true
	}
	re, err := regexp.Compile("^(?:" + matcher + ")$")
	return err == nil && re.MatchString(tool)
}

// claudeShellVars reports Claude Code's shell variables in the environment.
func (dr *doctor) claudeShellVars() {
	if v := dr.g.vars["CLAUDE_CODE_SHELL"]; v != "" {
		dr.claudeShell("CLAUDE_CODE_SHELL", v)
	}
	if v := dr.g.vars["CLAUDE_CODE_SHELL_PREFIX"]; v != "" {
		dr.claudePrefix("CLAUDE_CODE_SHELL_PREFIX", v)
	}
}

func (dr *doctor) claudeShell(label, v string) {
	p := v
	if !filepath.IsAbs(p) {
		p = shim.LookPath(p, dr.g.vars["PATH"])
	}
	if p != "" && shim.IsGuardExec(p, self()) {
		dr.ok("%s=%s is guard-exec", label, v)
		dr.way("CLAUDE_CODE_SHELL")
		return
	}
	dr.info("%s=%s is not guard-exec", label, v)
}

func (dr *doctor) claudePrefix(label, v string) {
	words := strings.Fields(v)
	if len(words) == 0 || filepath.Base(words[0]) != "guard-exec" {
		dr.info("%s=%s is not guard-exec", label, v)
		return
	}
	if len(words) == 1 {
		dr.info("%s=%s: works only where CLAUDECODE=1 is set (inside Claude Code); %s -c works everywhere", label, v, words[0])
	} else {
		dr.ok("%s=%s", label, v)
	}
	dr.way("CLAUDE_CODE_SHELL_PREFIX")
}

// probeHook sends the must-hold command through a hook found in the
// settings, as the agent would, and checks that the answer stops it.
func (dr *doctor) probeHook(ctx context.Context, h hookSetting, tmp, bin, marker string) {
	os.Remove(marker)
	var in []byte
	switch h.agent {
	case "claude":
		in, _ = json.Marshal(map[string]any{"session_id": "doctor", "cwd": tmp, "hook_event_name": "PreToolUse",
			"permission_mode": "default", "tool_name": "Bash", "tool_input": map[string]string{"command": probeCommand}})
	case "gemini":
		in, _ = json.Marshal(map[string]any{"session_id": "doctor", "cwd": tmp, "hook_event_name": "BeforeTool",
			"tool_name": geminiShellTool, "tool_input": map[string]string{"command": probeCommand}})
	}
	code, out := dr.runArgv(ctx, h.argv, string(in), tmp, bin)
	stops := code == claudeBlock || strings.Contains(out, `"permissionDecision":"ask"`) ||
		strings.Contains(out, `"permissionDecision":"deny"`) || strings.Contains(out, `"decision":"deny"`)
	label := fmt.Sprintf("%s hook (%s)", h.agent, h.command)
	if code == 0 && stops {
		dr.ok("%s: stopped, the agent would not run it", label)
		dr.way(h.agent + " hook")
		return
	}
	dr.bad("%s: NOT stopped (exit %d): %s", label, code, firstLine(out))
}
