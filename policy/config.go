package policy

import (
	"fmt"
	"time"
)

// Config is guard-exec's configuration after all layers are merged
// (built-in defaults < /etc/guard-exec/config.toml < user file < project
// .guard-exec.toml). The project layer may only tighten.
type Config struct {
	Mode     Mode                // user and system layers only
	Exempt   []string            // rule ids silenced; user and system layers only
	Severity map[string]Severity // rule id → severity; the project layer may only raise
	Rules    []*Rule             // user rules, already compiled and checked

	Boundary BoundaryConfig
	Env      EnvConfig
	Loop     LoopConfig
	Ledger   LedgerConfig
	Exec     ExecConfig
	Sandbox  SandboxConfig
	Export   ExportConfig

	// origin says where each value a file set came from (see OriginOf).
	origin map[string]origin
	// patterns are the user rules' patterns as written (see PatternOf).
	patterns map[*Rule]string
}

// Layer is a level of configuration, weakest first.
type Layer uint8

const (
	LayerDefault Layer = iota // built into guard-exec
	LayerSystem               // /etc/guard-exec/config.toml
	LayerUser                 // $XDG_CONFIG_HOME/guard-exec/config.toml
	LayerProject              // .guard-exec.toml at the project root: may only tighten
)

var layerNames = [...]string{"default", "system", "user", "project"}

func (l Layer) String() string {
	if int(l) < len(layerNames) {
		return layerNames[l]
	}
	return fmt.Sprintf("layer(%d)", l)
}

// Origin is where a configured value was set.
type Origin struct {
	Layer Layer
	File  string // as messages name it: ~/.config/guard-exec/config.toml, .guard-exec.toml
	Line  int    // 0 when not known
}

func (o Origin) String() string {
	switch {
	case o.Layer == LayerDefault:
		return "default"
	case o.Line > 0:
		return fmt.Sprintf("%s:%d", o.File, o.Line)
	}
	return o.File
}

// OriginOf returns where the value of key came from; the zero Origin
// (default) when no file set it. Keys: "mode", "exempt.ID", "severity.ID",
// "rule.ID", "boundary.allow_roots[PATH]", "env.strip_credentials",
// "loop.block_after", "ledger.max_bytes", "ledger.keep", "ledger.durable",
// "exec.timeout", "sandbox.mode", "sandbox.required",
// "sandbox.allow_roots[PATH]".
func (c *Config) OriginOf(key string) Origin {
	o, ok := c.origin[key]
	if !ok {
		return Origin{}
	}
	return Origin{Layer: o.l.src.Layer, File: o.l.src.Name, Line: o.l.line(o.path...)}
}

// origin is an Origin whose line is found only when someone asks: placing
// keys means scanning the file again, which the hot path has no use for.
type origin struct {
	l    *layer
	path []string
}

// BoundaryConfig extends the path boundary.
type BoundaryConfig struct {
	AllowRoots []string // more write roots; user and system layers only
}

// EnvConfig controls environment scrubbing.
type EnvConfig struct {
	StripCredentials bool // remove secret-named variables, filter git's config group
}

// LoopConfig controls the loop brake.
type LoopConfig struct {
	BlockAfter int // the Nth identical failing attempt is held; 0 disables
}

// LedgerConfig controls the evidence ledger.
type LedgerConfig struct {
	MaxBytes int64 // rotate above this size
	Keep     int   // rotated segments kept
	Durable  bool  // fsync each record
}

// ExecConfig controls how commands run.
type ExecConfig struct {
	Timeout time.Duration // 0: none
}

// DefaultConfig is the built-in layer.
func DefaultConfig() *Config {
	return &Config{
		Mode:     Enforce,
		Severity: map[string]Severity{},
		Loop:     LoopConfig{BlockAfter: 3},
		Ledger:   LedgerConfig{MaxBytes: 4 << 20, Keep: 3},
		Sandbox:  SandboxConfig{Required: true},
		Export:   ExportConfig{Batch: DefaultExportBatch},
	}
}

// PatternOf returns a user rule's pattern as its file wrote it ("" for a
// rule without one, or a rule the configuration did not define).
func (c *Config) PatternOf(r *Rule) string { return c.patterns[r] }
