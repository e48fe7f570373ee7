package main

import (
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/parse"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/shim"
)

func TestSplitUnits(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"echo a; echo b\n", []string{"echo a; ", "echo b\n"}},
		{"  # c\nx\n", []string{"x\n"}},
		// a heredoc statement is glued to the next, so its body never stands alone
		{"cat <<EOF; echo hi\nbody\nEOF\necho after\n", []string{"cat <<EOF; echo hi\nbody\nEOF\n", "echo after\n"}},
		{"a && b || c &\nd\n", []string{"a && b || c &\n", "d\n"}},
	} {
		units := splitUnits(tc.text, parse.Bash)
		var got []string
		for _, u := range units {
			got = append(got, tc.text[u.start:u.end])
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("splitUnits(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
	if splitUnits("echo 'open\n", parse.Bash) != nil {
		t.Error("unparsable text has no units")
	}
}

func TestContinues(t *testing.T) {
	for text, want := range map[string]bool{
		"rm -rf \\\n":    true,
		"echo a\\\\\n":   false,
		"echo a\\\\\\\n": true,
		"echo a\n":       false,
	} {
		if got := continues(text); got != want {
			t.Errorf("continues(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestClaudePrefixOperand(t *testing.T) {
	inv := func(args ...string) *shim.Invocation {
		i, err := shim.ParseInvocation("guard-exec", args)
		if err != nil {
			t.Fatal(err)
		}
		return i
	}
	claude := newGuard([]string{"CLAUDECODE=1"}, nil)
	plain := newGuard(nil, nil)
	line := "eval 'git status' \\< /dev/null && pwd -P >| /tmp/claude-1-cwd"
	if !claudePrefixOperand(claude, inv(line)) {
		t.Error("a command line under CLAUDECODE is run as -c")
	}
	if claudePrefixOperand(plain, inv(line)) {
		t.Error("without CLAUDECODE an operand is a script file")
	}
	if claudePrefixOperand(claude, inv("/no/such/script.sh")) {
		t.Error("a plain file name stays a file name")
	}
	if claudePrefixOperand(claude, inv("-e", line)) || claudePrefixOperand(claude, inv(line, "arg")) {
		t.Error("with options or arguments it is bash's grammar")
	}
}

func TestWorkflowEscapes(t *testing.T) {
	if got := escapeData("50% a\nb"); got != "50%25 a%0Ab" {
		t.Errorf("escapeData = %q", got)
	}
	if got := escapeProp("a:b,c"); got != "a%3Ab%2Cc" {
		t.Errorf("escapeProp = %q", got)
	}
	if got := cell("a | b `c`\nd"); got != "`a \\| b 'c'; d`" {
		t.Errorf("cell = %q", got)
	}
}

func TestInteractiveStartup(t *testing.T) {
	inv := func(argv0 string, args ...string) *shim.Invocation {
		i, err := shim.ParseInvocation(argv0, args)
		if err != nil {
			t.Fatal(err)
		}
		return i
	}
	if s := startupFiles(inv("-bash")); !strings.Contains(s, "/etc/profile") || strings.Contains(s, "bashrc") {
		t.Errorf("login: %q", s)
	}
	if s := startupFiles(inv("bash")); !strings.Contains(s, "~/.bashrc") || strings.Contains(s, "profile") {
		t.Errorf("non-login: %q", s)
	}
	if s := startupFiles(inv("bash", "--norc")); s != "" {
		t.Errorf("--norc: %q", s)
	}
	if s := startupFiles(inv("bash", "--rcfile", "/x/rc")); !strings.Contains(s, "/x/rc") {
		t.Errorf("--rcfile: %q", s)
	}
	if got := interactiveOpts(inv("bash", "--rcfile", "/x", "-l", "-o", "vi")); strings.Join(got, " ") != "-o vi" {
		t.Errorf("interactiveOpts = %q", got)
	}
	rc := interactiveRC("/opt/guard exec/guard-exec", inv("bash"), 7, true, shellPlumbing{})
	for _, want := range []string{"exec 7<&-", "__ge_bin='/opt/guard exec/guard-exec'", "__ge_opts=(--ci)\n", "shopt -s extdebug", "trap '__ge_debug' DEBUG"} {
		if !strings.Contains(rc, want) {
			t.Errorf("rcfile lacks %q", want)
		}
	}
	// A shell in the kernel sandbox tells its hook so (nest.go).
	rc = interactiveRC("/g", inv("bash"), 7, false, shellPlumbing{sandboxed: policy.SandboxWrite})
	if !strings.Contains(rc, "__ge_opts=('--sandboxed=write')\n") || !strings.Contains(rc, "lines are not recorded") {
		t.Errorf("rcfile of a sandboxed shell: %q", rc)
	}
	// With the guard outside as its recorder (recorder.go), the hook is
	// told where, as one word whatever the path holds.
	rc = interactiveRC("/g", inv("bash"), 3, false, shellPlumbing{sandboxed: policy.SandboxWrite, recorder: "/h o/s.sock"})
	if !strings.Contains(rc, "__ge_opts=('--sandboxed=write' '--recorder=/h o/s.sock')\n") || strings.Contains(rc, "not recorded") {
		t.Errorf("rcfile of a recorded sandboxed shell: %q", rc)
	}
}
