package paths

import (
	"os"
	"testing"
)

func TestLocations(t *testing.T) {
	env := func(m map[string]string) func(string) string {
		return func(k string) string { return m[k] }
	}
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"config xdg", UserConfigDir(env(map[string]string{"XDG_CONFIG_HOME": "/x/cfg", "HOME": "/h"})), "/x/cfg/guard-exec"},
		{"config home", UserConfigDir(env(map[string]string{"HOME": "/h"})), "/h/.config/guard-exec"},
		{"config relative xdg ignored", UserConfigDir(env(map[string]string{"XDG_CONFIG_HOME": "cfg", "HOME": "/h"})), "/h/.config/guard-exec"},
		{"config file", UserConfigFile(env(map[string]string{"HOME": "/h"})), "/h/.config/guard-exec/config.toml"},
		{"config unknown", UserConfigDir(env(nil)), ""},
		{"config file unknown", UserConfigFile(env(nil)), ""},
		{"state", StateDir(env(map[string]string{"HOME": "/h"})), "/h/.local/state/guard-exec"},
		{"state xdg", StateDir(env(map[string]string{"XDG_STATE_HOME": "/s"})), "/s/guard-exec"},
		{"shim", ShimDir(env(map[string]string{"HOME": "/h"})), "/h/.local/share/guard-exec/shim"},
		{"shim xdg", ShimDir(env(map[string]string{"XDG_DATA_HOME": "/d", "HOME": "/h"})), "/d/guard-exec/shim"},
		{"shim unknown", ShimDir(env(nil)), ""},
		{"system", SystemConfigFile(), "/etc/guard-exec/config.toml"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestDirs(t *testing.T) {
	for _, tc := range []struct {
		env               map[string]string
		shim, data, cache string
	}{
		{env: map[string]string{"HOME": "/home/u"},
			shim: "/home/u/.local/share/guard-exec/shim", data: "/home/u/.local/share/guard-exec", cache: "/home/u/.cache/guard-exec"},
		{env: map[string]string{"HOME": "/home/u", "XDG_DATA_HOME": "/x/data/", "XDG_CACHE_HOME": "/x/cache"},
			shim: "/x/data/guard-exec/shim", data: "/x/data/guard-exec", cache: "/x/cache/guard-exec"},
		// relative XDG values are ignored, as the specification says
		{env: map[string]string{"HOME": "/home/u", "XDG_DATA_HOME": "data", "XDG_CACHE_HOME": "c"},
			shim: "/home/u/.local/share/guard-exec/shim", data: "/home/u/.local/share/guard-exec", cache: "/home/u/.cache/guard-exec"},
		// no usable home: no answer rather than a relative path
		{env: map[string]string{}, shim: "", data: "", cache: ""},
		{env: map[string]string{"HOME": "relative"}, shim: "", data: "", cache: ""},
	} {
		getenv := func(k string) string { return tc.env[k] }
		if got := ShimDir(getenv); got != tc.shim {
			t.Errorf("ShimDir(%v) = %q, want %q", tc.env, got, tc.shim)
		}
		if got := DataDir(getenv); got != tc.data {
			t.Errorf("DataDir(%v) = %q, want %q", tc.env, got, tc.data)
		}
		if got := CacheDir(getenv); got != tc.cache {
			t.Errorf("CacheDir(%v) = %q, want %q", tc.env, got, tc.cache)
		}
	}
}

// The tables use fictional homes (/h, /home/u): they exist for these
// tests, and the user database has none, unless a test says otherwise.
func TestMain(m *testing.M) {
	isDir = func(p string) bool { return p == "/h" || p == "/home/u" || p == "/passwd/home" }
	userHome = func() string { return "" }
	os.Exit(m.Run())
}

func TestHomeThatIsNotThere(t *testing.T) {
	defer func(f func() string) { userHome = f }(userHome)
	userHome = func() string { return "/passwd/home" }
	home.done = false
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		home, want string
	}{
		{"/h", "/h"},
		{"/usr/$x/abc", "/passwd/home"}, // bash's tilde tests: never a new home under /usr
		{"/nonexistent", "/passwd/home"},
		{"", "/passwd/home"}, // env -i
		{"relative", ""},
	} {
		if got := Home(env(map[string]string{"HOME": tc.home})); got != tc.want {
			t.Errorf("HOME=%q: Home = %q, want %q", tc.home, got, tc.want)
		}
	}
	if got := StateDir(env(map[string]string{"HOME": "/nonexistent"})); got != "/passwd/home/.local/state/guard-exec" {
		t.Errorf("StateDir with a missing HOME = %q", got)
	}
}
