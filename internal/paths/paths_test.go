package paths

import "testing"

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
