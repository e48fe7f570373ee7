package policy

import "time"

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
	}
}
