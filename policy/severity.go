package policy

import "fmt"

// Severity orders verdicts: Allow < Warn < Hold < Deny.
type Severity uint8

const (
	Allow Severity = iota
	Warn
	Hold
	Deny
)

var severityNames = [...]string{"allow", "warn", "hold", "deny"}

func (s Severity) String() string {
	if int(s) < len(severityNames) {
		return severityNames[s]
	}
	return fmt.Sprintf("severity(%d)", s)
}

// ParseSeverity reads "allow", "warn", "hold" or "deny".
func ParseSeverity(s string) (Severity, error) {
	for i, n := range severityNames {
		if n == s {
			return Severity(i), nil
		}
	}
	return Allow, fmt.Errorf("unknown severity %q (want warn, hold or deny)", s)
}

func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Blocks reports whether a verdict keeps the command from running.
func (s Severity) Blocks() bool { return s >= Hold }

// Mode says what a verdict does.
type Mode uint8

const (
	Enforce Mode = iota // holds and denies block (the default)
	Advise              // holds and denies become warnings; nothing is blocked
	Audit               // nothing is printed or blocked; everything is recorded
)

var modeNames = [...]string{"enforce", "advise", "audit"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("mode(%d)", m)
}

// ParseMode reads "enforce", "advise" or "audit".
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if n == s {
			return Mode(i), nil
		}
	}
	return Enforce, fmt.Errorf("unknown mode %q (want enforce, advise or audit)", s)
}

func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

func (m *Mode) UnmarshalText(b []byte) error {
	v, err := ParseMode(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// apply maps the highest severity hit to the verdict under the mode.
func (m Mode) apply(s Severity) Severity {
	switch {
	case m == Audit:
		return Allow
	case m == Advise && s > Warn:
		return Warn
	}
	return s
}
