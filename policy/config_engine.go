package policy

// NewEngineFromConfig builds the engine a configuration asks for: the
// built-in rules and the user rules, less the exempted ones, with the
// configured severities and mode. Exemptions and severities naming no rule
// do nothing (the loader has reported them).
func NewEngineFromConfig(cfg *Config) *Engine {
	if cfg == nil {
		cfg = DefaultConfig()
	}
	builtin := appendBuiltin(nil, len(cfg.Rules))
	unique := len(builtin)
	rules := append(builtin, cfg.Rules...)
	if len(cfg.Exempt) > 0 {
		exempt := make(map[string]bool, len(cfg.Exempt))
		for _, id := range cfg.Exempt {
			exempt[id] = true
		}
		kept := rules[:0]
		for i, r := range rules {
			if !exempt[r.ID] || r.Family == familyAnalysis {
				kept = append(kept, r)
			} else if i < len(builtin) {
				unique-- // the built-ins kept are still the first, and still distinct
			}
		}
		rules = kept
	}
	e := newEngine(rules, unique)
	for id, s := range cfg.Severity {
		if e.has(id) {
			if e.severity == nil {
				e.severity = make(map[string]Severity, len(cfg.Severity))
			}
			e.severity[id] = s
		}
	}
	e.Mode = cfg.Mode
	return e
}
