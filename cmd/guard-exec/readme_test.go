package main

import (
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/policy"
)

func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// section is the text of the README section with that heading.
func section(t *testing.T, text, heading string) string {
	t.Helper()
	i := strings.Index(text, "\n## "+heading+"\n")
	if i < 0 {
		t.Fatalf("README has no section %q", heading)
	}
	rest := text[i+len(heading)+5:]
	if j := strings.Index(rest, "\n## "); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// TestReadmeExitCodes keeps the README's exit-code table true to the
// statuses the program gives itself: every one is listed, and nothing else.
func TestReadmeExitCodes(t *testing.T) {
	codes := map[int]string{
		exitAttention:   "something needs attention",
		claudeBlock:     "the tool call is blocked",
		exitGuardFailed: "guard-exec itself failed",
		exitBlocked:     "held or denied",
		exitNotFound:    "not found",
	}
	table := section(t, readme(t), "Exit codes")
	row := regexp.MustCompile(`(?m)^\| (\d+) \| (.*) \|$`)
	listed := map[int]bool{}
	for _, m := range row.FindAllStringSubmatch(table, -1) {
		n, _ := strconv.Atoi(m[1])
		listed[n] = true
		want, ok := codes[n]
		if !ok {
			t.Errorf("README lists exit status %d, which guard-exec does not give", n)
			continue
		}
		if !strings.Contains(m[2], want) {
			t.Errorf("README's exit status %d reads %q, want it to say %q", n, m[2], want)
		}
	}
	var missing []int
	for n := range codes {
		if !listed[n] {
			missing = append(missing, n)
		}
	}
	sort.Ints(missing)
	for _, n := range missing {
		t.Errorf("README's exit-code table misses %d (%s)", n, codes[n])
	}
}

// TestReadmeConfigExample loads the README's annotated configuration as a
// user file: it must be valid, with no problem reported.
func TestReadmeConfigExample(t *testing.T) {
	sec := section(t, readme(t), "Configuration")
	i := strings.Index(sec, "```toml\n")
	if i < 0 {
		t.Fatal("the Configuration section has no toml example")
	}
	body := sec[i+len("```toml\n"):]
	body = body[:strings.Index(body, "```")]
	src := policy.ConfigSource{Layer: policy.LayerUser, Path: "/readme/config.toml", Name: "README"}
	res := policy.LoadConfig(policy.LoadOptions{Sources: []policy.ConfigSource{src}, Home: "/home/u",
		Read: func(policy.ConfigSource) ([]byte, error) { return []byte(body), nil }})
	for _, p := range res.Problems {
		t.Errorf("README's configuration: %s", p)
	}
	if res.Config.Mode != policy.Enforce {
		t.Errorf("mode = %v, want enforce", res.Config.Mode)
	}
}

// TestReadmeSelfContained: the README is read by people who have only this
// repository, so it names no document outside it.
func TestReadmeSelfContained(t *testing.T) {
	if m := regexp.MustCompile(`SPEC|§\s*\d`).FindString(readme(t)); m != "" {
		t.Errorf("README refers to a document outside the repository: %q", m)
	}
}
