package policy

import "testing"

// TestSandboxConfigProjectOnlyTightens: a project may turn the sandbox on
// or make it stricter; it may not turn it off, make it optional or widen it.
func TestSandboxConfigProjectOnlyTightens(t *testing.T) {
	user := "[sandbox]\nmode = \"strict\"\nallow_roots = [\"~/scratch\", \"/\"]\n"
	project := "[sandbox]\nmode = \"write\"\nrequired = false\nallow_roots = [\"/etc\"]\n"
	res := loadLayers(memFiles{LayerUser: user, LayerProject: project})
	wantProblems(t, res,
		`~/.config/guard-exec/config.toml:3: sandbox.allow_roots: "/" would make the sandbox bound nothing`,
		".guard-exec.toml:2: sandbox.mode: the project file can only turn the sandbox on or make it stricter (strict to write refused); ignored",
		".guard-exec.toml:3: sandbox.required: the project file cannot let commands run unsandboxed; ignored",
		".guard-exec.toml:4: the project file cannot add sandbox allow roots; ignored",
	)
	c := res.Config.Sandbox
	if c.Mode != SandboxStrict || !c.Required || len(c.AllowRoots) != 1 || c.AllowRoots[0] != "/home/user/scratch" {
		t.Errorf("sandbox config %+v", c)
	}
}

func TestSandboxConfigProjectTurnsOn(t *testing.T) {
	res := loadLayers(memFiles{LayerProject: "[sandbox]\nmode = \"write\"\nrequired = true\n"})
	wantProblems(t, res)
	if c := res.Config.Sandbox; c.Mode != SandboxWrite || !c.Required {
		t.Errorf("sandbox config %+v", c)
	}
	if o := res.Config.OriginOf("sandbox.mode").String(); o != ".guard-exec.toml:2" {
		t.Errorf("origin %q", o)
	}
}

func TestSandboxConfigBadValues(t *testing.T) {
	res := loadLayers(memFiles{LayerUser: "[sandbox]\nmode = \"on\"\nrequired = \"yes\"\nallow_roots = \"/x\"\n"})
	wantProblems(t, res,
		`~/.config/guard-exec/config.toml:2: sandbox.mode: "on" is not off, write or strict; keeping the default (off)`,
		`~/.config/guard-exec/config.toml:3: sandbox.required: want true or false, got a string; keeping the default (true)`,
		`~/.config/guard-exec/config.toml:4: sandbox.allow_roots: want an array of paths, got a string; ignored`,
	)
	if c := res.Config.Sandbox; c.Mode != SandboxOff || !c.Required {
		t.Errorf("sandbox config %+v", c)
	}
	// The user layer may make it optional.
	res = loadLayers(memFiles{LayerUser: "[sandbox]\nmode = \"write\"\nrequired = false\n"})
	wantProblems(t, res)
	if c := res.Config.Sandbox; c.Mode != SandboxWrite || c.Required {
		t.Errorf("sandbox config %+v", c)
	}
}
