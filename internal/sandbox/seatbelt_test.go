package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The Seatbelt profiles are checked as text against testdata/seatbelt/*.sb;
// GUARD_EXEC_UPDATE_GOLDEN=1 rewrites those files from the generator (read
// the diff before committing it).
func TestSeatbeltProfileGolden(t *testing.T) {
	project := "/Users/ann/src/app"
	base := Spec{
		WriteRoots: []string{project, "/private/tmp", "/Users/ann/Library/Caches/"},
		Protected: []string{
			project + "/.guard-exec",
			project + "/.git/hooks", project + "/.git/config",
			project + "/.claude", "/Users/ann/.claude",
			"/Users/ann/.config/guard-exec", "/usr/local/bin/guard-exec",
			project + "/.git/config", // twice: written once
		},
	}
	cases := []struct {
		name string
		mode Mode
		home string
	}{
		{"write", Write, "/Users/ann"},
		{"strict", Strict, "/Users/ann"},
		{"nohome", Write, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := base
			s.Mode = c.mode
			got, err := SeatbeltProfile(&s, c.home)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "seatbelt", c.name+".sb")
			if os.Getenv("GUARD_EXEC_UPDATE_GOLDEN") == "1" {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (GUARD_EXEC_UPDATE_GOLDEN=1 writes it)", err)
			}
			if got != string(want) {
				t.Errorf("profile differs from %s (GUARD_EXEC_UPDATE_GOLDEN=1 rewrites it):\n%s", golden, got)
			}
		})
	}
}

// What the goldens must say, stated independently of them: the order of
// the rules is what makes SBPL mean it (a later rule overrides).
func TestSeatbeltProfileMeaning(t *testing.T) {
	s := &Spec{Mode: Strict, WriteRoots: []string{"/p"}, Protected: []string{"/p/.git/hooks", "/elsewhere/x"}}
	got, err := SeatbeltProfile(s, "/h")
	if err != nil {
		t.Fatal(err)
	}
	order := []string{
		"(allow default)", "(deny file-write*)\n(allow file-write*\n    (subpath \"/p\")",
		"(deny file-write*\n    (subpath \"/p/.git/hooks\")\n    (subpath \"/elsewhere/x\")\n    (literal \"/p/.git\"))",
		"(deny file-read*\n    (subpath \"/h/.ssh\")", "(allow file-read*\n    (literal \"/h/.ssh/known_hosts\")",
		"(deny network*)",
	}
	at := 0
	for _, o := range order {
		i := strings.Index(got[at:], o)
		if i < 0 {
			t.Fatalf("missing, or out of order: %q in\n%s", o, got)
		}
		at += i + len(o)
	}
	s.Mode = Write
	if got, _ := SeatbeltProfile(s, "/h"); strings.Contains(got, "network") {
		t.Errorf("write mode must leave the network alone:\n%s", got)
	}
	if _, err := SeatbeltProfile(&Spec{Mode: Off}, "/h"); err == nil {
		t.Error("mode off has no profile")
	}
}

func TestSeatbeltQuoting(t *testing.T) {
	got, err := SeatbeltProfile(&Spec{Mode: Write, WriteRoots: []string{`/a "b" \c`}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, `(subpath "/a \"b\" \\c")`) {
		t.Errorf("quotes and backslashes not escaped:\n%s", got)
	}
	for _, p := range []string{"/a\nb", "/a\x00b", "/a\x7fb"} {
		if _, err := SeatbeltProfile(&Spec{Mode: Write, WriteRoots: []string{p}}, ""); err == nil {
			t.Errorf("%q: a control character must fail the profile, not be written into it", p)
		}
		if _, err := SeatbeltProfile(&Spec{Mode: Write, Protected: []string{p}}, ""); err == nil {
			t.Errorf("%q (protected): a control character must fail the profile", p)
		}
	}
}

func TestSeatbeltSpecResolves(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	link := filepath.Join(dir, "link")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	rdir, _ := filepath.EvalSymlinks(dir)
	s := SeatbeltSpec(&Spec{Mode: Write, WriteRoots: []string{link}, Protected: []string{filepath.Join(link, "not-yet", "f")}})
	if !contains(s.WriteRoots, link) || !contains(s.WriteRoots, filepath.Join(rdir, "real")) {
		t.Errorf("roots %v: want the link and its target", s.WriteRoots)
	}
	if !contains(s.Protected, filepath.Join(rdir, "real", "not-yet", "f")) {
		t.Errorf("protected %v: a missing path is resolved through its existing parent", s.Protected)
	}
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
