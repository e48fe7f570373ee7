package policy

// Report is the machine-readable shape of a decision: the check contract
// (SPEC §6). Other tools depend on it; fields are only ever added.
type Report struct {
	Verdict    string       `json:"verdict"`
	Rules      []ReportRule `json:"rules"`
	ParseError *ReportError `json:"parse_error"`
}

// ReportRule is one rule hit.
type ReportRule struct {
	ID       string `json:"id"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Hint     string `json:"hint"`
	Span     string `json:"span"`
	Pos      string `json:"pos"`
}

// ReportError says why a script could not be analysed.
type ReportError struct {
	Kind    string `json:"kind"`
	Pos     string `json:"pos,omitempty"`
	Message string `json:"message"`
}

// Report renders the decision. Rules is never null, so consumers can
// iterate without a check.
func (d *Decision) Report() *Report {
	r := &Report{Verdict: d.Verdict.String(), Rules: make([]ReportRule, 0, len(d.Hits))}
	for _, h := range d.Hits {
		r.Rules = append(r.Rules, ReportRule{
			ID: h.Rule.ID, Severity: h.Severity.String(), Message: h.Rule.Message,
			Hint: h.Rule.Hint, Span: h.Span, Pos: h.Pos.String(),
		})
	}
	if e := d.ParseError; e != nil {
		r.ParseError = &ReportError{Kind: string(e.Kind), Message: e.Msg}
		if e.Pos.IsValid() {
			r.ParseError.Pos = e.Pos.String()
		}
	}
	return r
}
