package policy

import (
	"strings"

	"github.com/guard-exec/guard-exec/parse"
)

// Rules for scripts the analysis could not handle. They are verdicts, not
// errors: a guard that cannot read a command must never answer "allow" by
// default (SPEC §3).
var (
	ruleParseError = &Rule{
		ID: "parse-error", Family: "analysis", Severity: Warn,
		Message: "the command line could not be parsed; bash will report the error itself",
		Hint:    "fix the quoting or the syntax of the command",
	}
	ruleParseRisky = &Rule{
		ID: "parse-error-risky", Family: "analysis", Severity: Hold,
		Message: "the command line could not be parsed and its text matches a risky pattern",
		Hint:    "fix the syntax so the command can be checked, or split it into simpler commands",
	}
	ruleTooLarge = &Rule{
		ID: "input-too-large", Family: "analysis", Severity: Hold,
		Message: "the script is larger than the guard analyses (1 MiB)",
		Hint:    "write the content to a file with a smaller command, or run the script from a file in parts",
	}
	ruleTooDeep = &Rule{
		ID: "nesting-too-deep", Family: "analysis", Severity: Hold,
		Message: "the script nests deeper than the guard analyses",
		Hint:    "flatten the nested substitutions or subshells",
	}
	ruleTooMuch = &Rule{
		ID: "analysis-budget", Family: "analysis", Severity: Hold,
		Message: "the command line holds more commands, or a longer chain of pipes and && than the guard analyses",
		Hint:    "run the work as a script file in parts, or loop over the items instead of writing each command out",
	}
	ruleAnalysisFailed = &Rule{
		ID: "analysis-failed", Family: "analysis", Severity: Hold,
		Message: "the guard failed to analyse the command line",
		Hint:    "simplify the command; report the input as a guard-exec bug",
	}
)

// analysisRules are listed by `guard-exec rules` with the rest.
var analysisRules = []*Rule{ruleParseError, ruleParseRisky, ruleTooLarge, ruleTooDeep, ruleTooMuch, ruleAnalysisFailed}

// fallback judges a script that has no facts. An unparseable script is
// scanned as raw text with every rule's pattern, without stripping data
// (there is no tree to tell data from code): any hit holds it, at the
// rule's own severity when that is higher. Otherwise it only warns, since
// bash will refuse the script with its own message (and bash accepts a few
// things the parser does not, such as a heredoc closed by end of input).
func (e *Engine) fallback(a *parse.Analysis) []Hit {
	err := a.Err
	switch err.Kind {
	case parse.ErrTooLarge:
		return []Hit{e.hit(ruleTooLarge, err.Msg, err.Pos)}
	case parse.ErrTooDeep:
		return []Hit{e.hit(ruleTooDeep, err.Msg, err.Pos)}
	case parse.ErrTooMuch:
		return []Hit{e.hit(ruleTooMuch, err.Msg, err.Pos)}
	case parse.ErrPanic:
		return []Hit{e.hit(ruleAnalysisFailed, err.Msg, err.Pos)}
	}
	var hits []Hit
	lower := strings.ToLower(a.Raw)
	for _, r := range e.rules {
		loc := r.rawFind(a.Raw, lower) // needles.go: most patterns are never compiled
		if loc == nil {
			continue
		}
		h := e.hit(r, a.Raw[loc[0]:loc[1]], posAt(a.Raw, loc[0]))
		if h.Severity < Hold {
			h.Severity = Hold
		}
		hits = append(hits, h)
	}
	if len(hits) > 0 {
		return append(hits, e.hit(ruleParseRisky, err.Error(), err.Pos))
	}
	return []Hit{e.hit(ruleParseError, err.Error(), err.Pos)}
}

// posAt converts a byte offset into a line:column position.
func posAt(s string, off int) parse.Pos {
	p := parse.Pos{Line: 1, Col: 1}
	for i := 0; i < off && i < len(s); i++ {
		if s[i] == '\n' {
			p.Line++
			p.Col = 1
		} else {
			p.Col++
		}
	}
	return p
}
