package policy

// NewEngineFromConfig builds the engine a configuration asks for: the
// built-in rules and the user rules, less the exempted ones, with the
// configured severities and mode. Exemptions and severities naming no rule
// do nothing (the loader has reported them).
func NewEngineFromConfig(cfg *Config) *Engine {
	if cfg == nil {
		cfg = DefaultConfig()
	}
	rules := append(Builtin(), cfg.Rules...)
	if len(cfg.Exempt) > 0 {
		exempt := make(map[string]bool, len(cfg.Exempt))
		for _, id := range cfg.Exempt {
			exempt[id] = true
		}
		kept := rules[:0]
		for _, r := range rules {
			if !exempt[r.ID] || r.Family == familyAnalysis {
				kept = append(kept, r)
			}
		}
		rules = kept
	}
	e := NewEngine(rules)
	for id, s := range cfg.Severity {
		if _, ok := e.severity[id]; ok {
			e.severity[id] = s
		}
	}
	e.Mode = cfg.Mode
	return e
}
