package policy

import "testing"

// BenchmarkNewEngine is the engine every command builds from the built-in
// rules and the configuration.
func BenchmarkNewEngine(b *testing.B) {
	cfg := DefaultConfig()
	b.ReportAllocs()
	for b.Loop() {
		NewEngineFromConfig(cfg)
	}
}
